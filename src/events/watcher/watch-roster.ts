/**
 * @module
 * `WatchRoster`: one per environment (`idFromName("demo")`), as the governor is, because the
 * watchers of one environment share one subscription key's budget. It keeps who is watched, how
 * many polls a cycle each costs and when each was last active, and answers each watcher's cycle by
 * the formula of `events/watcher/cadence.ts`. Each watcher reports after every cycle (one call, no
 * upstream cost), so the cadence follows the number of watched tenants and their activity within
 * one cycle of a change. A row not reported for `STALE_CYCLES` of its cycles (a tenant removed in
 * a way that never told its watcher) is dropped. Storage layout: docs/storage.md.
 *
 * Who may call: the tenants' watchers (`events/watcher/watcher-object.ts`), named by tenant names
 * the gateway derived. It holds no secret and no data of a tenant's books: names, counts and times.
 */
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import { readConfig, type Bindings } from "../../kernel/config";
import { cycles, isActive } from "./cadence";
import { migrate as migrateSteps, type Migration } from "../../kernel/migrations";
import { rows } from "../../tenant/sql";

/** How many of its own cycles a silent watcher stays on the roster. */
const STALE_CYCLES = 3;
/** The least time a silent watcher stays on the roster, ms (a cycle may run long). */
const STALE_MIN_MS = 10 * 60 * 1000;

const ROSTER_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "watched: the environment's watched tenants, their cost and activity",
    up: (sql) =>
      sql.exec(`CREATE TABLE IF NOT EXISTS watched (tenant TEXT PRIMARY KEY, cost INTEGER NOT NULL,
        active_at INTEGER, seen_at INTEGER NOT NULL, cycle_ms INTEGER NOT NULL)`),
  },
];

const Row = z.object({
  tenant: z.string(),
  cost: z.int(),
  active_at: z.int().nullable(),
  seen_at: z.int(),
  cycle_ms: z.int(),
});

/** A watcher's cycle, and what it was computed from. */
export interface Cadence {
  /** This tenant's cycle, ms. */
  cycleMs: number;
  /** The cycles of an active and of an idle tenant now, ms. */
  activeCycleMs: number;
  idleCycleMs: number;
  /** Tenants watched in the environment, and how many of them are active. */
  watched: number;
  active: number;
}

/** The environment's watched tenants. */
export class WatchRoster extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    migrateSteps(ctx.storage, "WatchRoster", ROSTER_MIGRATIONS);
  }

  /**
   * `tenant` watches with `cost` polls a cycle, last active at `activeAt` (epoch ms, null: not in
   * the last hour); answers its cycle.
   */
  report(tenant: string, cost: number, activeAt: number | null): Cadence {
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    sql.exec(
      `INSERT INTO watched (tenant, cost, active_at, seen_at, cycle_ms) VALUES (?, ?, ?, ?, 0)
       ON CONFLICT(tenant) DO UPDATE SET cost = excluded.cost, active_at = excluded.active_at,
       seen_at = excluded.seen_at`,
      tenant,
      Math.max(1, Math.round(cost)),
      activeAt,
      now,
    );
    const all = rows(sql, Row, "SELECT * FROM watched").filter((r) => {
      const stale = now - r.seen_at > Math.max(STALE_MIN_MS, STALE_CYCLES * r.cycle_ms);
      if (stale) sql.exec("DELETE FROM watched WHERE tenant = ?", r.tenant);
      return !stale;
    });
    const config = readConfig(this.env);
    const watched = all.map((r) => ({ cost: r.cost, active: isActive(r.active_at, now) }));
    const c = cycles(
      {
        limitPerSecond: config.rateLimitPerSecond,
        share: config.watcherBudgetShare,
        floorMs: config.watcherFloorMs,
      },
      watched,
    );
    const mine = isActive(activeAt, now) ? c.active : c.idle;
    sql.exec("UPDATE watched SET cycle_ms = ? WHERE tenant = ?", mine, tenant);
    return {
      cycleMs: mine,
      activeCycleMs: c.active,
      idleCycleMs: c.idle,
      watched: watched.length,
      active: watched.filter((w) => w.active).length,
    };
  }

  /** `tenant` watches nothing any more. */
  leave(tenant: string): void {
    this.ctx.storage.sql.exec("DELETE FROM watched WHERE tenant = ?", tenant);
  }
}
