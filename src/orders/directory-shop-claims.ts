/**
 * @module
 * The cross-tenant index of shop bindings: which tenant holds which (source, secret, shop). Two
 * tenants may share a Shopify app's secret, never on the same shop, where a delivery would verify
 * at both. Only the secret's SHA-256 is kept. `claim` is one synchronous read and write in the
 * directory, so of two tenants claiming the same pair at once, exactly one gets it.
 */
import { z } from "zod";

/**
 * The table as of step 5 of `tenant/directory-schema.ts` (change it with a new step): a row per
 * live (secret, shop) of a tenant's source, a rotation's previous secret included.
 */
export const SHOP_CLAIMS_TABLES = [
  `CREATE TABLE IF NOT EXISTS shop_claims (source TEXT NOT NULL, fingerprint TEXT NOT NULL, shop TEXT NOT NULL,
    tenant TEXT NOT NULL, PRIMARY KEY (source, fingerprint, shop))`,
  "CREATE INDEX IF NOT EXISTS shop_claims_tenant ON shop_claims (tenant, source)",
];

/** A secret (by its SHA-256, hex) on a shop. */
export interface SecretOnShop {
  fingerprint: string;
  shop: string;
}

/** What a tenant claims for one source: its new secret and shop, and what it still holds. */
export interface ShopClaim extends SecretOnShop {
  tenant: string;
  source: string;
  /** The pairs the tenant keeps besides (a rotation's previous secret): recorded, not checked. */
  held: SecretOnShop[];
}

/** A claim's answer: taken, or held by another tenant (named: the operator runs both). */
export type ClaimAnswer = { ok: true } | { ok: false; tenant: string };

const TenantRow = z.object({ tenant: z.string() });

export class ShopClaims {
  constructor(private readonly sql: SqlStorage) {}

  /** Records `c` as the tenant's claims for its source; refused if another tenant has the pair. */
  claim(c: ShopClaim): ClaimAnswer {
    const raw = this.sql
      .exec(
        "SELECT tenant FROM shop_claims WHERE source = ? AND fingerprint = ? AND shop = ? AND tenant <> ?",
        c.source,
        c.fingerprint,
        c.shop,
        c.tenant,
      )
      .toArray()[0];
    if (raw !== undefined) return { ok: false, tenant: TenantRow.parse(raw).tenant };
    this.sql.exec("DELETE FROM shop_claims WHERE tenant = ? AND source = ?", c.tenant, c.source);
    this.sql.exec(
      "INSERT OR REPLACE INTO shop_claims (source, fingerprint, shop, tenant) VALUES (?, ?, ?, ?)",
      c.source,
      c.fingerprint,
      c.shop,
      c.tenant,
    );
    // Never taken from another tenant: a pair someone else holds stays theirs.
    for (const h of c.held)
      this.sql.exec(
        "INSERT OR IGNORE INTO shop_claims (source, fingerprint, shop, tenant) VALUES (?, ?, ?, ?)",
        c.source,
        h.fingerprint,
        h.shop,
        c.tenant,
      );
    return { ok: true };
  }

  /** Drops every claim of `tenant` (it is removed). */
  release(tenant: string): void {
    this.sql.exec("DELETE FROM shop_claims WHERE tenant = ?", tenant);
  }
}
