/**
 * @module
 * A fake of the run's API client for unit tests of the run's steps: each call is logged as
 * `METHOD path?query` and answered by the test's own function, so a test models exactly the books
 * it needs (an order made three days ago, a delete the API refuses) without the sandbox.
 */
import type { Reply, RunApi } from "../../../src/ledger/run-api";

/** What the test's function answers: a status and a JSON body. */
export interface FakeAnswer {
  status: number;
  body?: unknown;
}

/** A RunApi answering with `answer`; `log` lists the calls made, in order. */
export function fakeApi(
  answer: (method: string, path: string, query: URLSearchParams, body: unknown) => FakeAnswer,
): RunApi & { log: string[] } {
  const log: string[] = [];
  const api = {
    log,
    get calls() {
      return log.length;
    },
    async call(method: string, path: string, body?: unknown): Promise<Reply> {
      log.push(`${method} ${path}`);
      const [p = path, search = ""] = path.split("?", 2);
      const a = answer(method, p, new URLSearchParams(search), body);
      const detail =
        a.body && typeof a.body === "object" && "detail" in a.body ? String(a.body.detail) : "";
      return { operation: `${method} ${p}`, status: a.status, body: a.body ?? null, detail };
    },
  };
  return api as RunApi & { log: string[] };
}

/** The API's answer to a reference already in use (its only duplicate protection). */
export const DUPLICATE: FakeAnswer = {
  status: 400,
  body: {
    title: "Validation error(s)",
    detail: "ExternalImportReference is already in use. 'x' is used on Id = 1.",
  },
};

/** A list answer: 204 when empty, as the API does. */
export const rows = (list: unknown[]): FakeAnswer =>
  list.length === 0 ? { status: 204 } : { status: 200, body: list };
