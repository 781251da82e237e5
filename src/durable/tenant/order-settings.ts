/**
 * @module
 * What the tenant's order runs are configured with: each shop source's webhook secret (sealed,
 * bound to `webhook:<tenant>:<source>`, opened only here to verify a delivery), the order mapping,
 * and ids a run looked up once (a settlement account's id, the VatId of code 0).
 */
import { z } from "zod";
import { Sealed } from "../../lib/crypto";
import { OrderMappingInput, resolveMapping, type OrderMapping } from "../../lib/orders/mapping";
import type { Source } from "../../lib/orders/order";
import { SettlementIds } from "../../lib/orders/port";
import type { TenantName } from "../../lib/stubs";
import type { Sealer } from "./sealer";
import { jsonColumn, row } from "./sql";

/** The tables, created by the tenant's schema. */
export const ORDER_SETTINGS_TABLES = [
  "CREATE TABLE IF NOT EXISTS webhook_secrets (source TEXT PRIMARY KEY, sealed TEXT NOT NULL)",
  "CREATE TABLE IF NOT EXISTS order_mapping (id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL)",
  "CREATE TABLE IF NOT EXISTS settlement_ids (account_no INTEGER PRIMARY KEY, data TEXT NOT NULL)",
];

const SecretRow = z.object({ sealed: jsonColumn(Sealed) }).transform((r) => r.sealed);
const MappingRow = z.object({ data: jsonColumn(OrderMappingInput) }).transform((r) => r.data);
const IdsRow = z.object({ data: jsonColumn(SettlementIds) }).transform((r) => r.data);

const context = (tenant: TenantName, source: Source) => `webhook:${tenant}:${source}`;

export class OrderSettings {
  constructor(
    private readonly sql: SqlStorage,
    private readonly sealer: Sealer,
  ) {}

  /** Seals and stores a source's webhook secret; false when SECRETS_KEY is not configured. */
  async setSecret(tenant: TenantName, source: Source, secret: string): Promise<boolean> {
    const sealed = await this.sealer.seal(secret, context(tenant, source));
    if (!sealed) return false;
    this.sql.exec("INSERT OR REPLACE INTO webhook_secrets (source, sealed) VALUES (?, ?)", source, JSON.stringify(sealed));
    return true;
  }

  /** A source's webhook secret, or null when none is set (or it cannot be opened). */
  async secret(tenant: TenantName, source: Source): Promise<string | null> {
    const sealed = row(this.sql, SecretRow, "SELECT sealed FROM webhook_secrets WHERE source = ?", source);
    const opened = sealed && (await this.sealer.open(sealed, context(tenant, source)));
    if (!opened) return null;
    // SECRETS_KEY rotation: re-sealed under the current key the first time it is opened.
    if (opened.resealed) this.sql.exec("UPDATE webhook_secrets SET sealed = ? WHERE source = ?", JSON.stringify(opened.resealed), source);
    return opened.text;
  }

  /** Stores the mapping as the operator sent it; answers it with the defaults filled in. */
  setMapping(input: OrderMappingInput): OrderMapping {
    this.sql.exec("INSERT OR REPLACE INTO order_mapping (id, data) VALUES (1, ?)", JSON.stringify(input));
    return resolveMapping(input);
  }

  /** The mapping, defaults filled in. */
  mapping(): OrderMapping {
    return resolveMapping(row(this.sql, MappingRow, "SELECT data FROM order_mapping WHERE id = 1") ?? {});
  }

  /** The settlement ids remembered for an account number, or null. */
  settlementIds(accountNo: number): SettlementIds | null {
    return row(this.sql, IdsRow, "SELECT data FROM settlement_ids WHERE account_no = ?", accountNo);
  }

  /** Remembers an account number's settlement ids. */
  rememberSettlementIds(accountNo: number, ids: SettlementIds): void {
    this.sql.exec("INSERT OR REPLACE INTO settlement_ids (account_no, data) VALUES (?, ?)", accountNo, JSON.stringify(SettlementIds.parse(ids)));
  }

  /** Removes every secret, the mapping and the remembered ids. */
  clear(): void {
    for (const table of ["webhook_secrets", "order_mapping", "settlement_ids"]) this.sql.exec(`DELETE FROM ${table}`);
  }
}
