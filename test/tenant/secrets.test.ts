import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { open, importSecretsKey, seal } from "../../src/kernel/crypto";
import { redact } from "../../src/kernel/log";
import { fresh, tenant } from "../helpers/gateway";

beforeEach(() => fresh());

const TENANT = env.TENANT;

describe("secrets at rest", () => {
  it("the tenant's storage holds neither the client key, the gateway key nor the token as themselves", async () => {
    const t = await tenant();
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(200);
    const dump = await runInDurableObject(
      TENANT.get(TENANT.idFromName(t.name)),
      async (_i, state) => {
        const tables = state.storage.sql
          .exec<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
          )
          .toArray();
        return JSON.stringify(
          tables.map(({ name }) => state.storage.sql.exec(`SELECT * FROM "${name}"`).toArray()),
        );
      },
    );
    expect(dump).toContain(t.client);
    expect(dump).not.toContain(t.clientKey);
    expect(dump).not.toContain(t.gatewayKey.slice(-43));
    // Sealed records are JSON inside a TEXT column, so their quotes come escaped in the dump.
    expect(dump).toMatch(/\\"kid\\":\\"[0-9a-f]{12}\\"/);
  });

  it("a sealed record opens only with its key and its context, and a previous key still opens it", async () => {
    const current = await importSecretsKey(btoa("a".repeat(32)));
    const previous = await importSecretsKey(btoa("b".repeat(32)));
    const sealed = await seal("client-key-123", previous, "demo:acme");
    expect(await open(sealed, [current, previous], "demo:acme")).toBe("client-key-123");
    expect(await open(sealed, [current], "demo:acme")).toBeNull();
    expect(await open(sealed, [current, previous], "demo:other")).toBeNull();
    const again = await seal("client-key-123", previous, "demo:acme");
    expect(again.iv).not.toBe(sealed.iv);
    await expect(importSecretsKey("too-short")).rejects.toThrow(TypeError);
  });
});

describe("logs", () => {
  it("redact fields named like secrets, nested too", () => {
    expect(
      redact({
        tenant: "demo:acme",
        clientKey: "k",
        nested: { accessToken: "t", authorization: "Bearer x" },
        status: 200,
        tokenRenewed: true,
      }),
    ).toEqual({
      tenant: "demo:acme",
      clientKey: "[redacted]",
      nested: { accessToken: "[redacted]", authorization: "[redacted]" },
      status: 200,
      tokenRenewed: true,
    });
  });
});

describe("JSON Patch pointers", () => {
  it("refuse a pathological pointer promptly (no catastrophic backtracking) and accept ordinary ones", async () => {
    const { JsonPatch } = await import("../../shared/v2/json-patch");
    const evil = [{ op: "remove", path: `${"/".repeat(60)}~` }];
    expect(JsonPatch.safeParse(evil).success).toBe(false);
    expect(
      JsonPatch.safeParse([
        { op: "replace", path: "/MailAddress/City", value: "Oslo" },
        { op: "add", path: "/ContactGroupIds/-", value: 1 },
        { op: "remove", path: "/a~1b~0c" },
      ]).success,
    ).toBe(true);
  });
});

describe("SECRETS_KEY rotation", () => {
  it("a client key sealed under SECRETS_KEY_PREVIOUS still works, and is re-sealed under SECRETS_KEY on first use", async () => {
    const { evictDurableObject } = await import("cloudflare:test");
    const t = await tenant();
    const previous = await importSecretsKey(env.SECRETS_KEY_PREVIOUS ?? "");
    const current = await importSecretsKey(env.SECRETS_KEY ?? "");
    const stub = TENANT.get(TENANT.idFromName(t.name));
    // As if the tenant had been registered before the rotation: its record sealed under the old
    // key, no token kept.
    const sealed = JSON.stringify(await seal(t.clientKey, previous, t.name));
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec("UPDATE registration SET client_key = ?", sealed);
      state.storage.sql.exec("DELETE FROM token_state");
    });
    await evictDurableObject(stub);
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(200);
    const kid = await runInDurableObject(stub, (_i, state) => {
      const [row] = state.storage.sql
        .exec<{ client_key: string }>("SELECT client_key FROM registration")
        .toArray();
      return row && (JSON.parse(row.client_key) as { kid: string }).kid;
    });
    expect(kid).toBe(current.kid);
    expect(kid).not.toBe(previous.kid);
  });
});
