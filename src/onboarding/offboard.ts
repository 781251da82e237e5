/**
 * @module
 * Offboarding: `DELETE /Offboarding/RemoveIntegration` for a tenant, before the operator removes it
 * (`removeTenant(…, { offboard: true })`). The call is the tenant's own (its token names the
 * client), so it goes through the one upstream client with the tenant's current registration as
 * the credential, the same way an order run calls: permit, token, one retry after a 401. The call
 * is a row of the tenant's request log (caller `console`, id `offboarding`): one that fails leaves
 * the tenant, and its row, for the operator to read; one that succeeds goes with the tenant.
 */
import { readConfig, type Bindings } from "../kernel/config";
import { unwrap } from "../kernel/outcome";
import { Problem } from "../kernel/problem";
import { asOperator, parseTenantName, type TenantName } from "../kernel/stubs";
import { loggedUpstream } from "../request-log/upstream";

/** How long offboarding may take, ms: one call, perhaps a token request and a wait for a permit. */
const OFFBOARD_DEADLINE_MS = 30_000;

/**
 * Removes the integration from the tenant's client upstream; throws a `Problem` when that did not
 * happen (the tenant is then left as it is). A client key the token endpoint refuses counts as
 * offboarded already: the API answers that way for an integration it no longer has on the client
 * (removed in the client's own settings, or by an earlier attempt whose answer was lost).
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
