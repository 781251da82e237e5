/**
 * @module
 * An answer's body passed on unchanged, with a copy of its bytes once the caller took them: what
 * `announce.ts` reads a write's answer from, instead of a tee.
 */
import { joinChunks } from "../../shared/bytes";

/** The largest answer copied, bytes (a record's answer is a few kB). */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** How long the announcement waits for the caller to take the answer, ms (the runtime: at once). */
const ANSWER_TAKEN_MS = 10_000;

/**
 * `body` passed on, and `done`: its bytes once the reader took the last (null past
 * `MAX_ANSWER_BYTES`, on a cancel, or after `ANSWER_TAKEN_MS`).
 */
export function passedOn(body: ReadableStream<Uint8Array> | null): {
  body: ReadableStream<Uint8Array> | null;
  done: Promise<Uint8Array | null>;
} {
  if (!body) return { body, done: Promise.resolve(new Uint8Array()) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let finished: (bytes: Uint8Array | null) => void = () => {};
  const done = new Promise<Uint8Array | null>((resolve) => (finished = resolve));
  const timer = setTimeout(() => finished(null), ANSWER_TAKEN_MS);
  const end = (bytes: Uint8Array | null) => {
    clearTimeout(timer);
    finished(bytes);
  };
  const passed = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done) {
        controller.close();
        return end(size > MAX_ANSWER_BYTES ? null : joinChunks(chunks, size));
      }
      size += next.value.byteLength;
      if (size <= MAX_ANSWER_BYTES) chunks.push(next.value);
      controller.enqueue(next.value);
    },
    cancel(reason) {
      end(null);
      return reader.cancel(reason);
    },
  });
  return { body: passed, done };
}
