/**
 * @module
 * An answer's body passed on to the caller unchanged, with a copy of its bytes once the caller has
 * taken them: what `announce.ts` reads a write's answer from, after it has left, instead of
 * teeing it (the copy costs the caller nothing, and the announcement waits for its last byte).
 */
import { joinChunks } from "../kernel/bytes";

/** The largest answer copied, bytes (a record's answer is a few kB). */
const MAX_ANSWER_BYTES = 1024 * 1024;
/**
 * How long the announcement waits for the caller to take the answer, ms: the runtime takes it at
 * once; only a caller that drops the connection, or a test that never reads it, leaves it waiting.
 */
const ANSWER_TAKEN_MS = 10_000;

/**
 * `body` passed on unchanged, with a copy of its bytes (up to `MAX_ANSWER_BYTES`; null past that)
 * that `done` resolves to once the reader has taken the last of them. A reader that cancels, or
 * takes none of it within `ANSWER_TAKEN_MS`, resolves it to null: the announcement then goes
 * without the answer (a record's event is not made; the watcher sees the change later).
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
