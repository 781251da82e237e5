/**
 * @module
 * Offboarding: `DELETE /Offboarding/RemoveIntegration` as the tenant, before the operator removes
 * it, through the one upstream client as an order run calls. A call that fails leaves the tenant,
 * and its request-log row, for the operator to read.
 */
import { readConfig, type Bindings } from "../kernel/config";
import { unwrap } from "../kernel/outcome";
import { Problem } from "../kernel/problem";
import { asOperator, parseTenantName, type TenantName } from "../kernel/stubs";
import { loggedUpstream } from "../request-log/upstream";

/** How long offboarding may take, ms: a call, perhaps a token request and a permit's wait. */
const OFFBOARD_DEADLINE_MS = 30_000;

/**
 * Removes the integration upstream, or throws a `Problem`. A client key the token endpoint refuses
 * counts as offboarded: that is how the API answers once the client no longer has the integration.
 */
export async function offboardTenant(env: Bindings, name: TenantName): Promise<void> {
  const parsed = parseTenantName(name);
  if (!parsed.ok) throw new Problem("not-found", "No such tenant.");
  const registration = unwrap(await asOperator(env, name, (face) => face.registrationId()));
  const config = readConfig(env).environments[parsed.value.environment];
  if (!config.ok) throw new Problem("unavailable", config.detail);
  let res: Response;
  try {
    res = await loggedUpstream(
      {
        env,
        environment: parsed.value.environment,
        config: config.config,
        tenant: name,
        credential: { registration },
      },
      {
        method: "DELETE",
        path: "/Offboarding/RemoveIntegration",
        search: "",
        headers: new Headers({ "user-agent": "ledgergate" }),
        body: null,
        deadline: Date.now() + OFFBOARD_DEADLINE_MS,
      },
      { kind: "console", id: "offboarding" },
    );
  } catch (e) {
    if (e instanceof Problem && e.type === "credentials-rejected") return;
    throw e;
  }
  await res.body?.cancel();
  if (res.ok) return;
  throw new Problem(
    "upstream-failed",
    `The accounting API answered HTTP ${res.status} to DELETE /Offboarding/RemoveIntegration, so the tenant was kept. Try again, or remove it without offboard=true.`,
  );
}
