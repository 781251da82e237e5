/**
 * @module
 * What the tenant's order runs are configured with: each source's webhook secret (sealed, bound to
 * `webhook:<tenant>:<source>`, opened only here), the one it replaced during its grace period, the
 * order mapping, and each settlement account's ids. The shop binding is `shop-pins.ts`'s; a secret
 * of a source that names its shop is set through `webhook-setup.ts`.
 *
 * One previous secret is kept: Shopify and WooCommerce switch secrets on their own schedule, so
 * deliveries signed with the old one keep coming for a while. An outright setting drops it.
 */
import { z } from "zod";
import { Sealed } from "../../kernel/crypto";
import {
  ClearingBy,
  NEW_TENANT_DEFAULTS,
  OrderMappingInput,
  resolveMapping,
  type MappingDefaults,
  type OrderMapping,
} from "../../ledger/mapping";
import type { Source } from "../order";
import { fail, ok, type Outcome } from "../../kernel/outcome";
import { SettlementIds } from "../port";
import type { TenantName } from "../../kernel/stubs";
import type { Sealer } from "../../tenant/sealer";
import { deleteAll, jsonColumn, row } from "../../tenant/sql";

/** The tables as of step 5 of `schema.ts` (change them with a new step; later ones add columns). */
export const ORDER_SETTINGS_TABLES = [
  "CREATE TABLE IF NOT EXISTS webhook_secrets (source TEXT PRIMARY KEY, sealed TEXT NOT NULL)",
  "CREATE TABLE IF NOT EXISTS order_mapping (id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL)",
  "CREATE TABLE IF NOT EXISTS settlement_ids (account_no INTEGER PRIMARY KEY, data TEXT NOT NULL)",
  "CREATE TABLE IF NOT EXISTS webhook_previous_secrets (source TEXT PRIMARY KEY, sealed TEXT NOT NULL, retires_at INTEGER NOT NULL)",
  "CREATE TABLE IF NOT EXISTS webhook_shops (source TEXT PRIMARY KEY, shop TEXT NOT NULL)",
];

/**
 * Step 11 of `schema.ts`: a tenant from before payouts has one row (its paid orders settle to 1920
 * while its mapping names no account); any other has none and settles to clearing accounts. Step
 * 18 adds `clearing_by`, "source" for every tenant from before clearing by provider.
 */
export const MAPPING_DEFAULTS_TABLE =
  "CREATE TABLE IF NOT EXISTS mapping_defaults (id INTEGER PRIMARY KEY CHECK (id = 1), settlement_account INTEGER)";

/** How a secret is set: outright, or a rotation with `graceSeconds` of overlap; and its shop. */
export interface SecretOptions {
  graceSeconds?: number;
  shopDomain?: string;
}

/** What setting a secret answers: when the secret it replaced stops verifying, if one is kept. */
export interface SecretSet {
  previousSecretRetiresAt: string | null;
}

type SecretTable = "webhook_secrets" | "webhook_previous_secrets";

const SecretRow = z.object({ sealed: jsonColumn(Sealed) }).transform((r) => r.sealed);
const MappingRow = z.object({ data: jsonColumn(OrderMappingInput) }).transform((r) => r.data);
const IdsRow = z.object({ data: jsonColumn(SettlementIds) }).transform((r) => r.data);
const DefaultsRow = z
  .object({ settlement_account: z.int().nullable(), clearing_by: ClearingBy.nullable() })
  .transform((r): MappingDefaults => ({
    settlementAccount: r.settlement_account,
    clearingBy: r.clearing_by ?? NEW_TENANT_DEFAULTS.clearingBy,
  }));
const DueRow = z.object({ due: z.int().nullable() });

const context = (tenant: TenantName, source: Source) => `webhook:${tenant}:${source}`;

/** When a rotation's previous secret retires (epoch ms), or undefined for an outright setting. */
export const retiresAt = (opts: Pick<SecretOptions, "graceSeconds">, now: number) =>
  opts.graceSeconds === undefined ? undefined : now + opts.graceSeconds * 1000;

export class OrderSettings {
  constructor(
    private readonly sql: SqlStorage,
    private readonly sealer: Sealer,
  ) {}

  /** Seals and stores a source's secret (see `store`); false when SECRETS_KEY is not configured. */
  async setSecret(
    tenant: TenantName,
    source: Source,
    secret: string,
    previousRetiresAt?: number,
  ): Promise<boolean> {
    const sealed = await this.seal(tenant, source, secret);
    if (!sealed) return false;
    this.store(source, sealed, previousRetiresAt);
    return true;
  }

  /** Sets a source's secret (with `graceSeconds`, a rotation from `now`); shops: `WebhookSetup`. */
  async configure(
    tenant: TenantName,
    source: Source,
    secret: string,
    opts: Pick<SecretOptions, "graceSeconds">,
    now: number,
  ): Promise<Outcome<SecretSet>> {
    const sealed = await this.seal(tenant, source, secret);
    if (!sealed) return fail("misconfigured", "SECRETS_KEY is not configured.");
    return ok(this.store(source, sealed, retiresAt(opts, now)));
  }

  /** `secret` sealed for the source, nothing stored; null when SECRETS_KEY is not configured. */
  seal(tenant: TenantName, source: Source, secret: string): Promise<Sealed | null> {
    return this.sealer.seal(secret, context(tenant, source));
  }

