/**
 * @module
 * The tenant's Stripe key (a restricted key, `payouts/stripe/key.ts`), for its payout runs to read
 * Stripe's ledger of a payout. Sealed like the client key: AES-256-GCM under `SECRETS_KEY` by the
 * same `Sealer`, a fresh IV per seal, the tenant's name bound as additional data
 * (`stripe:<tenant>`, so it opens neither as another tenant's key nor as this tenant's client key
 * or token). One row, or none. Stored beside it in the clear: the key's mode (test or live, which
 * the key itself says) and when it was set, which the operator sees; never a part of the key.
 *
 * Opened only for a payout run (`RunFace.stripeKey`), never answered to an operator or a key
 * holder. It outlives a replaced client key: it is the shop's key to Stripe, not a key to the
 * books.
 */
import { z } from "zod";
import { Sealed } from "../../kernel/crypto";
import { StripeMode, type StripeMode as Mode } from "../stripe/key";
import type { TenantName } from "../../kernel/stubs";
import type { Sealer } from "../../tenant/sealer";
import { jsonColumn, row } from "../../tenant/sql";

/** Step 13 of `schema.ts`: the key's one row. */
export const STRIPE_KEY_TABLES = [
  `CREATE TABLE IF NOT EXISTS stripe_key (id INTEGER PRIMARY KEY CHECK (id = 1), sealed TEXT NOT NULL,
    mode TEXT NOT NULL, set_at INTEGER NOT NULL)`,
];

/** Whether a key is set, its mode and when (ISO time); never the key. */
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

  /** Seals and stores `key` (replacing any); false when SECRETS_KEY is not configured. */
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

  /**
   * The key, opened; null when none is set or no configured key opens it. One sealed under the
   * previous SECRETS_KEY is stored again under the current one.
   */
  async open(tenant: TenantName): Promise<string | null> {
    const r = this.#row();
    if (!r) return null;
    const opened = await this.sealer.open(r.sealed, context(tenant));
    if (!opened) return null;
    if (opened.resealed)
      this.sql.exec(
        "UPDATE stripe_key SET sealed = ? WHERE id = 1 AND sealed = ?",
        JSON.stringify(opened.resealed),
        JSON.stringify(r.sealed),
      );
    return opened.text;
  }

  /** Whether a key is set, and its mode and time. */
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
