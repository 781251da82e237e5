/**
 * @module
 * The tenant's Vipps MobilePay sales-unit keys, sealed as one JSON text with `vipps:<tenant>` bound
 * as additional data, beside what is not secret: the merchant serial number, whose orders Vipps's
 * references name and with what prefix, and the first ledger date to read. Opened only for a read
 * of Vipps's ledgers, never answered. Like the Stripe key it outlives a replaced client key.
 */
import { z } from "zod";
import { Sealed } from "../../kernel/crypto";
import type { TenantName } from "../../kernel/stubs";
import { Source } from "../../orders/order";
import type { Sealer } from "../../tenant/sealer";
import { jsonColumn, row } from "../../tenant/sql";
import type { VippsKeys } from "../vipps/client";

/** Step 19 of `schema.ts` (with the reader's tables, `vipps-book.ts`): one row, or none. */
export const VIPPS_KEY_TABLES = [
  `CREATE TABLE IF NOT EXISTS vipps_keys (id INTEGER PRIMARY KEY CHECK (id = 1), sealed TEXT NOT NULL,
    msn TEXT NOT NULL, order_source TEXT NOT NULL, reference_prefix TEXT NOT NULL, since TEXT NOT NULL,
    set_at INTEGER NOT NULL)`,
];

/** What is read with the keys; none of it secret. */
export const VippsSettings = z.object({
  merchantSerialNumber: z.string(),
  /** The shop whose orders Vipps's `reference`s name. */
  orderSource: Source.exclude(["stripe"]),
  /** What the shop puts before its order id in a Vipps payment's reference (`Woo-` …). */
  referencePrefix: z.string(),
  /** The first ledger date read. */
  since: z.iso.date(),
});
export type VippsSettings = z.output<typeof VippsSettings>;

/** Whether keys are set, with their settings and when; never the keys. */
export interface VippsKeyStatus {
  set: boolean;
  settings: VippsSettings | null;
  setAt: string | null;
}

const KeyRow = z.object({
  sealed: jsonColumn(Sealed),
  msn: z.string(),
  order_source: VippsSettings.shape.orderSource,
  reference_prefix: z.string(),
  since: z.iso.date(),
  set_at: z.int(),
});

const Secrets = z.object({
  clientId: z.string(),
  clientSecret: z.string(),
  subscriptionKey: z.string(),
});
export type VippsSecrets = z.output<typeof Secrets>;

const context = (tenant: TenantName) => `vipps:${tenant}`;

export class VippsKeyStore {
  constructor(
    private readonly sql: SqlStorage,
    private readonly sealer: Sealer,
  ) {}

  /** Seals and stores the keys; false when SECRETS_KEY is not configured. */
  async set(tenant: TenantName, secrets: VippsSecrets, s: VippsSettings, now: number) {
    const sealed = await this.sealer.seal(JSON.stringify(secrets), context(tenant));
    if (!sealed) return false;
    this.sql.exec(
      `INSERT OR REPLACE INTO vipps_keys (id, sealed, msn, order_source, reference_prefix, since, set_at)
       VALUES (1, ?, ?, ?, ?, ?, ?)`,
      JSON.stringify(sealed),
      s.merchantSerialNumber,
      s.orderSource,
      s.referencePrefix,
      s.since,
      now,
    );
    return true;
  }

  /** The keys, opened, with the settings (null: none, or none opens them). */
  async open(tenant: TenantName): Promise<{ keys: VippsKeys; settings: VippsSettings } | null> {
    const r = this.#row();
    const text =
      r && (await this.sealer.openStored(this.sql, "vipps_keys", r.sealed, context(tenant)));
    if (!r || text === null) return null;
    const secrets = Secrets.parse(JSON.parse(text));
    const settings = settingsOf(r);
    return { keys: { ...secrets, merchantSerialNumber: r.msn }, settings };
  }

  settings(): VippsSettings | null {
    const r = this.#row();
    return r && settingsOf(r);
  }

  status(): VippsKeyStatus {
    const r = this.#row();
    return r
      ? { set: true, settings: settingsOf(r), setAt: new Date(r.set_at).toISOString() }
      : { set: false, settings: null, setAt: null };
  }

  /** Forgets the keys; true when there were some. */
  clear(): boolean {
    const had = this.#row() !== null;
    this.sql.exec("DELETE FROM vipps_keys");
    return had;
  }

  #row() {
    return row(
      this.sql,
      KeyRow,
      "SELECT sealed, msn, order_source, reference_prefix, since, set_at FROM vipps_keys WHERE id = 1",
    );
  }
}

function settingsOf(r: z.output<typeof KeyRow>): VippsSettings {
  return {
    merchantSerialNumber: r.msn,
    orderSource: r.order_source,
    referencePrefix: r.reference_prefix,
    since: r.since,
  };
}