  /**
   * Stores a sealed secret as the source's current one. With `previousRetiresAt` (epoch ms) the one
   * it replaces keeps verifying until then; without, it is dropped.
   */
  store(source: Source, sealed: Sealed, previousRetiresAt?: number): SecretSet {
    this.sql.exec("DELETE FROM webhook_previous_secrets WHERE source = ?", source);
    if (previousRetiresAt !== undefined) {
      this.sql.exec(
        "INSERT INTO webhook_previous_secrets (source, sealed, retires_at) SELECT source, sealed, ? FROM webhook_secrets WHERE source = ?",
        previousRetiresAt,
        source,
      );
    }
    this.sql.exec(
      "INSERT OR REPLACE INTO webhook_secrets (source, sealed, set_at) VALUES (?, ?, ?)",
      source,
      JSON.stringify(sealed),
      Date.now(),
    );
    const previous = this.previousRetiresAt(source);
    return {
      previousSecretRetiresAt: previous === null ? null : new Date(previous).toISOString(),
    };
  }

  /** Whether `source` has a secret, and when it was set (epoch ms, null if unrecorded). */
  secretSetAt(source: Source): { set: boolean; at: number | null } {
    const r = row(
      this.sql,
      z.object({ set_at: z.int().nullable() }),
      "SELECT set_at FROM webhook_secrets WHERE source = ?",
      source,
    );
    return { set: r !== null, at: r?.set_at ?? null };
  }

  /** A source's current webhook secret, or null when none is set (or it cannot be opened). */
  secret(tenant: TenantName, source: Source): Promise<string | null> {
    return this.#open(
      "webhook_secrets",
      tenant,
      source,
      row(this.sql, SecretRow, "SELECT sealed FROM webhook_secrets WHERE source = ?", source),
    );
  }

  /** The secrets a delivery may be signed with at `now`: the current, then the previous one. */
  async secrets(tenant: TenantName, source: Source, now: number): Promise<string[]> {
    const current = await this.secret(tenant, source);
    const sealed = row(
      this.sql,
      SecretRow,
      "SELECT sealed FROM webhook_previous_secrets WHERE source = ? AND retires_at > ?",
      source,
      now,
    );
    const previous = await this.#open("webhook_previous_secrets", tenant, source, sealed);
    return [current, previous].filter((s): s is string => s !== null);
  }

  previousRetiresAt(source: Source): number | null {
    return (
      row(
        this.sql,
        DueRow,
        "SELECT retires_at AS due FROM webhook_previous_secrets WHERE source = ?",
        source,
      )?.due ?? null
    );
  }

  /** When the earliest previous secret retires (epoch ms), for the alarm; null when none. */
  dueAt(): number | null {
    return (
      row(this.sql, DueRow, "SELECT MIN(retires_at) AS due FROM webhook_previous_secrets")?.due ??
      null
    );
  }

  /** Removes the previous secrets retired by `now` (epoch ms). */
  purge(now: number): void {
    this.sql.exec("DELETE FROM webhook_previous_secrets WHERE retires_at <= ?", now);
  }

  /** Stores the mapping as the operator sent it; answers it with the defaults filled in. */
  setMapping(input: OrderMappingInput): OrderMapping {
    this.sql.exec(
      "INSERT OR REPLACE INTO order_mapping (id, data) VALUES (1, ?)",
      JSON.stringify(input),
    );
    return resolveMapping(input, this.defaults());
  }

  mapping(): OrderMapping {
    return resolveMapping(
      row(this.sql, MappingRow, "SELECT data FROM order_mapping WHERE id = 1") ?? {},
      this.defaults(),
    );
  }

  /** The tenant's own defaults (`MAPPING_DEFAULTS_TABLE`). */
  defaults(): MappingDefaults {
    return (
      row(
        this.sql,
        DefaultsRow,
        "SELECT settlement_account, clearing_by FROM mapping_defaults WHERE id = 1",
      ) ?? NEW_TENANT_DEFAULTS
    );
  }

  settlementIds(accountNo: number): SettlementIds | null {
    return row(this.sql, IdsRow, "SELECT data FROM settlement_ids WHERE account_no = ?", accountNo);
  }

  rememberSettlementIds(accountNo: number, ids: SettlementIds): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO settlement_ids (account_no, data) VALUES (?, ?)",
      accountNo,
      JSON.stringify(SettlementIds.parse(ids)),
    );
  }

  /** Forgets every settlement account's ids (the client key was replaced); answers how many. */
  clearSettlementIds(): number {
    return deleteAll(this.sql, "settlement_ids");
  }

  /** Removes every secret, the mapping, the tenant's own defaults and the remembered ids. */
  clear(): void {
    for (const table of [
      "webhook_secrets",
      "webhook_previous_secrets",
      "order_mapping",
      "mapping_defaults",
      "settlement_ids",
    ])
      this.sql.exec(`DELETE FROM ${table}`);
  }

  /**
   * `sealed`, read from `table`, opened; re-sealed under a rotated SECRETS_KEY, unless the row
   * changed meanwhile (a seal's ciphertext is unique, so a newer secret is never overwritten).
   */
  async #open(
    table: SecretTable,
    tenant: TenantName,
    source: Source,
    sealed: Sealed | null,
  ): Promise<string | null> {
    const opened = sealed && (await this.sealer.open(sealed, context(tenant, source)));
    if (!opened) return null;
    if (opened.resealed)
      this.sql.exec(
        `UPDATE ${table} SET sealed = ? WHERE source = ? AND json_extract(sealed, '$.ct') = ?`,
        JSON.stringify(opened.resealed),
        source,
        sealed.ct,
      );
    return opened.text;
  }
}
