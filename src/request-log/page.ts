/**
 * @module
 * One page of a tenant's request log for the operator, admin route and console alike.
 */
import { readConfig, type Bindings, type Environment } from "../kernel/config";
import { unwrap } from "../kernel/outcome";
import { asOperator, tenantName } from "../kernel/stubs";
import { readApiClient } from "./api-client";
import { pageSize, requestPage, statusFilter } from "./view";
import type { CallerKind } from "./tenant-rows";

/** The filters as the routes validated them (`RequestsQuery`). */
export interface RequestsAsk {
  status?: string | undefined;
  limit?: string | undefined;
  before?: string | undefined;
  caller?: CallerKind | undefined;
}

/**
 * @throws Problem `not-found` for no such tenant
 * @example const page = await requestLogPage(env, "demo", "acme", { status: "4xx" });
 */
export async function requestLogPage(
  env: Bindings,
  environment: Environment,
  client: string,
  q: RequestsAsk,
) {
  const name = tenantName(environment, client);
  const config = readConfig(env);
  const limit = pageSize(q.limit);
  const before = q.before === undefined ? null : Number(q.before);
  const page = unwrap(
    await asOperator(env, name, (f) =>
      f.requests(statusFilter(q.status), limit, before, q.caller ?? "callers"),
    ),
  );
  let apiClient = page.apiClient;
  if (apiClient === null && page.rows.length > 0) {
    const read = await readApiClient(env, environment, name, page.registrationId);
    // Shown only once stored: a read the key's replacement overtook may name the old company.
    if (read && unwrap(await asOperator(env, name, (f) => f.keepApiClient(page.clientKeyId, read))))
      apiClient = read;
  }
  const api = config.environments[environment];
  return {
    ...requestPage(page.rows, limit, {
      tenant: name,
      apiBaseUrl: api.ok ? api.config.apiBaseUrl : "",
      apiClient,
      stripeBaseUrl: config.stripeApiBaseUrl,
    }),
    recording: config.requestLog,
  };
}
