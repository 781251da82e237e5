/**
 * @module
 * `WatchRoster`: one per environment, whose watchers share one key's budget. It keeps who is
 * watched, at what cost and activity, and answers each watcher's cycle after every cycle
 * (`cadence.ts`); a silent watcher's row is dropped. See docs/design/events.md; storage:
 * docs/storage.md.
 */
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import { readConfig, type Bindings } from "../../kernel/config";
import { cycles, isActive } from "./cadence";
import { migrate as migrateSteps, type Migration } from "../../kernel/migrations";
import { rows } from "../../tenant/sql";

/** How many of its cycles, and how long at least (a cycle may run long), a silent row stays. */
const STALE_CYCLES = 3;
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

/** A watcher's cycle (ms), and what it was computed from. */
export interface Cadence {
  cycleMs: number;
  activeCycleMs: number;
  idleCycleMs: number;
  watched: number;
  active: number;
}

export class WatchRoster extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    migrateSteps(ctx.storage, "WatchRoster", ROSTER_MIGRATIONS);
  }

  /** `tenant` watches with `cost` polls, active at `activeAt` (null: idle); answers its cycle. */
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

  leave(tenant: string): void {
    this.ctx.storage.sql.exec("DELETE FROM watched WHERE tenant = ?", tenant);
  }
}
