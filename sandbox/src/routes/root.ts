/**
 * @module
 * `GET /`: where things are, for a person who opens the sandbox's address (docs/sandbox.md). The
 * real API has nothing at its root, but nobody calls the sandbox's root as the API: it answers a
 * short JSON instead of APIM's bare 404. It names the control API only when it is on.
 */
import { Hono } from "hono";
import type { SandboxApp } from "../app";

/** What the root answers. */
export function rootAnswer(env: Pick<SandboxEnv, "SANDBOX_CONTROL">) {
  return {
    sandbox: "ledgergate's local stand-in of the accounting API v2; docs/sandbox.md says more",
    demo: { token: "POST /Demo/OAuth/Token", api: "/Demo/v2/…" },
    production: { token: "POST /OAuth/Token", api: "/v2/…" },
    control:
      env.SANDBOX_CONTROL === "true"
        ? "/_sandbox/… (GET /_sandbox/keys, POST /_sandbox/clients)"
        : 'off: SANDBOX_CONTROL is not "true"',
    stripe: "GET /v1/payouts/{id}, GET /v1/balance_transactions",
    vipps: "POST /accesstoken/get, /settlement/v1/…, /report/v2/…",
    docs: "docs/sandbox.md in the ledgergate repository",
  };
}

export const rootRoutes = new Hono<SandboxApp>().get("/", (c) => c.json(rootAnswer(c.env)));
