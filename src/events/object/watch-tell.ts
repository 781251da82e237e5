/**
 * @module
 * What the events object tells the tenant's watcher (`events/watcher/watcher-object.ts`), and
 * nothing more: the event types its enabled endpoints take that the watcher can see, whenever they
 * change, and that the tenant was active (an event recorded), at most once a minute. What was last
 * told is kept in `meta` (key `watcher_types`), so a tell that failed is told again: by the next
 * change, by the alarm (`dueAt`), or when the object next wakes (an object that had endpoints
 * before the watcher existed tells it then).
 */
import { z } from "zod";
import { subscribes } from "../types";
import { log } from "../../kernel/log";
import { POLLS, POLL_NAMES } from "../watcher/polls";
import { jsonColumn, row } from "../../tenant/sql";
import type { Endpoints } from "./endpoints";

/** How often the watcher is told the tenant is active, at most, ms. */
const ACTIVE_TELL_MS = 60_000;
/** How long after a failed tell the alarm tells again, ms. */
const RETELL_MS = 60_000;

/** Every type some poll of the watcher can find. */
const WATCHABLE = POLL_NAMES.flatMap((p) => POLLS[p].types);

const Told = z.object({ value: jsonColumn(z.array(z.string())) });

/** The watcher's side of the events object. */
export interface WatcherLine {
  watch(types: string[]): Promise<unknown>;
  active(at: number): Promise<void>;
}

/** Tells the watcher what to watch. */
export class WatchTell {
  #lastActive = 0;
  #failedAt: number | null = null;

  constructor(
    private readonly sql: SqlStorage,
    private readonly endpoints: Endpoints,
    private readonly watcher: () => WatcherLine,
  ) {}

  /** The watchable types the enabled endpoints take: `["*"]`, some, or none. */
  wanted(): string[] {
    const enabled = this.endpoints.list().filter((e) => e.state === "enabled");
    if (enabled.some((e) => e.types.includes("*"))) return ["*"];
    return WATCHABLE.filter((t) => enabled.some((e) => subscribes(e.types, t)));
  }

  /** What the watcher was last told (none before the first tell). */
  told(): string[] {
    return row(this.sql, Told, "SELECT value FROM meta WHERE key = 'watcher_types'")?.value ?? [];
  }

  /** Whether the watcher has not been told what the endpoints take now. */
  pending(): boolean {
    return JSON.stringify(this.wanted()) !== JSON.stringify(this.told());
  }

  /** Tells the watcher what the endpoints take now, if it was not told yet. Never throws. */
  async tell(now: number): Promise<void> {
    if (!this.pending()) return;
    const wanted = this.wanted();
    try {
      await this.watcher().watch(wanted);
      this.sql.exec(
        "INSERT INTO meta (key, value) VALUES ('watcher_types', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        JSON.stringify(wanted),
      );
      this.#failedAt = null;
    } catch (e) {
      this.#failedAt = now;
      log.warn("watcher-tell-failed", { error: String(e) });
    }
  }

  /**
   * The tenant was active at `now` (an event recorded): tells a watching watcher, at most once a
   * minute, without waiting for it.
   */
  active(now: number): Promise<void> | null {
    if (now - this.#lastActive < ACTIVE_TELL_MS || this.told().length === 0) return null;
    this.#lastActive = now;
    return this.watcher()
      .active(now)
      .catch((e: unknown) => log.warn("watcher-tell-failed", { error: String(e) }));
  }

  /** When the alarm should tell again after a failed tell, or null. */
  dueAt(): number | null {
    return this.#failedAt === null ? null : this.#failedAt + RETELL_MS;
  }

  /** Forgets what was told (the watcher is told again on the next change). */
  forget(): void {
    this.sql.exec("DELETE FROM meta WHERE key = 'watcher_types'");
  }
}
