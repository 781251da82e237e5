/**
 * @module
 * Byte chunks read from a stream, joined: the one copy loop of the gateway's body readers.
 */

/**
 * `chunks` as one new array of `size` bytes, in order (`size` is their total length, which the
 * reader counted as it read them, so nothing is summed twice). A fresh buffer every call: the
 * caller may hand it on, or out as an `ArrayBuffer`, without sharing it with another.
 *
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
