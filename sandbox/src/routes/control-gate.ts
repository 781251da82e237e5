/**
 * @module
 * The gate of every control API (`/_sandbox/…`, the stand-ins' too): served only with
 * `SANDBOX_CONTROL=true`, so a deployed sandbox exposes none of it.
 */
import type { MiddlewareHandler } from "hono";
import type { SandboxApp } from "../app";
import { problemResponse } from "../lib/problem";

export const controlEnabled: MiddlewareHandler<SandboxApp> = async function controlEnabled(
  c,
  next,
) {
  if (c.env.SANDBOX_CONTROL !== "true")
    return problemResponse({
      status: 404,
      title: "Not Found",
      detail: "The sandbox control API is disabled.",
    });
  await next();
};
