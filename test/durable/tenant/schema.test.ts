import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { migrate } from "../../../src/durable/tenant/schema";

const TENANT = env.TENANT;
let seq = 0;
/**
 * The SQLite storage of a tenant object never registered (its constructor has migrated it), under a
 * name no other test uses.
 */
function withSql<R>(run: (sql: SqlStorage) => R | Promise<R>): Promise<R> {
  const stub = TENANT.get(TENANT.idFromName(`test:schema-${Date.now().toString(36)}-${seq++}`));
  return runInDurableObject(stub, (_i, state) => run(state.storage.sql));
}

const TABLES = [
  "code_ids",
  "gateway_keys",
  "idempotency_keys",
  "known_customers",
  "known_products",
  "meta",
  "order_mapping",
  "order_runs",
  "reference_cache",
  "reference_generations",
  "registration",
  "settlement_ids",
  "token_state",
  "webhook_deliveries",
  "webhook_previous_secrets",
  "webhook_secrets",
  "webhook_shops",
];
const tables = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .toArray()
    .map((r) => r.name);
const version = (sql: SqlStorage) =>
  sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'").toArray()[0]?.value;

describe("schema: migrate", () => {
  it("has created every table and the version row by the time the object is constructed", async () => {
    await withSql((sql) => {
      expect(tables(sql)).toEqual(TABLES);
      expect(version(sql)).toMatch(/^\d+$/);
    });
  });

  it("a second migrate changes nothing and keeps the data", async () => {
    await withSql((sql) => {
      sql.exec("INSERT INTO gateway_keys (hash, created_at, retires_at) VALUES ('h', 't', NULL)");
      const before = version(sql);
      migrate(sql);
      migrate(sql);
      expect(tables(sql)).toEqual(TABLES);
      expect(version(sql)).toBe(before);
      expect(sql.exec("SELECT hash FROM gateway_keys").toArray()).toEqual([{ hash: "h" }]);
    });
  });

  it("skips the DDL when the stored version is current (one read per wake)", async () => {
    await withSql((sql) => {
      sql.exec("DROP TABLE settlement_ids");
      migrate(sql);
      expect(tables(sql)).not.toContain("settlement_ids");
    });
  });

  it("re-runs the DDL over an older version: missing tables come back, existing rows stay, the version is current again", async () => {
    await withSql((sql) => {
      const current = version(sql);
      sql.exec(
        "INSERT INTO registration (id, registration_id, environment, client, name, created_at, client_key) VALUES (1, 'r', 'demo', 'acme', 'Acme', 't', '{}')",
      );
      sql.exec("DROP TABLE settlement_ids");
      sql.exec("UPDATE meta SET value = '0' WHERE key = 'schema'");
      migrate(sql);
      expect(tables(sql)).toEqual(TABLES);
      expect(version(sql)).toBe(current);
      expect(sql.exec("SELECT client FROM registration").toArray()).toEqual([{ client: "acme" }]);
    });
  });
});
