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
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
