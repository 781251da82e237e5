/**
 * @module
 * Tenant names and gateway keys, in one place. A gateway key names its tenant
 * (`lg_<environment>_<client>_<secret>`), so the gateway can address the tenant's Durable Object
 * without a lookup; the object then authenticates the secret against the hash it stores. Nothing is
 * served before that check, and no other input ever yields a tenant name.
 */
import { z } from "zod";
import type { Environment } from "./config";
import { randomSecret } from "./crypto";

/** A client slug: lowercase letters, digits and dashes (no underscore: it separates key parts). */
export const ClientSlug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "must be 1-63 lowercase letters, digits or dashes, starting with a letter or digit");

/** `demo:acme`: the unit of isolation. */
export type TenantName = `${Environment}:${string}`;

/** The tenant name of a client in an environment. */
export function tenantName(environment: Environment, client: string): TenantName {
  return `${environment}:${client}`;
}

/** A new gateway key for a tenant (shown once, stored only as a hash). */
export function newGatewayKey(environment: Environment, client: string): string {
  return `lg_${environment}_${client}_${randomSecret(32)}`;
}

const KEY = /^lg_(demo|production)_([a-z0-9][a-z0-9-]{0,62})_([A-Za-z0-9_-]{43})$/;

/** The tenant a presented key claims, or null when it is not shaped like a gateway key. Not yet authenticated. */
export function claimedTenant(gatewayKey: string): { environment: Environment; client: string; name: TenantName } | null {
  const m = KEY.exec(gatewayKey);
  if (!m?.[1] || !m[2]) return null;
  const environment = m[1] as Environment;
  return { environment, client: m[2], name: tenantName(environment, m[2]) };
}
