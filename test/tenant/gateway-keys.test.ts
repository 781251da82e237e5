import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { GatewayKeys } from "../../src/tenant/gateway-keys";
import { sha256Hex } from "../../src/kernel/crypto";
import { claimedTenant } from "../../src/tenant/key-format";

const TENANT = env.TENANT;
let seq = 0;
/**
 * The SQLite storage of a tenant object never registered (its constructor has migrated it), under a
 * name no other test uses.
 */
function withSql<R>(run: (sql: SqlStorage) => R | Promise<R>): Promise<R> {
  const stub = TENANT.get(
    TENANT.idFromName(`test:gateway-keys-${Date.now().toString(36)}-${seq++}`),
  );
  return runInDurableObject(stub, (_i, state) => run(state.storage.sql));
}

const T0 = Date.parse("2026-03-01T10:00:00.000Z");
const MIN = 60_000;
const dump = (sql: SqlStorage) => JSON.stringify(sql.exec("SELECT * FROM gateway_keys").toArray());

describe("gateway-keys: issue and authentic", () => {
  it("issues a key naming its tenant that authenticates, while near misses do not", async () => {
    await withSql(async (sql) => {
      const keys = new GatewayKeys(sql);
      const key = await keys.issue("demo", "acme", T0);
      expect(claimedTenant(key)?.name).toBe("demo:acme");
      expect(await keys.authentic(key, T0)).toBe(true);
      expect(await keys.authentic(key, T0 + 365 * 86_400_000)).toBe(true);
      const last = key.at(-1) === "A" ? "B" : "A";
      expect(await keys.authentic(key.slice(0, -1) + last, T0)).toBe(false);
      expect(await keys.authentic(key.slice(0, -1), T0)).toBe(false);
      expect(await keys.authentic("", T0)).toBe(false);
    });
  });

  it("stores only the SHA-256 hash: the key is nowhere in the table, not even its secret part", async () => {
    await withSql(async (sql) => {
      const keys = new GatewayKeys(sql);
      const key = await keys.issue("demo", "acme", T0);
      const rotated = await keys.rotate("demo", "acme", T0 + MIN, T0 + 2 * MIN);
      const stored = dump(sql);
      for (const k of [key, rotated]) {
        expect(stored).not.toContain(k.slice(-43));
        expect(stored).toContain(await sha256Hex(k));
      }
    });
  });

  it("a new issue (re-registration) drops every earlier key", async () => {
    await withSql(async (sql) => {
      const keys = new GatewayKeys(sql);
      const first = await keys.issue("demo", "acme", T0);
      const second = await keys.rotate("demo", "acme", T0 + MIN, T0 + 60 * MIN);
      const fresh = await keys.issue("demo", "acme", T0 + 2 * MIN);
      expect(await keys.authentic(first, T0 + 2 * MIN)).toBe(false);
      expect(await keys.authentic(second, T0 + 2 * MIN)).toBe(false);
      expect(await keys.authentic(fresh, T0 + 2 * MIN)).toBe(true);
      expect(keys.list(T0 + 2 * MIN)).toHaveLength(1);
    });
  });
});

describe("gateway-keys: rotate", () => {
  it("keeps the old key until its retirement time, then refuses it; the new key never retires", async () => {
    await withSql(async (sql) => {
      const keys = new GatewayKeys(sql);
      const old = await keys.issue("demo", "acme", T0);
      const now = T0 + 10 * MIN;
      const retiresAt = now + 5 * MIN;
      const fresh = await keys.rotate("demo", "acme", now, retiresAt);
      expect(fresh).not.toBe(old);
      expect(await keys.authentic(old, now)).toBe(true);
      expect(await keys.authentic(old, retiresAt - 1)).toBe(true);
      expect(await keys.authentic(old, retiresAt)).toBe(false);
      expect(await keys.authentic(fresh, retiresAt)).toBe(true);
      expect(await keys.authentic(fresh, retiresAt + 365 * 86_400_000)).toBe(true);
    });
  });

  it("lists the live keys newest first, with when each retires, and drops retired ones from the list", async () => {
    await withSql(async (sql) => {
      const keys = new GatewayKeys(sql);
      await keys.issue("demo", "acme", T0);
      const retiresAt = T0 + 15 * MIN;
      await keys.rotate("demo", "acme", T0 + 10 * MIN, retiresAt);
      expect(keys.list(T0 + 10 * MIN)).toEqual([
        { createdAt: new Date(T0 + 10 * MIN).toISOString(), retiresAt: null },
        { createdAt: new Date(T0).toISOString(), retiresAt: new Date(retiresAt).toISOString() },
      ]);
      expect(keys.list(retiresAt)).toEqual([
        { createdAt: new Date(T0 + 10 * MIN).toISOString(), retiresAt: null },
      ]);
    });
  });

  it("a later rotation never extends an earlier retirement, and may bring it forward", async () => {
    await withSql(async (sql) => {
      const keys = new GatewayKeys(sql);
      const a = await keys.issue("demo", "acme", T0);
      const b = await keys.rotate("demo", "acme", T0 + MIN, T0 + 60 * MIN);
      // Rotating again with a longer grace: a keeps its hour, b gets the new grace.
      const c = await keys.rotate("demo", "acme", T0 + 2 * MIN, T0 + 120 * MIN);
      expect(await keys.authentic(a, T0 + 60 * MIN)).toBe(false);
      expect(await keys.authentic(b, T0 + 60 * MIN)).toBe(true);
      expect(await keys.authentic(b, T0 + 120 * MIN)).toBe(false);
      // Rotating again with a shorter grace: everything but the newest retires sooner.
      const d = await keys.rotate("demo", "acme", T0 + 3 * MIN, T0 + 4 * MIN);
      expect(await keys.authentic(b, T0 + 4 * MIN)).toBe(false);
      expect(await keys.authentic(c, T0 + 4 * MIN)).toBe(false);
      expect(await keys.authentic(c, T0 + 4 * MIN - 1)).toBe(true);
      expect(await keys.authentic(d, T0 + 4 * MIN)).toBe(true);
    });
  });

  it("removes retired keys' rows at the next rotation", async () => {
    await withSql(async (sql) => {
      const keys = new GatewayKeys(sql);
      await keys.issue("demo", "acme", T0);
      await keys.rotate("demo", "acme", T0 + MIN, T0 + 2 * MIN);
      expect(sql.exec("SELECT hash FROM gateway_keys").toArray()).toHaveLength(2);
      await keys.rotate("demo", "acme", T0 + 3 * MIN, T0 + 4 * MIN);
      // The first key retired at T0 + 2 min: gone; the second retires at T0 + 4 min; the third is
      // new.
      expect(sql.exec("SELECT hash FROM gateway_keys").toArray()).toHaveLength(2);
    });
  });
});

describe("gateway-keys: clear", () => {
  it("empties the table: no key authenticates and none is listed", async () => {
    await withSql(async (sql) => {
      const keys = new GatewayKeys(sql);
      const a = await keys.issue("demo", "acme", T0);
      const b = await keys.rotate("demo", "acme", T0 + MIN, T0 + 60 * MIN);
      keys.clear();
      expect(await keys.authentic(a, T0 + 2 * MIN)).toBe(false);
      expect(await keys.authentic(b, T0 + 2 * MIN)).toBe(false);
      expect(keys.list(T0 + 2 * MIN)).toEqual([]);
      expect(sql.exec("SELECT hash FROM gateway_keys").toArray()).toEqual([]);
    });
  });
});
