/**
 * @module
 * `capBody(max)`: the byte cap of a body the gateway reads before its caller is authenticated (the
 * console's sign-in and its other form posts). The body is streamed and reading stops at the cap:
 * a body over it is refused with a 413 problem that states the cap, whatever its framing (a
 * `Content-Length` is only trusted to refuse early, a chunked upload is cut off the same way), and
 * nothing of it is parsed. The limiter counts the 413 (`limitOperator`).
 *
 * What was read replaces the request's stream, so every later reader (the session guard's CSRF
 * check, the route's form validator) sees exactly the checked bytes and never the stream again.
 */
import type { MiddlewareHandler } from "hono";
import { readCapped } from "../../../shared/bytes";
import type { GatewayApp } from "../app";
import { Problem } from "../problem";

/**
 * The cap of the console's forms, bytes: the largest (the order mapping) is about 1 KiB; anything
 * far past it is not a form of ours.
 */
export const MAX_PRE_AUTH_BODY_BYTES = 16 * 1024;

/** Methods whose body is read; others carry none that the gateway looks at. */
const WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The 413 of a body over `max`. */
function tooLarge(max: number): Problem {
  return new Problem(
    "payload-too-large",
    `The body is larger than ${max} bytes, the limit of a request read before the caller is authenticated; nothing of it was read further.`,
  );
}

/**
 * Reads the request's body up to `max` bytes, or throws a 413 problem.
 *
 * @param max the largest body accepted, bytes
 * @returns the middleware
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
    // The request from here on carries the checked bytes in place of the stream.
    c.req.raw = new Request(raw, { body: bytes });
    await next();
  };
}
