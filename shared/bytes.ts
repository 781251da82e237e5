/**
 * @module
 * Reading an API request body under a size cap, shared by the gateway (pass-through) and the
 * sandbox (its resources), so both stop reading at the same point in the same way.
 */

/**
 * Reads `body` whole, or returns null as soon as it passes `max` bytes (the rest is not read).
 *
 * @param body the stream to read
 * @param max the largest size allowed, bytes
 * @returns the bytes, or null when the body is larger than `max`
 */
export async function readCapped(
  body: ReadableStream<Uint8Array>,
  max: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return joinChunks(chunks, size);
}

/**
 * `chunks` (`size` bytes in all, as the reader counted) as one fresh array, which the caller may
 * hand on without sharing it: the one copy loop of the body readers.
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
