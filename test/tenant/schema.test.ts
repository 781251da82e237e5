/**
 * The tenant's layout as numbered steps (`src/tenant/schema.ts`): a new object gets every
 * step, an object written under the text version row "5" (or older) that came before the list is
 * recognised and brought forward with its rows intact, and a failing step leaves it as it was.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hasColumn } from "../../src/kernel/columns";
import { MigrationError, storedVersion } from "../../src/kernel/migrations";
import { migrate, TENANT_MIGRATIONS } from "../../src/tenant/schema";
import { Registration } from "../../src/tenant/registration";
import { ShopPins } from "../../src/orders/tenant/shop-pins";
import { coffeeOrder } from "../fixtures/orders/coffee";
import { applyEvent, type OrderRun } from "../../src/orders/runs";

const TENANT = env.TENANT;
let seq = 0;
/** A tenant object never registered (its constructor has migrated it), under a unique name. */
const freshStub = () =>
  TENANT.get(TENANT.idFromName(`test:schema-${Date.now().toString(36)}-${seq++}`));
/** Runs `run` with a fresh tenant object's storage. */
function withStorage<R>(run: (storage: DurableObjectStorage) => R | Promise<R>): Promise<R> {
  return runInDurableObject(freshStub(), (_i, state) => run(state.storage));
}

const CURRENT = TENANT_MIGRATIONS.at(-1)?.version;
const BASELINE = TENANT_MIGRATIONS.find((s) => s.version === 5);
if (!CURRENT || !BASELINE) throw new Error("the tenant's list lost its baseline");

const TABLES = [
  "assistant_grants",
  "call_counters",
  "code_ids",
  "connection_changes",
  "gateway_keys",
  "idempotency_keys",
  "known_customers",
  "known_products",
  "mapping_defaults",
  "meta",
  "order_mapping",
  "order_runs",
  "payment_refs",
  "payout_claims",
  "payouts",
  "reference_cache",
  "reference_generations",
  "registration",
  "request_log",
  "settlement_batches",
  "settlement_ids",
  "settlement_lines",
  "shared_reads",
  "stripe_key",
  "token_state",
  "tool_calls",
  "vipps_dates",
  "vipps_keys",
  "vipps_ledgers",
  "vipps_reads",
  "webhook_accepted",
  "webhook_deliveries",
  "webhook_previous_secrets",
  "webhook_refusals",
  "webhook_secrets",
  "webhook_shops",
  "write_confirmations",
];
/** The tables that layout 5 added to layout 4 (docs/storage.md). */
const ADDED_IN_5 = ["code_ids", "idempotency_keys", "reference_cache", "reference_generations"];

const tables = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .toArray()
    .map((r) => r.name);
const versionRow = (sql: SqlStorage) =>
  sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'").toArray()[0]?.value;

const T0 = Date.parse("2026-03-01T10:00:00.000Z");
const order = (id: string) => coffeeOrder(id);
/** A paid order's run as layout 5 kept it, changed at `at`. */
function run(id: string, at: number, patch: Partial<OrderRun> = {}): OrderRun {
  return {
    ...applyEvent(null, "shopify", { kind: "paid", order: order(id) }, new Date(at).toISOString())
      .run,
    ...patch,
  };
}

/**
 * Replaces the object's storage with layout 5 as an object of that build left it: its tables, the
 * text version row "5" (or `version`, with the tables of later layouts left out), a registration,
 * a gateway key, a run still waiting for its instance and one settled.
 */
function writeLayout5(sql: SqlStorage, version = "5", without: string[] = []): OrderRun[] {
  for (const t of tables(sql)) sql.exec(`DROP TABLE ${t}`);
  BASELINE?.up(sql);
  for (const t of without) sql.exec(`DROP TABLE ${t}`);
  sql.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  sql.exec("INSERT INTO meta (key, value) VALUES ('schema', ?)", version);
  sql.exec(
    "INSERT INTO registration (id, registration_id, environment, client, name, created_at, client_key) VALUES (1, 'reg-5', 'demo', 'oldacme', 'Old Acme AS', '2026-02-01T00:00:00.000Z', ?)",
    JSON.stringify({ kid: "k", iv: "aXY=", ct: "Y3Q=" }),
  );
  sql.exec(
    "INSERT INTO gateway_keys (hash, created_at, retires_at) VALUES ('h5', '2026-02-01T00:00:00.000Z', NULL)",
  );
  const runs = [run("5001", T0), run("5002", T0 + 1000, { state: "settled", started: true })];
  for (const [i, r] of runs.entries())
    sql.exec(
      "INSERT INTO order_runs (source, order_id, state, updated_at, pending, data) VALUES (?, ?, ?, ?, ?, ?)",
      r.source,
      r.orderId,
      r.state,
      r.updatedAt,
      i === 0 ? 1 : 0,
      JSON.stringify(r),
    );
  return runs;
}

