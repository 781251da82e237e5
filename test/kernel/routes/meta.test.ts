import { env, exports } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../../src/index";

const gateway = exports.default;

describe("meta", () => {
  it("GET /healthz answers ok, the version, and which environments are configured", async () => {
    const res = await gateway.fetch("https://gateway.test/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual({
      ok: true,
      version: "0.1.0",
      environments: { demo: "configured", production: "configured" },
    });
  });

  it("an environment with no keys is unconfigured, and its calls answer 503 naming what is missing", async () => {
    // A copy: `env` is shared by the whole test runtime, and must not change.
    const bindings = { ...env, PRODUCTION_SUBSCRIPTION_KEY: undefined };
    const call = (path: string, init?: RequestInit) =>
      app.fetch(
        new Request(`https://gateway.test${path}`, init),
        bindings,
        createExecutionContext(),
      );
    const health = await call("/healthz");
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      environments: { demo: "configured", production: "unconfigured" },
    });
    const start = await call("/admin/onboarding", {
      method: "POST",
      headers: { authorization: "Bearer local-admin-token", "content-type": "application/json" },
      body: JSON.stringify({ environment: "production" }),
    });
    expect(start.status).toBe(503);
    expect(await start.json()).toMatchObject({
      type: "https://ledgergate.dev/problems/unavailable",
      detail: expect.stringContaining("PRODUCTION_SUBSCRIPTION_KEY"),
    });
  });

  it("answers unknown routes with a problem+json 404 carrying the request id", async () => {
    const res = await gateway.fetch("https://gateway.test/nope", {
      headers: { "x-request-id": "caller-id-1234" },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("x-request-id")).toBe("caller-id-1234");
    expect(await res.json()).toMatchObject({
      type: "https://ledgergate.dev/problems/not-found",
      status: 404,
      requestId: "caller-id-1234",
    });
  });

  it("does not echo an unsafe caller request id", async () => {
    const res = await gateway.fetch("https://gateway.test/healthz", {
      headers: { "x-request-id": "bad id <script>" },
    });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("is wired to the sandbox through the SANDBOX service binding", async () => {
    const res = await env.SANDBOX.fetch("https://sandbox.ledgergate.local/_sandbox/keys");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      demo: { subscriptionKey: "sandbox-demo-subscription-key" },
    });
  });
});
