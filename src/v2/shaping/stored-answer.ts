/** @module An answer kept in the tenant's object to be given again (replays, cached reads). */
import { z } from "zod";
import { joinChunks } from "../../../shared/bytes";

/** A kept answer. `body` is null when it was too large to keep (or had none). */
export interface StoredAnswer {
  status: number;
  /** By lower-case name. */
  headers: Record<string, string>;
  body: ArrayBuffer | null;
}

export const StoredHeaders = z.record(z.string(), z.string());

/** The part of an answer that is kept, and the caller's response (the whole body, kept or not). */
export interface Captured {
  answer: StoredAnswer;
  complete: boolean;
  response: Response;
}

/**
 * Reads `res`'s body up to `maxBytes` to keep it. A larger body is not kept but still reaches the
 * caller whole: what was read first, then the rest as it streams.
 *
 * @example const { answer, complete, response } = await capture(res, ["content-type"], 256 * 1024);
 */
export async function capture(
  res: Response,
  keep: readonly string[],
  maxBytes: number,
): Promise<Captured> {
  const headers: Record<string, string> = {};
  for (const name of keep) {
    const v = res.headers.get(name);
    if (v !== null) headers[name] = v;
  }
  const meta = { status: res.status, statusText: res.statusText, headers: res.headers };
  if (!res.body)
    return {
      answer: { status: res.status, headers, body: null },
      complete: true,
      response: new Response(null, meta),
    };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done)
      return {
        answer: { status: res.status, headers, body: joinChunks(chunks, size).buffer },
        complete: true,
        response: new Response(joinChunks(chunks, size).buffer, meta),
      };
    chunks.push(value);
    size += value.byteLength;
    if (size > maxBytes)
      return {
        answer: { status: res.status, headers, body: null },
        complete: false,
        response: new Response(rest(chunks, reader), meta),
      };
  }
}

/** The response for a kept answer, with `extra` headers set on top. */
export function answerResponse(answer: StoredAnswer, extra: Record<string, string>): Response {
  const headers = new Headers(answer.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  // A 204 or 304 must be answered without a body; a body not kept has no type.
  const body = answer.status === 204 || answer.status === 304 ? null : answer.body;
  if (body === null) headers.delete("content-type");
  return new Response(body, { status: answer.status, headers });
}

function rest(
  read: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
): ReadableStream<Uint8Array> {
  const queued = [...read];
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      const next = queued.shift();
      if (next) return ctrl.enqueue(next);
      const { done, value } = await reader.read();
      if (done) ctrl.close();
      else ctrl.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