describe("tenant schema: the numbered steps", () => {
  it("a new object has every table, the start column and the last step's number", async () => {
    await withStorage(({ sql }) => {
      expect(tables(sql)).toEqual(TABLES);
      expect(hasColumn(sql, "order_runs", "start_at")).toBe(true);
      expect(versionRow(sql)).toBe(String(CURRENT));
    });
  });

  it("a second migrate changes nothing and keeps the data", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      sql.exec("INSERT INTO gateway_keys (hash, created_at, retires_at) VALUES ('h', 't', NULL)");
      migrate(storage);
      migrate(storage);
      expect(tables(sql)).toEqual(TABLES);
      expect(versionRow(sql)).toBe(String(CURRENT));
      expect(sql.exec("SELECT hash FROM gateway_keys").toArray()).toEqual([{ hash: "h" }]);
    });
  });

  it("skips every step when the stored version is current (one read per wake)", async () => {
    await withStorage((storage) => {
      storage.sql.exec("DROP TABLE settlement_ids");
      migrate(storage);
      expect(tables(storage.sql)).not.toContain("settlement_ids");
    });
  });

  it("opens an object written under layout 5 with the new code: rows intact, the waiting run due since its change, the version current", async () => {
    const stub = freshStub();
    const runs = await runInDurableObject(stub, (_i, state) => writeLayout5(state.storage.sql));
    // The next wake constructs the object with today's code over the old layout.
    await evictDurableObject(stub);
    const operator = stub.forOperator();
    expect(await operator.describe()).toMatchObject({
      tenant: "demo:oldacme",
      name: "Old Acme AS",
      gatewayKeys: [{ retiresAt: null }],
    });
    for (const r of runs)
      expect(await operator.orderRun("shopify", r.orderId)).toMatchObject({ ok: true });
    (operator as Partial<Disposable>)[Symbol.dispose]?.();
    await runInDurableObject(stub, (_i, state) => {
      const sql = state.storage.sql;
      expect(versionRow(sql)).toBe(String(CURRENT));
      expect(tables(sql)).toEqual(TABLES);
      expect(
        sql
          .exec("SELECT order_id, pending, start_at, data FROM order_runs ORDER BY order_id")
          .toArray(),
      ).toEqual([
        { order_id: "5001", pending: 1, start_at: T0, data: JSON.stringify(runs[0]) },
        { order_id: "5002", pending: 0, start_at: null, data: JSON.stringify(runs[1]) },
      ]);
    });
  });

  it("brings an object at version '4' forward: the tables of 5 are added, its rows stay", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      writeLayout5(sql, "4", ADDED_IN_5);
      expect(tables(sql)).not.toContain("code_ids");
      migrate(storage);
      expect(tables(sql)).toEqual(TABLES);
      expect(storedVersion(sql)).toBe(CURRENT);
      expect(sql.exec("SELECT client FROM registration").toArray()).toEqual([
        { client: "oldacme" },
      ]);
      expect(sql.exec("SELECT start_at FROM order_runs WHERE pending = 1").toArray()).toEqual([
        { start_at: T0 },
      ]);
    });
  });

  it("step 7 keeps a shop pinned before shops were bound by the operator, flagged as a first delivery's", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      writeLayout5(sql);
      sql.exec(
        "INSERT INTO webhook_shops (source, shop) VALUES ('shopify', 'oldshop.myshopify.com')",
      );
      migrate(storage);
      expect(storedVersion(sql)).toBe(CURRENT);
      expect(sql.exec("SELECT source, shop, bound_by FROM webhook_shops").toArray()).toEqual([
        { source: "shopify", shop: "oldshop.myshopify.com", bound_by: "first-delivery" },
      ]);
      expect(new ShopPins(sql).binding("shopify")).toEqual({
        shop: "oldshop.myshopify.com",
        boundBy: "first-delivery",
      });
      expect(sql.exec("SELECT * FROM webhook_refusals").toArray()).toEqual([]);
    });
  });

  it("step 8 adds the request log, the counters and webhook_accepted, and keeps a secret set before it with no time", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      writeLayout5(sql);
      sql.exec("INSERT INTO webhook_secrets (source, sealed) VALUES ('stripe', '{}')");
      migrate(storage);
      expect(storedVersion(sql)).toBe(CURRENT);
      expect(sql.exec("SELECT source, set_at FROM webhook_secrets").toArray()).toEqual([
        { source: "stripe", set_at: null },
      ]);
      expect(sql.exec("SELECT COUNT(*) AS n FROM request_log").one()).toEqual({ n: 0 });
    });
  });

  it("step 9 gives the registration of before an id for its client key, and no API client id yet", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      writeLayout5(sql);
      migrate(storage);
      expect(storedVersion(sql)).toBe(CURRENT);
      expect(
        sql
          .exec("SELECT client_key_id, api_client_id, api_client_name FROM registration")
          .toArray(),
      ).toEqual([
        {
          client_key_id: expect.stringMatching(/^[0-9a-f]{32}$/),
          api_client_id: null,
          api_client_name: null,
        },
      ]);
      expect(new Registration(sql).get()).toMatchObject({ client: "oldacme", apiClient: null });
    });
  });

  it("step 10 adds an assistant's prepared writes and tool calls beside an object's logged calls, which stay", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      writeLayout5(sql);
      // An object at step 8: the request log holds a call.
      for (const step of TENANT_MIGRATIONS.filter((m) => m.version > 5 && m.version <= 8))
        step.up(sql);
      sql.exec("UPDATE meta SET value = '8' WHERE key = 'schema'");
      sql.exec(
        `INSERT INTO request_log (request_id, at, method, path, query, status, attempts, waited_ms,
          duration_ms, caller_kind, watcher) VALUES ('r8', 1, 'GET', '/Customers', '[]', 200, 1, 0, 5, 'key', 0)`,
      );
      expect(tables(sql)).not.toContain("tool_calls");
      migrate(storage);
      expect(storedVersion(sql)).toBe(CURRENT);
      expect(tables(sql)).toEqual(TABLES);
      expect(sql.exec("SELECT request_id FROM request_log").toArray()).toEqual([
        { request_id: "r8" },
      ]);
      expect(sql.exec("SELECT COUNT(*) AS n FROM write_confirmations").one()).toEqual({ n: 0 });
    });
  });

  it("step 11 records 'existing tenant: keep 1920' for a registered tenant, and nothing for an object with no registration", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      writeLayout5(sql);
      sql.exec(
        'INSERT INTO order_mapping (id, data) VALUES (1, \'{"deliveryType":"PdfByEmail"}\')',
      );
      migrate(storage);
      expect(sql.exec("SELECT settlement_account FROM mapping_defaults").toArray()).toEqual([
        { settlement_account: 1920 },
      ]);
      // The mapping itself is as stored: the default lives beside it.
      expect(sql.exec("SELECT data FROM order_mapping").one()).toEqual({
        data: '{"deliveryType":"PdfByEmail"}',
      });
    });
    await withStorage((storage) => {
      expect(storage.sql.exec("SELECT * FROM mapping_defaults").toArray()).toEqual([]);
    });
  });

  it("step 18 keeps both cohorts of existing tenants clearing by source, and a new object by provider", async () => {
    // From before payouts: step 11's row (1920), then clearing by source once it switches.
    await withStorage((storage) => {
      writeLayout5(storage.sql);
      migrate(storage);
      expect(storage.sql.exec("SELECT * FROM mapping_defaults").toArray()).toEqual([
        { id: 1, settlement_account: 1920, clearing_by: "source" },
      ]);
    });
    // Registered between steps 11 and 18: no row, its orders on the per-source accounts.
    await withStorage((storage) => {
      const sql = storage.sql;
      writeLayout5(sql);
      migrate(storage);
      sql.exec("DELETE FROM mapping_defaults");
      sql.exec("ALTER TABLE mapping_defaults DROP COLUMN clearing_by");
      sql.exec("UPDATE meta SET value = '17' WHERE key = 'schema'");
      migrate(storage);
      expect(sql.exec("SELECT * FROM mapping_defaults").toArray()).toEqual([
        { id: 1, settlement_account: null, clearing_by: "source" },
      ]);
    });
    await withStorage((storage) => {
      expect(storage.sql.exec("SELECT * FROM mapping_defaults").toArray()).toEqual([]);
    });
  });

  it("step 12 adds the payouts, their claims and the order index's settlement columns; a run settled before it has none", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      writeLayout5(sql);
      migrate(storage);
      expect(hasColumn(sql, "order_runs", "settled_on")).toBe(true);
      expect(hasColumn(sql, "order_runs", "settled_to")).toBe(true);
      expect(
        sql
          .exec("SELECT order_id, settled_on, settled_to FROM order_runs ORDER BY order_id")
          .toArray(),
      ).toEqual([
        { order_id: "5001", settled_on: null, settled_to: null },
        { order_id: "5002", settled_on: null, settled_to: null },
      ]);
      expect(sql.exec("SELECT COUNT(*) AS n FROM payouts").one()).toEqual({ n: 0 });
    });
  });

  it("step 13 adds the Stripe key and the payment references, empty: an object from before has neither, and its rows stay", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      const runs = writeLayout5(sql);
      migrate(storage);
      expect(storedVersion(sql)).toBe(CURRENT);
      expect(sql.exec("SELECT COUNT(*) AS n FROM stripe_key").one()).toEqual({ n: 0 });
      expect(sql.exec("SELECT COUNT(*) AS n FROM payment_refs").one()).toEqual({ n: 0 });
      expect(sql.exec("SELECT COUNT(*) AS n FROM order_runs").one()).toEqual({ n: runs.length });
      // One key at most: the row's id is pinned.
      expect(() =>
        sql.exec("INSERT INTO stripe_key (id, sealed, mode, set_at) VALUES (2, '{}', 'test', 0)"),
      ).toThrow(/CHECK/);
    });
  });

  it("step 14 adds the assistants' OAuth grants beside an object's prepared writes, which stay", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      writeLayout5(sql);
      // An object at step 12 (so 13 and 14 run): an assistant prepared a write.
      for (const step of TENANT_MIGRATIONS.filter((m) => m.version > 5 && m.version <= 12))
        step.up(sql);
      sql.exec("UPDATE meta SET value = '12' WHERE key = 'schema'");
      sql.exec(
        `INSERT INTO write_confirmations (handle_hash, principal, registration, method, path, search,
          body, operation_class, prepared_at, expires_at) VALUES ('h', 'key:0', 'r', 'POST', '/Customers', '', NULL, 'draft', 1, 2)`,
      );
      expect(tables(sql)).not.toContain("assistant_grants");
      migrate(storage);
      expect(storedVersion(sql)).toBe(CURRENT);
      expect(tables(sql)).toEqual(TABLES);
      expect(sql.exec("SELECT handle_hash FROM write_confirmations").toArray()).toEqual([
        { handle_hash: "h" },
      ]);
      expect(sql.exec("SELECT COUNT(*) AS n FROM assistant_grants").one()).toEqual({ n: 0 });
    });
  });

  it("a step that fails (its backfill refused) rolls back, column and all; the object stays at 5 until a wake succeeds", async () => {
    await withStorage((storage) => {
      const sql = storage.sql;
      writeLayout5(sql);
      sql.exec(
        "CREATE TRIGGER refuse_backfill BEFORE UPDATE ON order_runs BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
      );
      expect(() => migrate(storage)).toThrow(MigrationError);
      expect(() => migrate(storage)).toThrow(
        /Tenant: storage migration 6 \(order_runs\.start_at.*stays at version 5.*refused by the test/,
      );
      expect(hasColumn(sql, "order_runs", "start_at")).toBe(false);
      expect(versionRow(sql)).toBe("5");
      sql.exec("DROP TRIGGER refuse_backfill");
      migrate(storage);
      expect(versionRow(sql)).toBe(String(CURRENT));
      expect(hasColumn(sql, "order_runs", "start_at")).toBe(true);
    });
  });
});
