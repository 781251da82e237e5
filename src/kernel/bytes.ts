/**
 * `chunks` (`size` bytes in all, as the reader counted) as one fresh array, which the caller may
 * hand on without sharing it: the one copy loop of the gateway's body readers.
 * @example joinChunks([new Uint8Array([1]), new Uint8Array([2, 3])], 3) // Uint8Array [1, 2, 3]
 */
export function joinChunks(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return bytes;
}
