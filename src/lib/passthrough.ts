/**
 * @module
 * A `/v2/*` call passed through for its caller's tenant: the path checked, the body limited and
 * validated against the catalog before anything is sent, one call through the upstream client, and
 * the answer passed back with only the headers that belong to it. Shaping (`lib/shaping/`) works on
 * the `V2Request` between reading and sending: a changed request is a new object, never an edit.
 */
import type { z } from "zod";
import { readCapped } from "../../shared/bytes";
import { matchOperation } from "../../shared/v2/catalog";
import type { Caller } from "./app";
import { readConfig, type Bindings, type EnvironmentConfig } from "./config";
import { Problem } from "./problem";
import type { AccessCache } from "./upstream/access-cache";
import { callUpstream, type CallTrace } from "./upstream/client";
import { gatewayLink, gatewayPagination } from "./upstream/links";
import { v2Path } from "./v2-path";
import { fieldErrors } from "./validate";

/**
 * Largest body passed through, bytes: the API's largest upload (a 30 MB pdf) with room for
 * multipart framing.
 */
export const MAX_PASSTHROUGH_BODY_BYTES = 32 * 1024 * 1024;
/**
 * Bodies up to this size are buffered, so a call can be resent after a 401; larger ones are
 * streamed.
 */
export const BUFFERED_BODY_BYTES = 1024 * 1024;

/** How long a call may take in all, ms, unless the caller asks otherwise with `X-Deadline-Ms`. */
export const DEFAULT_DEADLINE_MS = 30_000;
/** The longest deadline a caller may ask for, ms. */
const MAX_DEADLINE_MS = 120_000;

/**
 * A `/v2` request read and checked as far as it can be before shaping: its operation, path, query,
 * deadline and body. What shaping does with it (`lib/shaping/`) happens between `readV2Request` and
 * `sendV2`; the plain pass-through is `sendV2(r, checkedBody(r), trace)`.
 */
export interface V2Request {
  env: Bindings;
  caller: Caller;
  config: EnvironmentConfig;
  requestId: string;
  /** The gateway's origin, for links in answers. */
  origin: string;
  method: string;
  /** Below the v2 root, checked by `v2Path`. */
  path: string;
  /** `?…` or empty, as the caller sent it. */
  search: string;
  /** The caller's headers (not yet filtered: `upstreamHeaders` does that when sending). */
  headers: Headers;
  /** Epoch ms by which the caller needs an answer. */
  deadline: number;
  /**
   * The body as read: buffered when it is checked or small enough to resend, else a size-limited
   * stream.
   */
  body: ArrayBuffer | ReadableStream | null;
  /** The isolate's verified keys, spares a warm call the tenant's object. */
  accessCache?: AccessCache;
}

/**
 * The caller's `/v2` request, its path and size checked; throws a `Problem` for bad input before
 * anything is sent.
 */
export async function readV2Request(
  env: Bindings,
  caller: Caller,
  req: Request,
  requestId: string,
  accessCache?: AccessCache,
): Promise<V2Request> {
  const started = Date.now();
  const url = new URL(req.url);
  const path = v2Path(url.pathname);
  if (!path.ok) throw new Problem("bad-request", path.error);
  const config = readConfig(env).environments[caller.environment];
  if (!config.ok) throw new Problem("unavailable", config.detail);
  const method = req.method.toUpperCase();
  const body = await readBody(req, method, path.value);
  const deadline = deadlineOf(req.headers.get("x-deadline-ms"), started);
  return {
    env,
    caller,
    config: config.config,
    requestId,
    origin: url.origin,
    method,
    path: path.value,
    search: url.search,
    headers: req.headers,
    deadline,
    body,
    accessCache,
  };
}

/**
 * The body to send as it is: checked against the catalog when a schema applies. Throws a `Problem`
 * for a malformed or invalid body.
 */
export function checkedBody(r: V2Request): ArrayBuffer | ReadableStream | null {
  const rule = bodyRule(r.method, r.path);
  if (rule && r.body instanceof ArrayBuffer) check(r.headers, r.body, rule);
  return r.body;
}

/**
 * Sends `r` with `body` to the API for its caller's tenant and answers the API's response: same
 * status and body, useful headers only. Throws a `Problem` when no answer can be had. `trace` is
 * filled in for the request's log line.
 */
export async function sendV2(
  r: V2Request,
  body: ArrayBuffer | ReadableStream | null,
  trace: CallTrace,
): Promise<Response> {
  const res = await callUpstream(
    {
      env: r.env,
      environment: r.caller.environment,
      config: r.config,
      tenant: r.caller.tenant,
      credential: { gatewayKey: r.caller.key },
      accessCache: r.accessCache,
    },
    {
      method: r.method,
      path: r.path,
      search: r.search,
      headers: upstreamHeaders(r.headers, r.requestId),
      body,
      deadline: r.deadline,
    },
    trace,
  );
  return downstreamResponse(res, r.config.apiBaseUrl, r.origin, r.requestId);
}

