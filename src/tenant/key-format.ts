/**
 * @module
 * Gateway keys: `lg_<environment>_<client>_<secret>`. A key names its tenant, so its object is
 * addressed without a lookup; the name is a claim until that object checks the secret.
 */
import type { Environment } from "../kernel/config";
import { randomSecret } from "../kernel/crypto";
import { tenantName, type TenantName } from "../kernel/stubs";

/** A new gateway key for a tenant (shown once, stored only as a hash). */
export function newGatewayKey(environment: Environment, client: string): string {
  return `lg_${environment}_${client}_${randomSecret(32)}`;
}

const KEY = /^lg_(demo|production)_([a-z0-9][a-z0-9-]{0,62})_([A-Za-z0-9_-]{43})$/;

/** The tenant a presented key claims (not yet authenticated), or null for a malformed key. */
export function claimedTenant(
  gatewayKey: string,
): { environment: Environment; client: string; name: TenantName } | null {
  const m = KEY.exec(gatewayKey);
  if (!m?.[1] || !m[2]) return null;
  const environment = m[1] === "demo" ? "demo" : "production";
  return { environment, client: m[2], name: tenantName(environment, m[2]) };
}
