/**
 * @module
 * Operator actions that span objects: the directory of names kept in step with the tenant's own
 * object, and the listing joined with the rate governors' counters.
 */
import type { GovernorCounters } from "../upstream/rate-governor";
import { Environment, type Bindings } from "../kernel/config";
import { revokeGrantRecords } from "../assistants/oauth/revoke";
import { offboardTenant } from "../onboarding/offboard";
import { ok, unwrap, type Outcome } from "../kernel/outcome";
import {
  directoryStub,
  eventsStub,
  governorStub,
  asOperator,
  parseTenantName,
  tenantName,
  type TenantName,
} from "../kernel/stubs";
import { tenantView, type TenantView } from "./view";

export interface NewTenant {
  environment: Environment;
  client: string;
  name: string;
  clientKey: string;
}

/** Registers a tenant (its object checks the client key first) and lists it. */
export async function tryRegisterTenant(
  env: Bindings,
  input: NewTenant,
): Promise<Outcome<{ tenant: TenantName; gatewayKey: string }>> {
  const name = tenantName(input.environment, input.client);
  const registered = await asOperator(env, name, (face) => face.register(input));
  if (!registered.ok) return registered;
  await directoryStub(env).add(name);
  return ok({ tenant: name, gatewayKey: registered.value.gatewayKey });
}

/** `tryRegisterTenant`, its failure thrown as a `Problem`. */
export async function registerTenant(env: Bindings, input: NewTenant) {
  return unwrap(await tryRegisterTenant(env, input));
}

/**
 * Removes a tenant's data, events, name and OAuth grants (KV records best effort). With `offboard`,
 * first ends the integration upstream; if that fails, nothing is removed.
 * @param origin the gateway's origin, for the authorization server's records
 */
export async function removeTenant(
  env: Bindings,
  name: TenantName,
  { offboard = false, origin }: { offboard?: boolean; origin: string },
): Promise<void> {
  if (offboard) await offboardTenant(env, name);
  unwrap(await asOperator(env, name, (face) => face.remove()));
  await eventsStub(env, name).clear();
  await directoryStub(env).remove(name);
  await revokeGrantRecords(env, origin, name, null);
}

/**
 * Replaces a tenant's client key (checked first) and forgets what was kept of the old books,
 * its books' events too (the endpoints and `tenant.*` events stay). Answers what was cleared.
 */
export async function replaceClientKey(env: Bindings, name: TenantName, clientKey: string) {
  const replaced = unwrap(await asOperator(env, name, (face) => face.replaceClientKey(clientKey)));
  const { events } = await eventsStub(env, name).forgetBooks();
  return { cleared: { ...replaced.cleared, events } };
}

export async function listTenants(env: Bindings): Promise<TenantView[]> {
  const names = await directoryStub(env).list();
  const perEnvironment = await Promise.all(
    Environment.options.map((e) => governorStub(env, e).counters()),
  );
  const governed: Record<string, GovernorCounters> = Object.assign({}, ...perEnvironment);
  const described = await Promise.all(
    names.map(async (name) => {
      const parsed = parseTenantName(name);
      const d = parsed.ok
        ? await asOperator(env, tenantName(parsed.value.environment, parsed.value.client), (face) =>
            face.describe(),
          )
        : null;
      return d && tenantView(d, governed[name] ?? { permits: 0, waited: 0, refused: 0 });
    }),
  );
  return described.filter((d) => d !== null);
}
