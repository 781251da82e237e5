/**
 * @module
 * The tenant object's SQLite layout as numbered migration steps (`kernel/migrations.ts`), applied
 * in its constructor on every wake. Step 5, the baseline, is each module's frozen `*_TABLES`, all
 * `IF NOT EXISTS`, so an object on an older layout gains what it lacks. Layout: docs/storage.md.
 */
import { addColumn, createTables } from "../kernel/columns";
import { migrate as migrateSteps, type Migration } from "../kernel/migrations";
import { CODE_ID_TABLES } from "../v2/tenant/code-ids";
import { GATEWAY_KEY_TABLES } from "./gateway-keys";
import { IDEMPOTENCY_TABLES } from "../v2/tenant/idempotency-keys";
import { KNOWN_ID_TABLES } from "../orders/tenant/known-ids";
import { ORDER_BOOK_TABLES } from "../orders/tenant/order-book";
import { MAPPING_DEFAULTS_TABLE, ORDER_SETTINGS_TABLES } from "../orders/tenant/order-settings";
import { PAYMENT_REF_TABLES } from "../ledger/payment-refs";
import { PAYOUT_TABLES } from "../payouts/tenant/payout-book";
import { REFERENCE_CACHE_TABLES } from "../v2/tenant/reference-cache";
import { REGISTRATION_TABLES } from "./registration";
import { SHARED_CALL_TABLES } from "../orders/tenant/shared-calls";
import { REQUEST_LOG_TABLES } from "../request-log/tenant-rows";
import { ASSISTANT_GRANT_TABLES } from "../assistants/tenant/assistant-grants";
import { ACCEPTED_TABLE, SHOP_REFUSALS_TABLE } from "../orders/tenant/shop-pins";
import { STRIPE_KEY_TABLES } from "../payouts/tenant/stripe-key";
import { VIPPS_BOOK_TABLES } from "../payouts/tenant/vipps-book";
import { CONNECTION_TABLES } from "../upstream/tenant/connection";
import { VIPPS_KEY_TABLES } from "../payouts/tenant/vipps-keys";
import { TOKEN_TABLES } from "../upstream/tenant/token-state";
import { TOOL_CALL_TABLES } from "../assistants/tenant/tool-calls";
import { WRITE_CONFIRMATION_TABLES } from "../assistants/tenant/write-confirmations";

const BASELINE = [
  ...REGISTRATION_TABLES,
  ...GATEWAY_KEY_TABLES,
  ...TOKEN_TABLES,
  ...ORDER_SETTINGS_TABLES,
  ...ORDER_BOOK_TABLES,
  ...KNOWN_ID_TABLES,
  ...CODE_ID_TABLES,
  ...IDEMPOTENCY_TABLES,
  ...REFERENCE_CACHE_TABLES,
];

