/**
 * @module
 * What a handler receives and returns. The Worker resolves the operation, checks privileges and
 * parses the body; the client's Durable Object runs the handler and answers with a `Reply`, which
 * the Worker turns into the HTTP response.
 */
import type { Environment } from "../env";
import { problems, type Problem, type Result } from "../lib/problem";
import { pageOf, paginationHeader, pagingOf } from "../lib/query";
import type { Dto, Store } from "./store";

/** An uploaded file, as multipart operations receive it. */
export interface Upload {
  name: string;
  type: string;
  bytes: Uint8Array;
  /** The form's text fields besides the file, as the caller named them. */
  fields: Record<string, string>;
}

/** One API call, as the client's data object sees it. */
export interface Call {
  /** The catalog key, e.g. `GET /Customers/{id}`. */
  key: string;
  params: Record<string, string>;
  /** Query parameters with lowercased names. */
  query: [string, string][];
  url: string;
  body: unknown;
  upload: Upload | null;
  environment: Environment;
  clientId: string;
  /** The integration that holds the token: records it creates are its own. */
  integration: string;
  privileges: string[];
}

/** The answer of a handler. */
export interface Reply {
  status: number;
  json?: unknown;
  headers?: Record<string, string>;
  bytes?: { type: string; data: Uint8Array };
}

/** What a handler works with. */
export interface Ctx {
  store: Store;
  call: Call;
  q: Map<string, string>;
  now: Date;
  /**
   * Schedules the object's alarm no later than `at` (asynchronous work such as invoice delivery).
   */
  wakeAt(at: number): void;
}

export type Handler = (ctx: Ctx) => Result<Reply>;

export const ok = (
  json: unknown,
  status = 200,
  headers?: Record<string, string>,
): Result<Reply> => ({ ok: true, value: { status, json, ...(headers ? { headers } : {}) } });
export const empty = (status = 200): Result<Reply> => ({ ok: true, value: { status } });
export const fail = (problem: Problem): Result<never> => ({ ok: false, problem });

/**
 * A list answer: paged, ordered and projected per ResourceParameters; 204 when empty, as the API
 * answers.
 */
export function listReply(ctx: Ctx, rows: Dto[], known?: readonly string[]): Result<Reply> {
  const paging = pagingOf(ctx.q);
  if (!paging.ok) return paging;
  const fields = known ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const page = pageOf(rows, paging.value, fields);
  if (!page.ok) return page;
  if (page.value.items.length === 0) return empty(204);
  return ok(page.value.items, 200, {
    "x-pagination": paginationHeader(new URL(ctx.call.url), paging.value, page.value.total),
  });
}

/** The int64 path parameter `name`, or ASP.NET's model-binding problem. */
export function intParam(ctx: Ctx, name: string): Result<number> {
  const raw = ctx.call.params[name] ?? "";
  return /^\d{1,15}$/.test(raw)
    ? { ok: true, value: Number(raw) }
    : fail(bindingProblem(name, raw));
}

/** The uuid path or query parameter `name`, or ASP.NET's model-binding problem. */
export function uuidParam(
  ctx: Ctx,
  name: string,
  raw = ctx.call.params[name] ?? "",
): Result<string> {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw)
    ? { ok: true, value: raw.toLowerCase() }
    : fail(bindingProblem(name, raw));
}

export function bindingProblem(name: string, raw: string): Problem {
  return {
    status: 400,
    title: "One or more validation errors occurred.",
    detail: `The value '${raw}' is not valid for ${name}.`,
    errors: { [name]: [`The value '${raw}' is not valid.`] },
  };
}

/** A required query parameter, or the problem naming it. */
export function requiredQuery(ctx: Ctx, name: string): Result<string> {
  const v = ctx.q.get(name.toLowerCase())?.trim();
  return v
    ? { ok: true, value: v }
    : fail({
        status: 400,
        title: "One or more validation errors occurred.",
        detail: `The ${name} field is required.`,
        errors: { [name]: [`The ${name} field is required.`] },
      });
}

export { problems };
