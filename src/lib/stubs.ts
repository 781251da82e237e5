/**
 * @module
 * The one place that addresses Durable Objects. Tenant names are built and parsed here only; every
 * caller that reaches a tenant's object comes through `tenantStub`, with a name derived from an
 * authenticated gateway key, a verified webhook route, an operator's path, or a run the tenant's
 * own object started.
 */
import { z } from "zod";
import type { Bindings } from "./config";
import { Environment } from "./config";
import type { OrderRunPort } from "./orders/port";
import type { Result } from "./result";

/**
 * A client slug: lowercase letters, digits and dashes (no underscore: it separates a gateway key's
 * parts).
 */
export const ClientSlug = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,62}$/,
    "must be 1-63 lowercase letters, digits or dashes, starting with a letter or digit",
  );

/** `demo:acme`: the unit of isolation. */
export type TenantName = `${Environment}:${string}`;

/** The tenant name of a client in an environment. */
export function tenantName(environment: Environment, client: string): TenantName {
  return `${environment}:${client}`;
}

/**
 * The parts of a tenant name, or why it is not one.
 *
 * @example parseTenantName("demo:acme") // { ok: true, value: { environment: "demo", client: "acme" } }
 */
export function parseTenantName(
  name: string,
): Result<{ environment: Environment; client: string }, string> {
  const [environment, client, ...rest] = name.split(":");
  const e = Environment.safeParse(environment);
  const c = ClientSlug.safeParse(client);
  if (!e.success || !c.success || rest.length > 0)
    return { ok: false, error: `not a tenant name: ${JSON.stringify(name)}` };
  return { ok: true, value: { environment: e.data, client: c.data } };
}

/** The tenant's object. */
export function tenantStub(env: Bindings, name: TenantName) {
  return env.TENANT.get(env.TENANT.idFromName(name));
}

/** The tenant's object as an order run sees it (`Tenant implements OrderRunPort`). */
export function orderRunPort(env: Bindings, name: TenantName): OrderRunPort {
  return tenantStub(env, name);
}

/** The rate governor of an environment (one per subscription key). */
export function governorStub(env: Bindings, environment: Environment) {
  return env.RATE_GOVERNOR.get(env.RATE_GOVERNOR.idFromName(environment));
}

/** The directory of tenant names. */
export function directoryStub(env: Bindings) {
  return env.DIRECTORY.get(env.DIRECTORY.idFromName("tenants"));
}
