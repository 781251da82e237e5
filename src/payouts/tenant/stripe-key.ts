/**
 * @module
 * The tenant's Stripe key, sealed like the client key with `stripe:<tenant>` bound as additional
 * data, so it opens as nothing else. Opened only for a payout run, never answered. It outlives a
 * replaced client key: it is the shop's key to Stripe, not to the books.
 */
import { z } from "zod";
import { Sealed } from "../../kernel/crypto";
import { StripeMode, type StripeMode as Mode } from "../stripe/key";
import type { TenantName } from "../../kernel/stubs";
import type { Sealer } from "../../tenant/sealer";
import { jsonColumn, row } from "../../tenant/sql";

/** Step 13 of `schema.ts`: one row, or none. */
export const STRIPE_KEY_TABLES = [
  `CREATE TABLE IF NOT EXISTS stripe_key (id INTEGER PRIMARY KEY CHECK (id = 1), sealed TEXT NOT NULL,
    mode TEXT NOT NULL, set_at INTEGER NOT NULL)`,
];

/** Whether a key is set, its mode and when; never the key. */
export interface StripeKeyStatus {
  set: boolean;
  mode: Mode | null;
  setAt: string | null;
}

const KeyRow = z.object({ sealed: jsonColumn(Sealed), mode: StripeMode, set_at: z.int() });

const context = (tenant: TenantName) => `stripe:${tenant}`;

export class StripeKeys {
  constructor(
    private readonly sql: SqlStorage,
    private readonly sealer: Sealer,
  ) {}

  /** Seals and stores `key`; false when SECRETS_KEY is not configured. */
  async set(tenant: TenantName, key: string, mode: Mode, now: number): Promise<boolean> {
    const sealed = await this.sealer.seal(key, context(tenant));
    if (!sealed) return false;
    this.sql.exec(
      "INSERT OR REPLACE INTO stripe_key (id, sealed, mode, set_at) VALUES (1, ?, ?, ?)",
      JSON.stringify(sealed),
      mode,
      now,
    );
    return true;
  }

  /** The key, opened (null: none, or none opens it); resealed if under the previous SECRETS_KEY. */
  async open(tenant: TenantName): Promise<string | null> {
    const r = this.#row();
    return r && this.sealer.openStored(this.sql, "stripe_key", r.sealed, context(tenant));
  }

  status(): StripeKeyStatus {
    const r = this.#row();
    return r
      ? { set: true, mode: r.mode, setAt: new Date(r.set_at).toISOString() }
      : { set: false, mode: null, setAt: null };
  }

  /** Forgets the key; true when there was one. */
  clear(): boolean {
    const had = this.#row() !== null;
    this.sql.exec("DELETE FROM stripe_key");
    return had;
  }

  #row() {
    return row(this.sql, KeyRow, "SELECT sealed, mode, set_at FROM stripe_key WHERE id = 1");
  }
}
