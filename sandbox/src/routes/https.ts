/**
 * @module
 * The API is served over HTTPS only. Plain HTTP is refused unless it is local development (a
 * loopback host) or the sandbox is configured to allow it.
 */
import type { MiddlewareHandler } from "hono";
import type { SandboxApp } from "../app";
import { apimResponse } from "../lib/problem";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

export const requireHttps: MiddlewareHandler<SandboxApp> = async function requireHttps(c, next) {
  const url = new URL(c.req.url);
  if (
    url.protocol === "http:" &&
    !LOOPBACK.has(url.hostname) &&
    c.env.SANDBOX_ALLOW_PLAIN_HTTP !== "true"
  ) {
    return apimResponse(403, "HTTPS is required. Plain HTTP requests are not accepted.");
  }
  await next();
};
