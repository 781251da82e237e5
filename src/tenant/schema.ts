/**
 * @module
 * The tenant object's SQLite layout as a numbered list of migration steps
 * (`kernel/migrations.ts`), applied in its constructor on every wake: one read once the layout is
 * current. Layout and fields: docs/storage.md.
 *
 * Step 5 is the baseline: the layout of the text version row "5" that came before the list, made of
 * each module's tables (their `*_TABLES` constants, frozen since). Its statements are `IF NOT
 * EXISTS`, so an object at "5" skips it and one at an older version ("2" to "4", whose layouts were
 * each a subset of it) gains what it lacks, its rows kept. Everything after is a step of its own.
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
import { REQUEST_LOG_TABLES } from "../request-log/tenant-rows";
import { ASSISTANT_GRANT_TABLES } from "../assistants/tenant/assistant-grants";
import { ACCEPTED_TABLE, SHOP_REFUSALS_TABLE } from "../orders/tenant/shop-pins";
import { STRIPE_KEY_TABLES } from "../payouts/tenant/stripe-key";
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
      // Until now an in-memory flag said a start had failed; an eviction forgot it. A run that was
      // waiting for its instance is due since its last change, that is at once.
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
      // Until now a pin was made by the operator's shopDomain or by the first verified delivery,
      // and nothing recorded which. Every existing pin is therefore flagged as a first delivery's:
      // it keeps working, and the console asks the operator to confirm it. Flagging an operator's
      // pin costs a click; taking a delivery's pin as the operator's would hide a wrong shop.
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
      // The API's client id is read when a support bundle first needs it, not here: a migration
      // runs synchronously and cannot call the API. The key in use gets its random id now.
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
      // Paid orders now settle to each source's clearing account by default, so that a payout can
      // book the deposit (docs/payouts.md). A tenant registered before this step settled to 1920
      // by default and may have invoices settled there: it keeps 1920 until its operator switches
      // (the console says why), rather than having its orders move accounts by a deploy. A mapping
      // that names an account already keeps it either way. An object with no registration yet is
      // a tenant being created now: it gets the new default.
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
      // Runs settled before this step did not record where: they have no day here, and the
      // payouts' unpaid orders leave them out (docs/payouts.md says why).
      addColumn(sql, "order_runs", "settled_on", "TEXT");
      addColumn(sql, "order_runs", "settled_to", "INTEGER");
      sql.exec("CREATE INDEX IF NOT EXISTS order_runs_settled ON order_runs (settled_on)");
    },
  },
  // Orders that arrived before step 13 kept no payment reference: a payout's line for one of them
  // names no order, and is shown so (docs/payouts.md, "Stripe").
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
];

/**
 * Brings the tenant's storage to the last step of `TENANT_MIGRATIONS`. Synchronous: call it from
 * the constructor.
 *
 * @throws MigrationError when a step fails (rolled back; the object's calls fail until it passes)
 */
export function migrate(storage: DurableObjectStorage): void {
  migrateSteps(storage, "Tenant", TENANT_MIGRATIONS);
}
