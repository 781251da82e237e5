/**
 * @module
 * A `/v2/*` call passed through for its caller's tenant: the path checked, the body limited and
 * validated against the catalog before anything is sent, one call through the upstream client, and
 * the answer passed back with only the headers that belong to it.
 */
import type { z } from "zod";
import { readCapped } from "../../shared/bytes";
import { matchOperation } from "../../shared/v2/catalog";
import type { Caller } from "./app";
import { environmentConfig, type Bindings } from "./config";
import { Problem } from "./problem";
import type { AccessCache } from "./upstream/access-cache";
import { callUpstream, type CallTrace } from "./upstream/client";
import { gatewayLink, gatewayPagination } from "./upstream/links";
import { v2Path } from "./v2-path";
import { fieldErrors } from "./validate";

/** Largest body passed through, bytes: the API's largest upload (a 30 MB pdf) with room for multipart framing. */
export const MAX_PASSTHROUGH_BODY_BYTES = 32 * 1024 * 1024;
/** Bodies up to this size are buffered, so a call can be resent after a 401; larger ones are streamed. */
export const BUFFERED_BODY_BYTES = 1024 * 1024;

/** How long a call may take in all, ms, unless the caller asks otherwise with `X-Deadline-Ms`. */
export const DEFAULT_DEADLINE_MS = 30_000;
/** The longest deadline a caller may ask for, ms. */
const MAX_DEADLINE_MS = 120_000;

/**
 * Passes `req` (a request below `/v2`) to the API for `caller`'s tenant and answers the API's
 * response: same status and body, useful headers only. Throws a `Problem` for bad input (before
 * anything is sent) and when no answer can be had. `trace` is filled in for the request's log line;
 * `accessCache`, the isolate's verified keys, spares a warm call the tenant's object.
 */
export async function passThrough(env: Bindings, caller: Caller, req: Request, requestId: string, trace: CallTrace, accessCache?: AccessCache): Promise<Response> {
  const started = Date.now();
  const url = new URL(req.url);
  const path = v2Path(url.pathname);
  if (!path.ok) throw new Problem("bad-request", path.error);
  const config = environmentConfig(env, caller.environment);
  if (!config.ok) throw new Problem("unavailable", config.detail);
  const method = req.method.toUpperCase();
  const body = await upstreamBody(req, method, path.value);
  const res = await callUpstream(
    { env, environment: caller.environment, config: config.config, tenant: caller.tenant, credential: { gatewayKey: caller.key }, accessCache },
    { method, path: path.value, search: url.search, headers: upstreamHeaders(req.headers, requestId), body, deadline: deadlineOf(req.headers.get("x-deadline-ms"), started) },
    trace,
  );
  return downstreamResponse(res, config.config.apiBaseUrl, url.origin, requestId);
}

/** The epoch ms by which a call started at `started` must be answered, from its `X-Deadline-Ms` header. */
export function deadlineOf(header: string | null, started: number): number {
  const asked = Number(header);
  return started + (Number.isInteger(asked) && asked > 0 ? Math.min(asked, MAX_DEADLINE_MS) : DEFAULT_DEADLINE_MS);
}

/** Request headers that cross to the API; everything else (Authorization, cookies, hop-by-hop, cf-*) stays. */
const REQUEST_HEADERS = ["accept", "accept-language", "content-type", "content-length", "if-match", "if-none-match", "if-modified-since"];
/** Response headers that come back to the caller. */
const RESPONSE_HEADERS = ["content-type", "content-length", "content-disposition", "x-pagination", "location", "retry-after", "etag", "last-modified", "www-authenticate"];

/** How the gateway checks a body before sending it. */
interface BodyRule {
  schema: z.ZodType;
  type: "json" | "json-patch";
}

/** The catalog's schema for the operation's body, if it takes JSON: every POST and PATCH of the API is checked. */
function bodyRule(method: string, path: string): BodyRule | null {
  const m = matchOperation(method, path);
  if (m.kind !== "operation" || !m.op.schema || (m.op.body !== "json" && m.op.body !== "json-patch")) return null;
  return { schema: m.op.schema, type: m.op.body };
}

/** The headers to send upstream. */
export function upstreamHeaders(inbound: Headers, requestId: string): Headers {
  const out = new Headers();
  for (const name of REQUEST_HEADERS) {
    const v = inbound.get(name);
    if (v !== null) out.set(name, v);
  }
  out.set("user-agent", "ledgergate");
  out.set("x-request-id", requestId);
  return out;
}

/**
 * The caller's copy of the API's answer: status and body unchanged, useful headers only, and the
 * links in `Location` and `X-Pagination` pointed at the gateway (a link to anywhere else is
 * dropped: see `upstream/links.ts`).
 */
function downstreamResponse(res: Response, apiBaseUrl: string, gatewayOrigin: string, requestId: string): Response {
  const headers = new Headers({ "x-request-id": requestId });
  for (const name of RESPONSE_HEADERS) {
    const v = res.headers.get(name);
    const out = v === null ? null : name === "location" ? gatewayLink(v, apiBaseUrl, gatewayOrigin) : name === "x-pagination" ? gatewayPagination(v, apiBaseUrl, gatewayOrigin) : v;
    if (out !== null) headers.set(name, out);
  }
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

/**
 * The body to send: null, a buffer (checked when a schema applies), or a size-limited stream.
 * Throws a `Problem` for an oversized, malformed or invalid body, before anything is sent.
 */
async function upstreamBody(req: Request, method: string, path: string): Promise<ArrayBuffer | ReadableStream | null> {
  if (method === "GET" || method === "HEAD" || !req.body) return null;
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (declared > MAX_PASSTHROUGH_BODY_BYTES) throw tooLarge();
  const rule = bodyRule(method, path);
  if (!(declared <= BUFFERED_BODY_BYTES) && !rule) return limitStream(req.body);
  const buffer = await readUpTo(req.body, rule ? BUFFERED_BODY_BYTES : MAX_PASSTHROUGH_BODY_BYTES);
  if (rule) check(req.headers.get("content-type") ?? "", buffer, rule);
  return buffer;
}

function check(contentType: string, buffer: ArrayBuffer, rule: BodyRule): void {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (rule.type === "json-patch" ? type !== "application/json-patch+json" : !/^(application\/([a-z0-9.+-]+\+)?json|text\/json)$/.test(type)) {
    throw new Problem("unsupported-media-type", rule.type === "json-patch" ? "PATCH takes a JSON Patch as application/json-patch+json." : "Send the body as application/json.");
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(buffer));
  } catch {
    throw new Problem("bad-request", "The body is not valid JSON; nothing was sent to the API.");
  }
  const parsed = rule.schema.safeParse(value);
  if (!parsed.success) throw new Problem("validation-failed", "The body failed validation; nothing was sent to the API.", { errors: fieldErrors(parsed.error) });
}

function tooLarge(): Problem {
  return new Problem("payload-too-large", `Bodies are limited to ${MAX_PASSTHROUGH_BODY_BYTES} bytes.`);
}

async function readUpTo(body: ReadableStream<Uint8Array>, max: number): Promise<ArrayBuffer> {
  const bytes = await readCapped(body, max);
  if (bytes === null) throw tooLarge();
  return bytes.buffer;
}

/** Streams `body` on, erroring it once it passes the limit (the upstream then sees an aborted body). */
function limitStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctrl) {
        size += chunk.byteLength;
        if (size > MAX_PASSTHROUGH_BODY_BYTES) ctrl.error(tooLarge());
        else ctrl.enqueue(chunk);
      },
    }),
  );
}
