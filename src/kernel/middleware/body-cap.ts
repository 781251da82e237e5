/**
 * @module The byte cap of a body read before its caller is authenticated. Reading stops at the cap
 * whatever the framing; the bytes read replace the stream, so later readers see exactly them.
 */
import type { MiddlewareHandler } from "hono";
import { readCapped } from "../../../shared/bytes";
import type { GatewayApp } from "../app";
import { Problem } from "../problem";

/** The console's largest form (the order mapping) is about 1 KiB. */
export const MAX_PRE_AUTH_BODY_BYTES = 16 * 1024;

const WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function tooLarge(max: number): Problem {
  return new Problem(
    "payload-too-large",
    `The body is larger than ${max} bytes, the limit of a request read before the caller is authenticated; nothing of it was read further.`,
  );
}

/**
 * Reads the request's body up to `max` bytes, or throws a 413 problem.
 * @example app.use("/console/*", capBody(MAX_PRE_AUTH_BODY_BYTES))
 */
export function capBody(max: number): MiddlewareHandler<GatewayApp> {
  if (!Number.isInteger(max) || max <= 0)
    throw new TypeError("capBody: max must be a positive integer");
  return async function capBody(c, next) {
    const raw = c.req.raw;
    if (!WITH_BODY.has(raw.method) || raw.body === null) return next();
    if (Number(raw.headers.get("content-length") ?? 0) > max) throw tooLarge(max);
    const bytes = await readCapped(raw.body, max);
    if (bytes === null) throw tooLarge(max);
    c.req.raw = new Request(raw, { body: bytes });
    await next();
  };
}
