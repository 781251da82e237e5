/**
 * @module
 * The Tenant's stored work, registered once: each module with due rows reports when it next needs
 * the object, and the object keeps the one alarm at the earliest of them, running each in the order
 * registered. See docs/design/faces.md.
 */
import type { RunOwner } from "../orders/tenant/order-desk";

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

export const purges = (module: Retained): StoredWork => ({
  dueAt: () => module.dueAt(),
  runDue: (now) => module.purge(now),
});

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

  /** Runs every work in the order registered, then arms the alarm again. */
  async runDue(now: number, owner: RunOwner): Promise<void> {
    for (const work of this.#works) await work.runDue(now, owner);
    await this.arm();
  }
}
