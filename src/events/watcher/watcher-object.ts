/**
 * @module
 * `Watcher`: one per tenant, it polls the API's change filters for what some endpoint takes (a
 * disabled one too) and records the changes under the same keys as the gateway's own writes. Its
 * calls are the tenant's, on the governor's watcher lane; its cadence is the roster's. The next
 * alarm is set before a cycle's work and a cursor stored after its events, so nothing is skipped;
 * a row read again repeats its key. See docs/design/events.md; storage: docs/storage.md.
 */
import { DurableObject } from "cloudflare:workers";
import { readConfig, type Bindings } from "../../kernel/config";
import { log } from "../../kernel/log";
import { asWatcher, parseTenantName, rosterStub, type TenantName } from "../../kernel/stubs";
import { pollIo, readerOf, recorder } from "./io";
import { plan } from "./polls";
import { OFF, viewOf, type WatcherView } from "./view";
import { isActive, turnWaitMs } from "./cadence";
import { ownName } from "../../kernel/own-name";
import { Cursors } from "./object/cursors";
import { nextCycleAt, pollAll, type CycleRun } from "./object/cycle";
import { GrantCheck, watchesGrant } from "./object/grant-check";
import { readJson } from "./read";
import { CycleLog, type CycleOutcome } from "./object/cycle-log";
import { migrate } from "./object/schema";
import { WatchRow, type Watch } from "./object/watch-row";

