/**
 * @module
 * Operator actions that span more than one object: registering and removing a tenant keeps the
 * directory of names in step with the tenant's own object, and the listing joins each tenant's
 * description with its environment's rate-governor counters.
 */
import type { GovernorCounters } from "../durable/rate-governor";
import { Environment, type Bindings } from "./config";
import { unwrap } from "./outcome";
import { directoryStub, governorStub, parseTenantName, tenantName, tenantStub, type TenantName } from "./stubs";

/** Registers a tenant (its object checks the client key first) and lists it; answers the new gateway key. */
export async function registerTenant(env: Bindings, input: { environment: Environment; client: string; name: string; clientKey: string }) {
  const name = tenantName(input.environment, input.client);
  const { gatewayKey } = unwrap(await tenantStub(env, name).register(input));
  await directoryStub(env).add(name);
  return { tenant: name, gatewayKey };
}

/** Removes a tenant's object's data and its name from the directory. */
export async function removeTenant(env: Bindings, name: TenantName): Promise<void> {
  unwrap(await tenantStub(env, name).remove());
  await directoryStub(env).remove(name);
}

/** Every tenant as operators see it, its own counters joined with the rate governor's. */
export async function listTenants(env: Bindings) {
  const names = await directoryStub(env).list();
  const perEnvironment = await Promise.all(Environment.options.map((e) => governorStub(env, e).counters()));
  const governed: Record<string, GovernorCounters> = Object.assign({}, ...perEnvironment);
  const described = await Promise.all(
    names.map(async (name) => {
      const parsed = parseTenantName(name);
      const d = parsed.ok ? await tenantStub(env, tenantName(parsed.value.environment, parsed.value.client)).describe() : null;
      const g = governed[name] ?? { permits: 0, waited: 0, refused: 0 };
      return d && { ...d, counters: { ...d.counters, upstreamCalls: g.permits, throttledWaits: g.waited, refusedForDeadline: g.refused } };
    }),
  );
  return described.filter((d) => d !== null);
}
