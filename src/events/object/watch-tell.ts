/**
 * @module
 * What the events object tells the tenant's watcher: the watchable types its endpoints take,
 * enabled or disabled (disabling stops delivery, never recording), and that the tenant was active.
 * What was told is kept, so a failed tell is told again. See docs/design/events.md.
 */
import { z } from "zod";
import { subscribes } from "../types";
import { log } from "../../kernel/log";
import { POLLS, POLL_NAMES } from "../watcher/polls";
import { GRANT_EVENT } from "../watcher/object/grant-check";
import { jsonColumn, row } from "../../tenant/sql";
import type { Endpoints } from "./endpoints";

/** How often the watcher is told the tenant is active, at most, ms. */
const ACTIVE_TELL_MS = 60_000;
/** How long after a failed tell the alarm tells again, ms. */
const RETELL_MS = 60_000;

const WATCHABLE = [...POLL_NAMES.flatMap((p) => POLLS[p].types), GRANT_EVENT];

const Told = z.object({ value: jsonColumn(z.array(z.string())) });

export interface WatcherLine {
  watch(types: string[]): Promise<unknown>;
  active(at: number): Promise<void>;
}

export class WatchTell {
  #lastActive = 0;
  #failedAt: number | null = null;

  constructor(
    private readonly sql: SqlStorage,
    private readonly endpoints: Endpoints,
    private readonly watcher: () => WatcherLine,
    /** The types of the named consumers that count (`null`: every type). */
    private readonly readers: () => (string[] | null)[] = () => [],
  ) {}

  /**
   * The watchable types every endpoint takes, a disabled one too, so that enabling it and replaying
   * sends what happened meanwhile, and every named consumer that reads: `["*"]`, some, or none (no
   * endpoint and no reader: not watched).
   */
  wanted(): string[] {
    const all = [
      ...this.endpoints.list().map((e) => e.types),
      ...this.readers().map((types) => types ?? ["*"]),
    ];
    if (all.some((types) => types.includes("*"))) return ["*"];
    return WATCHABLE.filter((t) => all.some((types) => subscribes(types, t)));
  }

  told(): string[] {
    return row(this.sql, Told, "SELECT value FROM meta WHERE key = 'watcher_types'")?.value ?? [];
  }

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

  /** The tenant was active: tells a watching watcher, at most once a minute, without waiting. */
  active(now: number): Promise<void> | null {
    if (now - this.#lastActive < ACTIVE_TELL_MS || this.told().length === 0) return null;
    this.#lastActive = now;
    return this.watcher()
      .active(now)
      .catch((e: unknown) => log.warn("watcher-tell-failed", { error: String(e) }));
  }

  dueAt(): number | null {
    return this.#failedAt === null ? null : this.#failedAt + RETELL_MS;
  }

  /** Forgets what was told (the watcher is told again on the next change). */
  forget(): void {
    this.sql.exec("DELETE FROM meta WHERE key = 'watcher_types'");
  }
}
