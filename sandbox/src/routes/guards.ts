/**
 * @module
 * What the API's layers read from every call: the subscription key, the bearer token, and the
 * privilege a route needs.
 */
import type { MiddlewareHandler } from "hono";
import type { SandboxApp } from "../app";
import { problemResponse } from "../lib/problem";

/** The subscription key from its header, or from APIM's `subscription-key` query parameter. */
export function subscriptionKeyOf(req: Request): string | null {
  const header = req.headers.get("ocp-apim-subscription-key");
  if (header) return header;
  for (const [k, v] of new URL(req.url).searchParams) if (k.toLowerCase() === "subscription-key") return v;
  return null;
}

/** The bearer token of `Authorization`, or null. */
export function bearerOf(req: Request): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  return m?.[1] ?? null;
}

/**
 * Refuses a call whose integration holds none of `any`. The API documents 403 without a body; the
 * sandbox adds a ProblemDetails naming the privilege, which is what a developer needs to fix it.
 */
export function requirePrivilege(...any: string[]): MiddlewareHandler<SandboxApp> {
  return async function privilege(c, next) {
    const held = c.get("privileges");
    if (!any.some((p) => held.includes(p))) {
      return problemResponse({ status: 403, title: "Forbidden", detail: `The integration needs one of these privileges: ${any.join(", ")}.` });
    }
    await next();
  };
}

