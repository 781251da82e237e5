/**
 * @module
 * A tenant as the operator sees it (`GET /admin/tenants`): its registration, its token's state and
 * its counters, never a secret. The schema is the one `/openapi.json` publishes, and `tenantView`
 * picks each field by name, so nothing reaches the answer that the schema does not declare.
 */
import { z } from "zod";
import type { GovernorCounters } from "../upstream/rate-governor";
import { Environment } from "../kernel/config";

/** The token's state: valid until `expiresAt`, refused by the token endpoint, or none yet. */
const TokenState = z.discriminatedUnion("state", [
  z.strictObject({ state: z.literal("valid"), expiresAt: z.string() }),
  z.strictObject({ state: z.literal("rejected"), reason: z.string() }),
  z.strictObject({ state: z.literal("none") }),
]);

/** The tenant's own counters and its share of its environment's rate governor. */
const Counters = z.strictObject({
  tokensIssued: z.int(),
  tokenWaits: z.int().meta({ description: "Callers that waited for a token request." }),
  keyChecks: z.int(),
  upstreamCalls: z.int().meta({ description: "Permits the rate governor gave the tenant." }),
  throttledWaits: z.int(),
  refusedForDeadline: z.int(),
});

/**
 * Counters kept with the tenant (`request-log/tenant-rows.ts`): unlike the governor's above,
 * they survive the objects' idling and restarts, and say since when they count.
 */
const CallCounters = z.strictObject({
  upstreamCalls: z.int().meta({ description: "Attempts sent to the API (retries included)." }),
  waits: z.int().meta({ description: "Calls that waited for a permit." }),
  refusals: z.int().meta({ description: "Calls the gateway answered with no answer of the API." }),
  since: z.string().meta({ description: "When these counters started counting." }),
});

/** A tenant as operators see it: never a secret. */
export const TenantView = z.strictObject({
  tenant: z.string(),
  environment: Environment,
  client: z.string(),
  name: z.string(),
  createdAt: z.string(),
  token: TokenState,
  lastError: z.string().nullable(),
  counters: Counters,
  callCounters: CallCounters,
  gatewayKeys: z.array(z.strictObject({ createdAt: z.string(), retiresAt: z.string().nullable() })),
});
export type TenantView = z.output<typeof TenantView>;

/** What the tenant's object describes of itself (`Tenant.describe()`): the view's own part. */
export type TenantDescription = Omit<TenantView, "counters"> & {
  counters: Pick<TenantView["counters"], "tokensIssued" | "tokenWaits" | "keyChecks">;
};

/**
 * The operator's view of a tenant: its description joined with the rate governor's counters.
 *
 * @param d what the tenant's object describes
 * @param g the tenant's counters in its environment's rate governor
 * @returns exactly the fields of `TenantView`
 */
export function tenantView(d: TenantDescription, g: GovernorCounters): TenantView {
  return {
    tenant: d.tenant,
    environment: d.environment,
    client: d.client,
    name: d.name,
    createdAt: d.createdAt,
    token: d.token,
    lastError: d.lastError,
    counters: {
      tokensIssued: d.counters.tokensIssued,
      tokenWaits: d.counters.tokenWaits,
      keyChecks: d.counters.keyChecks,
      upstreamCalls: g.permits,
      throttledWaits: g.waited,
      refusedForDeadline: g.refused,
    },
    callCounters: d.callCounters,
    gatewayKeys: d.gatewayKeys,
  };
}
