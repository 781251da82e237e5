/**
 * @module
 * The notice that a webhook endpoint was disabled, as a row of the tenant's request log (caller
 * `events`). The URL's host only: a path or query can hold a receiver's token.
 */
import type { LoggedCall } from "../request-log/tenant-rows";
import type { Bindings } from "../kernel/config";
import { log } from "../kernel/log";
import { recordCall } from "../request-log/record";
import type { TenantName } from "../kernel/stubs";

/** The request-log row of an endpoint disabled at `at`. */
export function disabledNotice(
  endpoint: { id: string; url: string },
  reason: string,
  lastStatus: number | null,
  at: number,
): LoggedCall {
  const host = URL.canParse(endpoint.url) ? new URL(endpoint.url).host : "?";
  return {
    requestId: crypto.randomUUID(),
    at,
    method: "POST",
    path: `/events/endpoints/${endpoint.id}`,
    query: [],
    status: lastStatus ?? 502,
    apiStatus: null,
    apiError: `Webhook endpoint ${endpoint.id} (${host}) ${reason.charAt(0).toLowerCase()}${reason.slice(1)} Enable it again with PATCH /events/endpoints/${endpoint.id} {"enabled": true}, then replay what it missed.`,
    attempts: 0,
    waitedMs: 0,
    durationMs: 0,
    caller: { kind: "events", id: endpoint.id },
    body: null,
  };
}

/** Writes the notice to `tenant`'s request log and the Worker's log; never throws. */
export async function noticeDisabled(
  env: Bindings,
  tenant: TenantName,
  endpoint: { id: string; url: string },
  reason: string,
  lastStatus: number | null,
): Promise<void> {
  log.warn("event-endpoint-disabled", { tenant, endpoint: endpoint.id, reason, lastStatus });
  await recordCall(env, tenant, disabledNotice(endpoint, reason, lastStatus, Date.now()));
}
