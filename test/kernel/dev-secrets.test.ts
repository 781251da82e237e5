/**
 * The ADMIN_TOKEN and SECRETS_KEY committed in wrangler.toml `[vars]` are development values: a
 * deploy that kept either refuses admin calls with a clear problem. "Deployed" is the gateway
 * without the SANDBOX binding, exactly as `[env.production]` builds it; locally (these tests,
 * `npm start`) the committed values keep working.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../src/index";
import type { Bindings } from "../../src/kernel/config";
import { ADMIN } from "../helpers/gateway";

const COMMITTED_TOKEN = "local-admin-token";
const COMMITTED_KEY = "bGVkZ2VyZ2F0ZS1sb2NhbC1kZXZlbG9wbWVudC1rZXk=";
const OWN_TOKEN = "an-operators-own-long-random-token";
const OWN_KEY = btoa("an-operators-own-32-byte-key-xyz");

/** The gateway as deployed: these bindings, and no SANDBOX. */
async function deployed(vars: Partial<Bindings>, token: string): Promise<Response> {
  // A copy: `env` is shared by the whole test runtime, and must not change.
  const bindings: Bindings = { ...env, SANDBOX: undefined, ...vars };
  return app.fetch(
    new Request("https://gateway.test/admin/tenants", {
      headers: { authorization: `Bearer ${token}` },
    }),
    bindings,
    createExecutionContext(),
  );
}

describe("dev secrets: refused when deployed", () => {
  it("the committed admin token: admin calls answer 503 naming ADMIN_TOKEN", async () => {
    const res = await deployed(
      { ADMIN_TOKEN: COMMITTED_TOKEN, SECRETS_KEY: OWN_KEY },
      COMMITTED_TOKEN,
    );
    expect(res.status).toBe(503);
    const body = (await res.json()) as { type: string; detail: string };
    expect(body.type).toBe("https://ledgergate.dev/problems/unavailable");
    expect(body.detail).toMatch(/ADMIN_TOKEN .*development value/);
    expect(body.detail).not.toMatch(/SECRETS_KEY/);
  });

  it("the committed sealing key: admin calls answer 503 naming SECRETS_KEY, even with the operator's own token", async () => {
    const res = await deployed({ ADMIN_TOKEN: OWN_TOKEN, SECRETS_KEY: COMMITTED_KEY }, OWN_TOKEN);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { detail: string }).detail).toMatch(
      /SECRETS_KEY .*development value/,
    );
  });

  it("the operator's own secrets: admin calls work", async () => {
    expect(
      (await deployed({ ADMIN_TOKEN: OWN_TOKEN, SECRETS_KEY: OWN_KEY }, OWN_TOKEN)).status,
    ).toBe(200);
  });
});

describe("dev secrets: local development keeps working", () => {
  it("with the SANDBOX binding, the committed values are accepted", async () => {
    expect(env.SANDBOX).toBeDefined();
    const res = await app.fetch(
      new Request("https://gateway.test/admin/tenants", { headers: ADMIN }),
      env,
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
  });
});