export class Watcher extends DurableObject<Bindings> {
  readonly #tenant: TenantName | null;
  readonly #watch: WatchRow;
  readonly #cursors: Cursors;
  readonly #cycles: CycleLog;
  readonly #grant: GrantCheck;
  /** Bumped when what is watched changes: a cycle awaiting the API meanwhile writes nothing. */
  #generation = 0;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    migrate(ctx.storage);
    this.#tenant = ownName(ctx);
    const sql = ctx.storage.sql;
    this.#watch = new WatchRow(sql);
    this.#cursors = new Cursors(sql);
    this.#cycles = new CycleLog(sql);
    this.#grant = new GrantCheck(sql);
  }

  /** Watches what endpoints taking `types` need (none: stop); a poll added starts now. */
  async watch(types: string[]): Promise<WatcherView> {
    if (!this.#tenant) return OFF;
    this.#generation++;
    const planned = plan(types);
    const now = Date.now();
    if (planned.length === 0 && !watchesGrant(types)) {
      this.#watch.clear();
      this.#cursors.clear();
      this.#grant.clear();
      await this.ctx.storage.deleteAlarm();
      await this.#roster((r) => r.leave(this.#tenant as string));
      return OFF;
    }
    const before = this.#watch.get();
    // Subscribing is activity: a new subscriber is watched closely for a while.
    const w: Watch = before
      ? { ...before, types }
      : { types, books: null, since: now, activeAt: now, cycleMs: 0, nextAt: null };
    this.#cursors.plan(planned, now);
    w.cycleMs = await this.#cadence(w, planned.length);
    w.nextAt = before?.nextAt ?? now + w.cycleMs;
    this.#watch.save(w);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(w.nextAt);
    return this.status();
  }

  /** The tenant was active at `at`: an idle tenant turns active, its next cycle brought forward. */
  async active(at: number): Promise<void> {
    const w = this.#watch.get();
    if (!w || (w.activeAt !== null && w.activeAt >= at)) return;
    const wasActive = isActive(w.activeAt, Date.now());
    w.activeAt = at;
    this.#watch.save(w);
    if (wasActive) return;
    w.cycleMs = await this.#cadence(w, plan(w.types).length);
    const last = this.#cycles.last()?.startedAt ?? w.since;
    const due = Math.max(Date.now(), last + w.cycleMs);
    if (w.nextAt === null || due < w.nextAt) {
      w.nextAt = due;
      await this.ctx.storage.setAlarm(due);
    }
    this.#watch.save(w);
  }

  status(): WatcherView {
    const w = this.#watch.get();
    return w ? viewOf(w, this.#cycles.last(), this.#cycles.lastFound()) : OFF;
  }

  /**
   * One cycle: the next alarm first, then each poll in turn, then the next cycle's cadence. Nothing
   * thrown escapes: the platform's retries of a failed alarm would poll again at once.
   */
  override async alarm(): Promise<void> {
    const w = this.#watch.get();
    const tenant = this.#tenant;
    if (!w || !tenant) return;
    const generation = this.#generation;
    const started = Date.now();
    await this.ctx.storage.setAlarm(started + w.cycleMs);
    if (readConfig(this.env).watcherBudgetShare === 0) {
      // Polling is off (`WATCHER_BUDGET_SHARE=0`): ask nothing.
      w.cycleMs = await this.#cadence(w, plan(w.types).length);
      w.nextAt = started + w.cycleMs;
      this.#watch.save(w);
      this.#end(started, { calls: 0, delays: [], outcome: "no-permit" });
      await this.ctx.storage.setAlarm(w.nextAt);
      return;
    }
    const books = await asWatcher(this.env, tenant, (f) => f.books()).catch(() => null);
    if (generation !== this.#generation) return;
    if (!books?.ok) {
      // The tenant is gone, or its object failed: the next cycle asks again.
      this.#end(started, { calls: 0, delays: [], outcome: "failed" });
      return;
    }
    if (w.books !== books.value) {
      // Other books (a new client key or registration): start afresh, announce nothing old.
      if (w.books !== null) {
        this.#cursors.restart(started);
        this.#grant.clear();
      }
      w.books = books.value;
      this.#watch.save(w);
    }
    const planned = plan(w.types);
    const io = pollIo(this.env, tenant, books.value, turnWaitMs(w.cycleMs));
    const last = this.#cycles.last();
    const finishing = last?.outcome === "no-permit" ? last.startedAt : null;
    const current = () => generation === this.#generation;
    const run = await pollAll(planned, this.#cursors, io, current, finishing);
    if (!run) return;
    if (run.outcome === "ok" || run.outcome === "capped")
      await this.#checkGrant(w, tenant, books.value, run, started);
    if (!current()) return;
    if (run.delays.length > 0) w.activeAt = Date.now();
    const cycleMs = await this.#cadence(w, planned.length);
    if (generation !== this.#generation) return;
    w.cycleMs = cycleMs;
    const next = nextCycleAt(started, w.cycleMs, run, Date.now());
    w.nextAt = next;
    this.#watch.save(w);
    this.#end(started, run);
    await this.ctx.storage.setAlarm(next);
  }

  /** The grant's hourly check, when some endpoint takes its event; counted into `run`. */
  async #checkGrant(
    w: Watch,
    tenant: TenantName,
    books: string,
    run: CycleRun,
    now: number,
  ): Promise<void> {
    if (!watchesGrant(w.types) || !this.#grant.due(now)) return;
    const reader = readerOf(this.env, tenant, books, turnWaitMs(w.cycleMs));
    try {
      const checked = await this.#grant.run(
        tenant,
        {
          read: () => readJson(reader, "/ClientIntegrationInformation", "", "grant"),
          record: recorder(this.env, tenant),
        },
        now,
      );
      run.calls += checked.calls;
      if (checked.stopped) {
        run.outcome = checked.stopped.why;
        run.retryAfterSeconds = checked.stopped.retryAfterSeconds ?? 0;
      }
    } catch (e) {
      log.warn("watcher-grant-failed", { tenant, error: String(e) });
      run.outcome = "failed";
    }
  }

  #end(started: number, c: { calls: number; delays: number[]; outcome: CycleOutcome }): void {
    this.#cycles.add({
      startedAt: started,
      finishedAt: Date.now(),
      calls: c.calls,
      changes: c.delays.length,
      delayMs: c.delays.length > 0 ? Math.max(...c.delays) : null,
      outcome: c.outcome,
    });
    if (c.outcome !== "ok")
      log.info("watcher-cycle", { tenant: this.#tenant, outcome: c.outcome, calls: c.calls });
  }

  /** This tenant's cycle from the roster, ms; else the last one: a failure never polls faster. */
  async #cadence(w: Watch, cost: number): Promise<number> {
    const activeAt = isActive(w.activeAt, Date.now()) ? w.activeAt : null;
    const answer = await this.#roster((r) => r.report(this.#tenant as string, cost, activeAt));
    return answer?.cycleMs ?? Math.max(readConfig(this.env).watcherFloorMs, w.cycleMs);
  }

  /** `call` on this environment's roster; null when it failed (logged). */
  async #roster<T>(call: (r: ReturnType<typeof rosterStub>) => Promise<T>): Promise<T | null> {
    const parsed = parseTenantName(this.#tenant ?? "");
    if (!parsed.ok) return null;
    try {
      return await call(rosterStub(this.env, parsed.value.environment));
    } catch (e) {
      log.warn("watcher-roster-failed", { tenant: this.#tenant, error: String(e) });
      return null;
    }
  }
}
