/**
 * @module
 * Operator actions on tenants, between the admin routes and the Durable Objects: stubs by name,
 * the directory kept in step, and the objects' outcomes turned into problems.
 */
import type { AdminOutcome } from "../durable/tenant";
import type { GovernorCounters } from "../durable/rate-governor";
import { Environment, type Bindings } from "./config";
import { Problem } from "./problem";
import { tenantName } from "./tenant";

/** The tenant object of a client in an environment. */
export function tenantStub(env: Bindings, environment: Environment, client: string) {
  return env.TENANT.get(env.TENANT.idFromName(tenantName(environment, client)));
}

/** The directory of tenant names. */
export function directory(env: Bindings) {
  return env.DIRECTORY.get(env.DIRECTORY.idFromName("tenants"));
}

/** The value of an outcome, or the problem it stands for. */
export function unwrap<T>(outcome: AdminOutcome<T>): T {
  if (outcome.ok) return outcome.value;
  switch (outcome.problem) {
    case "conflict":
      throw new Problem("conflict", outcome.detail);
    case "not-found":
      throw new Problem("not-found", "No such tenant.");
    case "unprocessable":
      throw new Problem("unprocessable", `The token endpoint refused the client key: ${outcome.detail}. Nothing was stored.`);
    default:
      throw new Problem("unavailable", outcome.detail);
  }
}

/** Every tenant as operators see it, its own counters joined with the rate governor's. */
export async function listTenants(env: Bindings) {
  const names = await directory(env).list();
  const perEnvironment = await Promise.all(Environment.options.map((e) => env.RATE_GOVERNOR.get(env.RATE_GOVERNOR.idFromName(e)).counters()));
  const governed: Record<string, GovernorCounters> = Object.assign({}, ...perEnvironment);
  const described = await Promise.all(
    names.map(async (name) => {
      const [environment, client] = name.split(":") as [Environment, string];
      const d = await tenantStub(env, environment, client).describe();
      const g = governed[name] ?? { permits: 0, waited: 0, refused: 0 };
      return d && { ...d, counters: { ...d.counters, upstreamCalls: g.permits, throttledWaits: g.waited, refusedForDeadline: g.refused } };
    }),
  );
  return described.filter((d) => d !== null);
}