/**
 * The epoch ms by which a call started at `started` must be answered, from its `X-Deadline-Ms`
 * header.
 */
export function deadlineOf(header: string | null, started: number): number {
  const asked = Number(header);
  return (
    started +
    (Number.isInteger(asked) && asked > 0 ? Math.min(asked, MAX_DEADLINE_MS) : DEFAULT_DEADLINE_MS)
  );
}

/**
 * Request headers that cross to the API; everything else (Authorization, cookies, hop-by-hop, cf-*)
 * stays.
 */
const REQUEST_HEADERS = [
  "accept",
  "accept-language",
  "content-type",
  "content-length",
  "if-match",
  "if-none-match",
  "if-modified-since",
];
/** Response headers that come back to the caller. */
const RESPONSE_HEADERS = [
  "content-type",
  "content-length",
  "content-disposition",
  "x-pagination",
  "location",
  "retry-after",
  "etag",
  "last-modified",
  "www-authenticate",
];

/** How the gateway checks a body before sending it. */
interface BodyRule {
  schema: z.ZodType;
  type: "json" | "json-patch";
}

/**
 * The catalog's schema for the operation's body, if it takes JSON: every POST and PATCH of the API
 * is checked.
 */
function bodyRule(method: string, path: string): BodyRule | null {
  const m = matchOperation(method, path);
  if (
    m.kind !== "operation" ||
    !m.op.schema ||
    (m.op.body !== "json" && m.op.body !== "json-patch")
  )
    return null;
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
function downstreamResponse(
  res: Response,
  apiBaseUrl: string,
  gatewayOrigin: string,
  requestId: string,
): Response {
  const headers = new Headers({ "x-request-id": requestId });
  for (const name of RESPONSE_HEADERS) {
    const v = res.headers.get(name);
    const out =
      v === null
        ? null
        : name === "location"
          ? gatewayLink(v, apiBaseUrl, gatewayOrigin)
          : name === "x-pagination"
            ? gatewayPagination(v, apiBaseUrl, gatewayOrigin)
            : v;
    if (out !== null) headers.set(name, out);
  }
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

/**
 * The body as read: null, a buffer (when a schema applies, or small enough to resend after a 401),
 * or a size-limited stream. Throws a `Problem` for an oversized body, before anything is sent.
 */
async function readBody(
  req: Request,
  method: string,
  path: string,
): Promise<ArrayBuffer | ReadableStream | null> {
  if (method === "GET" || method === "HEAD" || !req.body) return null;
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (declared > MAX_PASSTHROUGH_BODY_BYTES) throw tooLarge();
  const checked = bodyRule(method, path) !== null;
  if (!(declared <= BUFFERED_BODY_BYTES) && !checked) return limitStream(req.body);
  return readUpTo(req.body, checked ? BUFFERED_BODY_BYTES : MAX_PASSTHROUGH_BODY_BYTES);
}

/** The media type of `headers`' `Content-Type`, lower case, without parameters. */
export function mediaType(headers: Headers): string {
  return (headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/**
 * Whether `type` (see `mediaType`) is JSON: `application/json`, any `application/…+json`, or
 * `text/json`.
 */
export function isJsonType(type: string): boolean {
  return /^(application\/([a-z0-9.+-]+\+)?json|text\/json)$/.test(type);
}

/** Throws a `Problem` unless `buffer` is JSON of the declared type that `rule` accepts. */
function check(headers: Headers, buffer: ArrayBuffer, rule: BodyRule): void {
  const type = mediaType(headers);
  if (rule.type === "json-patch" ? type !== "application/json-patch+json" : !isJsonType(type)) {
    throw new Problem(
      "unsupported-media-type",
      rule.type === "json-patch"
        ? "PATCH takes a JSON Patch as application/json-patch+json."
        : "Send the body as application/json.",
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(buffer));
  } catch {
    throw new Problem("bad-request", "The body is not valid JSON; nothing was sent to the API.");
  }
  const parsed = rule.schema.safeParse(value);
  if (!parsed.success)
    throw new Problem(
      "validation-failed",
      "The body failed validation; nothing was sent to the API.",
      { errors: fieldErrors(parsed.error) },
    );
}

function tooLarge(): Problem {
  return new Problem(
    "payload-too-large",
    `Bodies are limited to ${MAX_PASSTHROUGH_BODY_BYTES} bytes.`,
  );
}

async function readUpTo(body: ReadableStream<Uint8Array>, max: number): Promise<ArrayBuffer> {
  const bytes = await readCapped(body, max);
  if (bytes === null) throw tooLarge();
  return bytes.buffer;
}

/**
 * Streams `body` on, erroring it once it passes the limit (the upstream then sees an aborted body).
 */
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
