/**
 * @module
 * The Tenant's stored work, registered once. A module that keeps rows with a due time (a purge, a
 * run still to start, a token to renew, a previous secret to retire) is one `StoredWork`: it owns
 * its table and only reports when it next needs the object, as `cloudflare/agents`' scheduler does
 * for its agent. The object keeps the one alarm, at the earliest due time of every registered
 * work, and on it runs each in the order registered. Neither the alarm nor its arming names a
 * module, so a new one costs its registration and nothing else.
 */
import type { RunOwner } from "../orders/tenant/order-desk";

/** One module's stored work, as the Tenant's one alarm sees it. */
export interface StoredWork {
  /** When it next has work (epoch ms), or null when it has none. */
  dueAt(): number | null;
  /** Does what is due by `now` (epoch ms) for the tenant `owner`; safe to run twice. */
  runDue(now: number, owner: RunOwner): unknown;
}

/** A module whose only stored work is dropping what outlived its retention. */
export interface Retained {
  dueAt(): number | null;
  purge(now: number): void;
}

/** The stored work of a module that only purges: its purge, when due. */
export const purges = (module: Retained): StoredWork => ({
  dueAt: () => module.dueAt(),
  runDue: (now) => module.purge(now),
});

/** Every registered work of one Tenant, and its one alarm. */
export class StoredWorks {
  readonly #works: StoredWork[] = [];
  readonly #storage: DurableObjectStorage;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  /** Adds `works`, run in this order on each alarm. */
  register(...works: StoredWork[]): this {
    this.#works.push(...works);
    return this;
  }

  /** Sets the alarm to the earliest due time of every work, or clears it when none has any. */
  async arm(): Promise<void> {
    const due = this.#works.map((w) => w.dueAt()).filter((t): t is number => t !== null);
    await (due.length === 0
      ? this.#storage.deleteAlarm()
      : this.#storage.setAlarm(Math.min(...due)));
  }

  /**
   * Runs every work in the order registered (each does only what is due by `now`), then arms the
   * alarm again.
   */
  async runDue(now: number, owner: RunOwner): Promise<void> {
    for (const work of this.#works) await work.runDue(now, owner);
    await this.arm();
  }
}
