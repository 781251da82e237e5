import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

// Both Workers' tests share one TypeScript program, so `exports` cannot be typed for this Worker
// alone.
const gateway = (exports as unknown as { default: Fetcher }).default;
const bindings = env as unknown as { SANDBOX: Fetcher };

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
    const res = await bindings.SANDBOX.fetch("https://sandbox.ledgergate.local/_sandbox/keys");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      demo: { subscriptionKey: "sandbox-demo-subscription-key" },
    });
  });
});
