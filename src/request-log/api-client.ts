/**
 * @module
 * The client as the API names it, for the support bundle: the API's provider asks for the client id
 * (never the client key), and only `GET /ClientIntegrationInformation` answers it (`ClientId`,
 * `ClientName`). The gateway knows the client by the operator's slug until then.
 *
 * When it is read, and why then: once, lazily, the first time a support bundle is built for the
 * tenant (its request log listed with at least one call), then stored with the registration until
 * the client key is replaced (`tenant/registration.ts`). Each read is one call of the shared
 * 10 req/s budget; at registration every tenant would pay it (onboarding registers a whole batch
 * at once, each tenant another permit beside its token request) although most never need support,
 * and tenants registered before the id was stored would still need this lazy read. A read that
 * fails (no permit in time, the key refused) stores nothing, and the next listing tries again: at
 * most one call per listing, each an operator's page view. The read is a row of the tenant's
 * request log like the operator's other calls (caller `console`, id `client-id`).
 */
import { z } from "zod";
import { readCapped } from "../../shared/bytes";
import type { ApiClient } from "../tenant/registration";
import { readConfig, type Bindings, type Environment } from "../kernel/config";
import { Problem } from "../kernel/problem";
import type { TenantName } from "../kernel/stubs";
import { loggedUpstream } from "./upstream";

/** How long the read may take, ms, a wait for a permit included: an operator is at the page. */
const CLIENT_ID_READ_DEADLINE_MS = 5_000;
/** The answer's size read at most, bytes: the DTO is a few hundred bytes of names and privileges. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** The fields of `ClientIntegrationInformationDto` the bundle needs; the rest is not kept. */
const Information = z.object({
  ClientId: z
    .union([z.string().min(1).max(200), z.number()])
    .transform(String)
    .pipe(z.string().min(1).max(200)),
  ClientName: z
    .string()
    .nullish()
    .transform((n) => n?.slice(0, 200) ?? null),
});

/**
 * Reads the client's id and name from the API as the tenant `name` (its current registration, like
 * offboarding); null when it cannot be read. Never throws: a support bundle without the id is
 * still a bundle.
 *
 * @example const client = await readApiClient(env, "demo", "demo:acme", registrationId);
 */
export async function readApiClient(
  env: Bindings,
  environment: Environment,
  name: TenantName,
  registration: string,
): Promise<ApiClient | null> {
  const config = readConfig(env).environments[environment];
  if (!config.ok) return null;
  try {
    const res = await loggedUpstream(
      { env, environment, config: config.config, tenant: name, credential: { registration } },
      {
        method: "GET",
        path: "/ClientIntegrationInformation",
        search: "",
        headers: new Headers({ accept: "application/json", "user-agent": "ledgergate" }),
        body: null,
        deadline: Date.now() + CLIENT_ID_READ_DEADLINE_MS,
      },
      { kind: "console", id: "client-id" },
    );
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel();
      return null;
    }
    const bytes = await readCapped(res.body, MAX_ANSWER_BYTES);
    if (!bytes) return null;
    const parsed = Information.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    return parsed.success ? { id: parsed.data.ClientId, name: parsed.data.ClientName } : null;
  } catch (e) {
    // A gateway problem (no token, no permit, timeout) or an answer that is not JSON.
    if (e instanceof Problem || e instanceof SyntaxError) return null;
    throw e;
  }
}
