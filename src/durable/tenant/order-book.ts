/**
 * @module
 * The tenant's order index in its Durable Object's SQLite: one row per shop order (its whole run
 * record as JSON, with the state and a "has a run to start" flag as columns for the listing and the
 * alarm), and the webhook deliveries seen per source (event id and signed timestamp), kept 7 days:
 * longer than any source retries (Shopify 4 h, Stripe 3 days, Standard Webhooks ≈ 75 h).
 * All synchronous: callers read, decide and write without an await in between.
 */
import type { OrderRun, RunState } from "../lib/orders/runs";
import { pendingStarts } from "../lib/orders/runs";
import type { Source } from "../lib/orders/order";

/** How long a delivery's event id is remembered, ms. */
const DELIVERY_MEMORY_MS = 7 * 86_400_000;
/** Bumped when the layout changes; tables are created if missing (the tenant's other records are key-value). */
const SCHEMA = "orders-1";

export class OrderBook {
  #ready = false;

  constructor(private readonly sql: SqlStorage) {}

  /** Creates the tables when missing: after a tenant is removed (`deleteAll`) they are gone again. */
  #ensure(): void {
    if (this.#ready) return;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS order_runs (source TEXT NOT NULL, order_id TEXT NOT NULL, state TEXT NOT NULL,
      updated_at TEXT NOT NULL, pending INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (source, order_id))`);
    this.sql.exec("CREATE INDEX IF NOT EXISTS order_runs_state ON order_runs (state, updated_at)");
    this.sql.exec("CREATE INDEX IF NOT EXISTS order_runs_pending ON order_runs (pending)");
    this.sql.exec(`CREATE TABLE IF NOT EXISTS webhook_deliveries (source TEXT NOT NULL, event_id TEXT NOT NULL, signed_at INTEGER,
      seen_at INTEGER NOT NULL, PRIMARY KEY (source, event_id))`);
    this.sql.exec("CREATE TABLE IF NOT EXISTS order_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    this.sql.exec("INSERT OR REPLACE INTO order_meta (key, value) VALUES ('schema', ?)", SCHEMA);
    this.#ready = true;
  }

  /** Forgets that the tables exist (the object's storage was wiped). */
  reset(): void {
    this.#ready = false;
  }

  get(source: Source, orderId: string): OrderRun | null {
    this.#ensure();
    const row = this.sql.exec<{ data: string }>("SELECT data FROM order_runs WHERE source = ? AND order_id = ?", source, orderId).toArray()[0];
    return row ? (JSON.parse(row.data) as OrderRun) : null;
  }

  put(run: OrderRun): void {
    this.#ensure();
    this.sql.exec(
      "INSERT OR REPLACE INTO order_runs (source, order_id, state, updated_at, pending, data) VALUES (?, ?, ?, ?, ?, ?)",
      run.source, run.orderId, run.state, run.updatedAt, pendingStarts(run).length > 0 ? 1 : 0, JSON.stringify(run),
    );
  }

  /** Orders, newest change first, optionally in one state. */
  list(state: RunState | null, limit: number): OrderRun[] {
    this.#ensure();
    const rows = state
      ? this.sql.exec<{ data: string }>("SELECT data FROM order_runs WHERE state = ? ORDER BY updated_at DESC LIMIT ?", state, limit)
      : this.sql.exec<{ data: string }>("SELECT data FROM order_runs ORDER BY updated_at DESC LIMIT ?", limit);
    return rows.toArray().map((r) => JSON.parse(r.data) as OrderRun);
  }

  /** Orders with a run still to start. */
  pending(): OrderRun[] {
    this.#ensure();
    return this.sql.exec<{ data: string }>("SELECT data FROM order_runs WHERE pending = 1 LIMIT 50").toArray().map((r) => JSON.parse(r.data) as OrderRun);
  }

  /** The signed timestamp last accepted for an event id (0 when it had none), or null when the event is new. */
  lastDelivery(source: Source, eventId: string): number | null {
    this.#ensure();
    const row = this.sql.exec<{ signed_at: number | null }>("SELECT signed_at FROM webhook_deliveries WHERE source = ? AND event_id = ?", source, eventId).toArray()[0];
    return row ? (row.signed_at ?? 0) : null;
  }

  /** Remembers a delivery, and forgets those older than the sources' retry windows. */
  remember(source: Source, eventId: string, signedAt: number | null, now: number): void {
    this.#ensure();
    this.sql.exec("INSERT OR REPLACE INTO webhook_deliveries (source, event_id, signed_at, seen_at) VALUES (?, ?, ?, ?)", source, eventId, signedAt, now);
    this.sql.exec("DELETE FROM webhook_deliveries WHERE seen_at < ?", now - DELIVERY_MEMORY_MS);
  }
}
