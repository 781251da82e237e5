/**
 * @module
 * A `/v2/*` call passed through: checked before anything is sent, one upstream call, the answer
 * with only its own headers. Shaping changes a request as a new object, never an edit.
 * See docs/design/v2-passthrough.md.
 */
import type { z } from "zod";
import { readCapped } from "../../shared/bytes";
import { matchOperation } from "../../shared/v2/catalog";
import type { Holder } from "../kernel/app";
import { readConfig, type Bindings, type EnvironmentConfig } from "../kernel/config";
import { announceWrite } from "../events/announce";
import { holderCaller } from "../kernel/holder-caller";
import { Problem } from "../kernel/problem";
import type { AccessCache } from "../upstream/access-cache";
import { callUpstream, type CallTrace, type Lane } from "../upstream/client";
import { gatewayLink, gatewayPagination } from "../upstream/links";
import { admitOperation } from "./operation";
import { v2Path } from "./path";
import { fieldErrors } from "../kernel/validate";

/** Largest body passed through, bytes: the API's 30 MB pdf upload with room for framing. */
export const MAX_PASSTHROUGH_BODY_BYTES = 32 * 1024 * 1024;
/** Bodies up to this size are buffered, so a call can be resent after a 401. */
export const BUFFERED_BODY_BYTES = 1024 * 1024;

export const DEFAULT_DEADLINE_MS = 30_000;
export const MAX_DEADLINE_MS = 120_000;

/** A request read and checked before shaping; the plain pass-through sends `checkedBody(r)`. */
export interface V2Request {
  env: Bindings;
  /** A gateway key's caller, or an assistant's OAuth grant (an MCP tool's call). */
  caller: Holder;
  config: EnvironmentConfig;
  requestId: string;
  origin: string;
  method: string;
  /** Below the v2 root, checked by `v2Path`. */
  path: string;
  search: string;
  /** Unfiltered: `upstreamHeaders` filters them when sending. */
  headers: Headers;
  deadline: number;
  /** Buffered when checked or small enough to resend, else a size-limited stream. */
  body: ArrayBuffer | ReadableStream | null;
  accessCache?: AccessCache;
  /** The governor's lane of every upstream call made for this request (lookups, pages, write). */
  lane: Lane;
  /** Where work after the answer goes (`ctx.waitUntil`); without it, it is awaited first. */
  after?: (work: Promise<unknown>) => void;
}

/** The caller's request, checked cheapest first; throws a `Problem` before anything is sent. */
export async function readV2Request(
  env: Bindings,
  caller: Holder,
  req: Request,
  requestId: string,
  accessCache?: AccessCache,
  lane: Lane = "caller",
): Promise<V2Request> {
  const started = Date.now();
  const url = new URL(req.url);
  const path = v2Path(url.pathname);
  if (!path.ok) throw new Problem("bad-request", path.error);
  const method = req.method.toUpperCase();
  const gateway = readConfig(env);
  admitOperation(method, path.value, req.headers, gateway.v2ExtraOperations, lane);
  const config = gateway.environments[caller.environment];
  if (!config.ok) throw new Problem("unavailable", config.detail);
  const deadline = deadlineOf(req.headers.get("x-deadline-ms"), started);
  const body = await readBody(req, method, path.value);
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
    lane,
  };
}

/** The body to send as it is, checked against the catalog's schema when one applies. */
export function checkedBody(r: V2Request): ArrayBuffer | ReadableStream | null {
  const rule = bodyRule(r.method, r.path);
  if (rule && r.body instanceof ArrayBuffer) check(r.headers, r.body, rule);
  return r.body;
}

