/**
 * @module
 * `GET /healthz`: liveness, the version, and which environments are configured (names only).
 */
import { Hono } from "hono";
import type { GatewayApp } from "../lib/app";
import { Environment, environmentConfig } from "../lib/config";

export const metaRoutes = new Hono<GatewayApp>().get("/healthz", (c) => {
  const environments = Object.fromEntries(Environment.options.map((e) => [e, environmentConfig(c.env, e).ok ? "configured" : "unconfigured"]));
  return c.json({ ok: true, version: c.env.VERSION ?? "dev", environments });
});
