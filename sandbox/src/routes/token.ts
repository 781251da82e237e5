/**
 * @module
 * `POST {root}/OAuth/Token`: the client-credentials grant. The Worker only reads the request; the
 * environment's platform object decides.
 */
import { Hono } from "hono";
import { platformOf, type SandboxApp } from "../app";
import type { Environment } from "../env";
import { readLimited } from "../lib/body";
import { delay, rejectionResponse } from "../lib/rejection";
import { sentAtOf, subscriptionKeyOf } from "./guards";

/** Largest token request body read, bytes; a grant is a few dozen. */
const MAX_TOKEN_BODY_BYTES = 8192;

/** The token endpoint of one environment. */
export function tokenRoutes(environment: Environment) {
  const app = new Hono<SandboxApp>();
  app.post("/token", async (c) => {
    // Before the body is read: the rate limit counts the request's arrival.
    const arrivedAt = Date.now();
    const isForm = (c.req.header("content-type") ?? "")
      .toLowerCase()
      .startsWith("application/x-www-form-urlencoded");
    const body = isForm ? await readLimited(c.req.raw, MAX_TOKEN_BODY_BYTES) : null;
    const form = new URLSearchParams(body ?? "");
    const result = await platformOf(c.env, environment).issueToken(environment, {
      arrivedAt,
      sentAt: sentAtOf(c.req.raw),
      subscriptionKey: subscriptionKeyOf(c.req.raw),
      path: "/oauth/token",
      isForm: isForm && body !== null,
      grantType: form.get("grant_type"),
      credentials: basicCredentials(c.req.header("authorization")),
    });
    await delay(result.latencyMs);
    if (!result.ok) return rejectionResponse(result.rejection);
    return c.json(
      { access_token: result.accessToken, token_type: "bearer", expires_in: result.expiresIn },
      200,
      { "cache-control": "no-store", pragma: "no-cache" },
    );
  });
  app.all("/token", (c) => c.body(null, 405, { allow: "POST" }));
  return app;
}

/** `Basic base64(applicationKey:clientKey)`, or null when absent or malformed. */
function basicCredentials(
  header: string | undefined,
): { applicationKey: string; clientKey: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!m?.[1]) return null;
  let decoded: string;
  try {
    decoded = atob(m[1]);
  } catch {
    return null;
  }
  const colon = decoded.indexOf(":");
  if (colon <= 0 || colon === decoded.length - 1) return null;
  return { applicationKey: decoded.slice(0, colon), clientKey: decoded.slice(colon + 1) };
}