/** Sends `r`; a write that succeeded is announced here, the one path every write takes. */
export async function sendV2(
  r: V2Request,
  body: ArrayBuffer | ReadableStream | null,
  trace: CallTrace,
): Promise<Response> {
  const res = await callUpstream(
    { ...holderCaller(r), lane: r.lane },
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
  const answer = downstreamResponse(res, r.config.apiBaseUrl, r.origin, r.requestId);
  return WRITES.has(r.method) ? announceWrite(r, answer) : answer;
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The deadline from `X-Deadline-Ms`; a value outside 1–120000 is a 400, never clamped.
 *
 * @example deadlineOf("5000", Date.now()) // now + 5 s; deadlineOf("0", now) throws
 */
export function deadlineOf(header: string | null, started: number): number {
  if (header === null) return started + DEFAULT_DEADLINE_MS;
  const text = header.trim();
  const asked = /^[0-9]{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!(asked >= 1 && asked <= MAX_DEADLINE_MS))
    throw new Problem(
      "bad-request",
      `X-Deadline-Ms must be a whole number of milliseconds, 1–${MAX_DEADLINE_MS}; leave it out for the default of ${DEFAULT_DEADLINE_MS}. Nothing was sent to the API.`,
    );
  return started + asked;
}

/** Request headers that cross to the API; Authorization, cookies, hop-by-hop and cf-* stay. */
const REQUEST_HEADERS = [
  "accept",
  "accept-language",
  "content-type",
  "content-length",
  "if-match",
  "if-none-match",
  "if-modified-since",
];
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

interface BodyRule {
  schema: z.ZodType;
  type: "json" | "json-patch";
}

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

/** The API's answer with its own headers only, its links pointed at the gateway (or dropped). */
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

async function readBody(
  req: Request,
  method: string,
  path: string,
): Promise<ArrayBuffer | ReadableStream | null> {
  if (method === "GET" || method === "HEAD" || !req.body) return null;
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  // A checked body is read whole before parsing, so it has the smaller cap; the 413 names it.
  const limit = bodyRule(method, path) !== null ? checkedLimit(method, path) : PASSTHROUGH_LIMIT;
  if (declared > limit.bytes) throw tooLarge(limit);
  if (!(declared <= BUFFERED_BODY_BYTES) && limit === PASSTHROUGH_LIMIT)
    return limitStream(req.body);
  return readUpTo(req.body, limit);
}

/** The media type of `headers`' `Content-Type`, lower case, without parameters. */
export function mediaType(headers: Headers): string {
  return (headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** Whether `type` is `application/json`, any `application/…+json`, or `text/json`. */
export function isJsonType(type: string): boolean {
  return /^(application\/([a-z0-9.+-]+\+)?json|text\/json)$/.test(type);
}

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

/** A body cap, and what it is the cap of, for the 413. */
interface BodyLimit {
  bytes: number;
  what: string;
}

const PASSTHROUGH_LIMIT: BodyLimit = {
  bytes: MAX_PASSTHROUGH_BODY_BYTES,
  what: "A body passed through to the API (the API's largest upload, 30 MB, with room for multipart framing)",
};

function checkedLimit(method: string, path: string): BodyLimit {
  return {
    bytes: BUFFERED_BODY_BYTES,
    what: `A JSON body the gateway checks against the catalog before sending it (${method} /v2${path})`,
  };
}

function tooLarge(limit: BodyLimit): Problem {
  return new Problem(
    "payload-too-large",
    `${limit.what} is limited to ${limit.bytes} bytes (${limit.bytes / (1024 * 1024)} MiB).`,
  );
}

async function readUpTo(body: ReadableStream<Uint8Array>, limit: BodyLimit): Promise<ArrayBuffer> {
  const bytes = await readCapped(body, limit.bytes);
  if (bytes === null) throw tooLarge(limit);
  return bytes.buffer;
}

/** Streams `body` on, erroring it once it passes the limit (the upstream sees an aborted body). */
function limitStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctrl) {
        size += chunk.byteLength;
        if (size > PASSTHROUGH_LIMIT.bytes) ctrl.error(tooLarge(PASSTHROUGH_LIMIT));
        else ctrl.enqueue(chunk);
      },
    }),
  );
}
