/**
 * @module
 * The client id the API's support asks for (`GET /ClientIntegrationInformation`). Read lazily for
 * the first support bundle and kept until the client key is replaced: at registration it would
 * spend a permit for every tenant, most never needing support. A failed read stores nothing.
 */
import { z } from "zod";
import { readCapped } from "../../shared/bytes";
import type { ApiClient } from "../tenant/registration";
import { readConfig, type Bindings, type Environment } from "../kernel/config";
import { Problem } from "../kernel/problem";
import type { TenantName } from "../kernel/stubs";
import { loggedUpstream } from "./upstream";

/** How long the read may take, ms, a permit's wait included: an operator is at the page. */
const CLIENT_ID_READ_DEADLINE_MS = 5_000;
/** The answer read at most, bytes: the DTO is a few hundred bytes. */
const MAX_ANSWER_BYTES = 64 * 1024;

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
 * The client's id and name as the tenant `name` reads them; null when they cannot be read.
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
    if (e instanceof Problem || e instanceof SyntaxError) return null;
    throw e;
  }
}
