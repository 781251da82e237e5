import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { nameOf, Registration, type TenantRecord } from "../../src/tenant/registration";

const TENANT = env.TENANT;
let seq = 0;
/**
 * The SQLite storage of a tenant object never registered (its constructor has migrated it), under a
 * name no other test uses.
 */
function withSql<R>(run: (sql: SqlStorage) => R | Promise<R>): Promise<R> {
  const stub = TENANT.get(
    TENANT.idFromName(`test:registration-${Date.now().toString(36)}-${seq++}`),
  );
  return runInDurableObject(stub, (_i, state) => run(state.storage.sql));
}

const RECORD: TenantRecord = {
  registrationId: "5b0e2a52-8d1c-4bcb-9d0a-3f6f1c2f7a10",
  environment: "demo",
  client: "acme",
  name: "Acme AS",
  createdAt: "2026-03-01T10:00:00.000Z",
  clientKey: { kid: "0123456789ab", iv: "aXYtMTItYnl0ZXM=", ct: "Y2lwaGVydGV4dA==" },
  clientKeyId: "9c1f2d3e-0000-4000-8000-000000000001",
  apiClient: null,
};

describe("registration", () => {
  it("is null on an object never registered", async () => {
    await withSql((sql) => {
      expect(new Registration(sql).get()).toBeNull();
    });
  });

  it("round-trips a record through storage: a new instance (a wake) reads back what was saved", async () => {
    await withSql((sql) => {
      const r = new Registration(sql);
      r.save(RECORD);
      expect(r.get()).toEqual(RECORD);
      expect(new Registration(sql).get()).toEqual(RECORD);
      expect(nameOf(RECORD)).toBe("demo:acme");
    });
  });

  it("keeps one row: saving again (a re-sealed client key) replaces it", async () => {
    await withSql((sql) => {
      const r = new Registration(sql);
      r.save(RECORD);
      const resealed = {
        ...RECORD,
        clientKey: { kid: "ba9876543210", iv: "bmV3LWl2", ct: "bmV3LWN0" },
      };
      r.save(resealed);
      expect(sql.exec("SELECT id FROM registration").toArray()).toEqual([{ id: 1 }]);
      expect(new Registration(sql).get()).toEqual(resealed);
    });
  });

  it("current(id) answers the record only under its own registration id", async () => {
    await withSql((sql) => {
      const r = new Registration(sql);
      expect(r.current(RECORD.registrationId)).toBeNull();
      r.save(RECORD);
      expect(r.current(RECORD.registrationId)).toEqual(RECORD);
      expect(r.current("another-registration")).toBeNull();
      r.clear();
      expect(r.current(RECORD.registrationId)).toBeNull();
    });
  });

  it("clear() removes the record, in memory and in storage", async () => {
    await withSql((sql) => {
      const r = new Registration(sql);
      r.save(RECORD);
      r.clear();
      expect(r.get()).toBeNull();
      expect(new Registration(sql).get()).toBeNull();
      expect(sql.exec("SELECT id FROM registration").toArray()).toEqual([]);
    });
  });

  it("a stored row that does not match its schema is a storage fault: reading it throws", async () => {
    await withSql((sql) => {
      sql.exec(
        "INSERT INTO registration (id, registration_id, environment, client, name, created_at, client_key, client_key_id) VALUES (1, 'r', 'demo', 'Not_A_Slug', 'x', 't', ?, 'k')",
        JSON.stringify(RECORD.clientKey),
      );
      expect(() => new Registration(sql)).toThrow();
      sql.exec("UPDATE registration SET client = 'acme', client_key = '{\"kid\":1}'");
      expect(() => new Registration(sql)).toThrow();
      sql.exec("UPDATE registration SET client_key = ?", JSON.stringify(RECORD.clientKey));
      expect(new Registration(sql).get()?.client).toBe("acme");
    });
  });

  it("keeps the API's name of the client only under the client key it was read with, across a wake", async () => {
    await withSql((sql) => {
      const r = new Registration(sql);
      const client = { id: "4711", name: "Acme AS" };
      expect(r.keepApiClient(RECORD.clientKeyId, client)).toBe(false);
      r.save(RECORD);
      // A read made under another key (one replaced meanwhile) is not kept.
      expect(r.keepApiClient("another-key-id", client)).toBe(false);
      expect(r.get()?.apiClient).toBeNull();
      expect(r.keepApiClient(RECORD.clientKeyId, client)).toBe(true);
      expect(new Registration(sql).get()).toEqual({ ...RECORD, apiClient: client });
      // A replaced key (a new id, the client forgotten) is saved as such.
      r.save({ ...RECORD, clientKeyId: "9c1f2d3e-0000-4000-8000-000000000002", apiClient: null });
      expect(new Registration(sql).get()?.apiClient).toBeNull();
    });
  });
});
