/**
 * @module
 * A tenant as the operator sees it (`GET /admin/tenants`), never a secret: `tenantView` picks each
 * field by name, so nothing reaches the answer that the published schema does not declare.
 */
import { z } from "zod";
import type { GovernorCounters } from "../upstream/rate-governor";
import { Environment } from "../kernel/config";
import { ConnectionView } from "../upstream/tenant/connection";

const TokenState = z.discriminatedUnion("state", [
  z.strictObject({ state: z.literal("valid"), expiresAt: z.string() }),
  z.strictObject({ state: z.literal("rejected"), reason: z.string() }),
  z.strictObject({ state: z.literal("none") }),
]);

const Counters = z.strictObject({
  tokensIssued: z.int(),
  tokenWaits: z.int().meta({ description: "Callers that waited for a token request." }),
  keyChecks: z.int(),
  upstreamCalls: z.int().meta({ description: "Permits the rate governor gave the tenant." }),
  throttledWaits: z.int(),
  refusedForDeadline: z.int(),
});

/** Counters kept with the tenant (`request-log/tenant-rows.ts`): they survive restarts. */
const CallCounters = z.strictObject({
  upstreamCalls: z.int().meta({ description: "Attempts sent to the API (retries included)." }),
  waits: z.int().meta({ description: "Calls that waited for a permit." }),
  refusals: z.int().meta({ description: "Calls the gateway answered with no answer of the API." }),
  since: z.string().meta({ description: "When these counters started counting." }),
});

export const TenantView = z.strictObject({
  tenant: z.string(),
  environment: Environment,
  client: z.string(),
  name: z.string(),
  createdAt: z.string(),
  token: TokenState,
  connection: ConnectionView,
  lastError: z.string().nullable(),
  counters: Counters,
  callCounters: CallCounters,
  gatewayKeys: z.array(z.strictObject({ createdAt: z.string(), retiresAt: z.string().nullable() })),
  storageBytes: z.int().meta({
    description:
      "The tenant object's SQLite database, bytes: what its tables hold, bounded by their purges.",
  }),
});
export type TenantView = z.output<typeof TenantView>;

/** What the tenant's object describes of itself (`Tenant.describe()`): the view's own part. */
export type TenantDescription = Omit<TenantView, "counters"> & {
  counters: Pick<TenantView["counters"], "tokensIssued" | "tokenWaits" | "keyChecks">;
};

/** The operator's view: the tenant's description joined with its rate governor's counters. */
export function tenantView(d: TenantDescription, g: GovernorCounters): TenantView {
  return {
    tenant: d.tenant,
    environment: d.environment,
    client: d.client,
    name: d.name,
    createdAt: d.createdAt,
    token: d.token,
    connection: d.connection,
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
    storageBytes: d.storageBytes,
  };
}