/** The tenant's layout, step by step. Add a step at the end; never edit a released one. */
export const TENANT_MIGRATIONS: readonly Migration[] = [
  createTables(5, "baseline: the layout of schema version 5", BASELINE),
  {
    version: 6,
    name: "order_runs.start_at: when a run's start is due, stored",
    up: (sql) => {
      // A run waiting for its instance is due since its last change, that is at once.
      addColumn(sql, "order_runs", "start_at", "INTEGER");
      sql.exec(
        "UPDATE order_runs SET start_at = COALESCE(CAST(strftime('%s', updated_at) AS INTEGER) * 1000, 0) WHERE pending = 1 AND start_at IS NULL",
      );
      sql.exec("CREATE INDEX IF NOT EXISTS order_runs_start ON order_runs (pending, start_at)");
    },
  },
  {
    version: 7,
    name: "webhook_shops.bound_by and webhook_refusals: shops bound by the operator",
    up: (sql) => {
      // An existing pin may be a first delivery's: flagged so, the console asks to confirm it.
      // Flagging an operator's pin costs a click; the reverse would hide a wrong shop.
      addColumn(sql, "webhook_shops", "bound_by", "TEXT NOT NULL DEFAULT 'first-delivery'");
      sql.exec(SHOP_REFUSALS_TABLE);
    },
  },
  {
    version: 8,
    name: "request_log, call_counters, webhook_accepted, webhook_secrets.set_at: what happened",
    up: (sql) => {
      for (const statement of REQUEST_LOG_TABLES) sql.exec(statement);
      sql.exec(ACCEPTED_TABLE);
      // Secrets set before this step have no time: null says "set, when unknown", never a guess.
      addColumn(sql, "webhook_secrets", "set_at", "INTEGER");
    },
  },
  {
    version: 9,
    name: "registration.client_key_id, api_client_id, api_client_name: the API's own client id",
    up: (sql) => {
      // A migration cannot call the API: the client is read when a bundle first needs it.
      addColumn(sql, "registration", "client_key_id", "TEXT");
      addColumn(sql, "registration", "api_client_id", "TEXT");
      addColumn(sql, "registration", "api_client_name", "TEXT");
      sql.exec(
        "UPDATE registration SET client_key_id = lower(hex(randomblob(16))) WHERE client_key_id IS NULL",
      );
    },
  },
  createTables(
    10,
    "write_confirmations, tool_calls: an assistant's prepared writes and its tool calls",
    WRITE_CONFIRMATION_TABLES,
    TOOL_CALL_TABLES,
  ),
  {
    version: 11,
    name: "mapping_defaults: existing tenant: keep 1920",
    up: (sql) => {
      // Existing tenants keep settling to 1920 until their operator switches to the clearing
      // accounts (docs/payouts.md), rather than having orders move accounts by a deploy. One not
      // yet registered is being created now: it gets the new default.
      sql.exec(MAPPING_DEFAULTS_TABLE);
      sql.exec(
        "INSERT OR IGNORE INTO mapping_defaults (id, settlement_account) SELECT 1, 1920 WHERE EXISTS (SELECT 1 FROM registration)",
      );
    },
  },
  {
    version: 12,
    name: "payouts, payout_claims, order_runs.settled_on and settled_to: payouts reconciled",
    up: (sql) => {
      for (const statement of PAYOUT_TABLES) sql.exec(statement);
      // Runs settled before this step have no day: unpaid orders leave them out (docs/payouts.md).
      addColumn(sql, "order_runs", "settled_on", "TEXT");
      addColumn(sql, "order_runs", "settled_to", "INTEGER");
      sql.exec("CREATE INDEX IF NOT EXISTS order_runs_settled ON order_runs (settled_on)");
    },
  },
  createTables(
    13,
    "stripe_key, payment_refs: Stripe payouts read from Stripe",
    STRIPE_KEY_TABLES,
    PAYMENT_REF_TABLES,
  ),
  createTables(
    14,
    "assistant_grants: the OAuth grants a person approved for an assistant",
    ASSISTANT_GRANT_TABLES,
  ),
  createTables(
    15,
    "settlement_batches, settlement_lines, shared_reads: calls runs share",
    SHARED_CALL_TABLES,
  ),
  {
    version: 16,
    name: "request_log.caller_served: the runs a shared call served",
    up: (sql) => addColumn(sql, "request_log", "caller_served", "TEXT"),
  },
  {
    version: 17,
    name: "order_runs.live: runs under way, for the alarm to revive a silent one",
    up: (sql) => {
      addColumn(sql, "order_runs", "live", "INTEGER NOT NULL DEFAULT 0");
      // Over-inclusive: the revival reads each record, and its next write sets the column exactly.
      sql.exec(
        `UPDATE order_runs SET live = 1 WHERE state IN ('received', 'running', 'invoiced') OR data LIKE '%"refunds":[{%'`,
      );
      sql.exec("CREATE INDEX IF NOT EXISTS order_runs_live ON order_runs (live, updated_at)");
    },
  },
  {
    version: 18,
    name: "mapping_defaults.clearing_by: existing tenant: keep clearing by source",
    up: (sql) => {
      // As step 11: an existing tenant's orders keep their per-source accounts until the operator
      // switches to providers; a tenant being created now clears by provider.
      addColumn(sql, "mapping_defaults", "clearing_by", "TEXT");
      sql.exec(
        "INSERT OR IGNORE INTO mapping_defaults (id, settlement_account) SELECT 1, NULL WHERE EXISTS (SELECT 1 FROM registration)",
      );
      sql.exec("UPDATE mapping_defaults SET clearing_by = 'source'");
    },
  },
  createTables(
    19,
    "vipps_keys, vipps_ledgers, vipps_dates, vipps_reads: Vipps settlements read from Vipps",
    VIPPS_KEY_TABLES,
    VIPPS_BOOK_TABLES,
  ),
  createTables(
    20,
    "connection_changes: the connection's losses and recoveries, told as events",
    CONNECTION_TABLES,
  ),
];

/** @throws MigrationError when a step fails (rolled back; calls fail until it passes) */
export function migrate(storage: DurableObjectStorage): void {
  migrateSteps(storage, "Tenant", TENANT_MIGRATIONS);
}
