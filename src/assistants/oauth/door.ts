/**
 * @module
 * An OAuth access token at the MCP door, turned into a principal as a key is: validated for this
 * endpoint's resource, its sealed props naming tenant and grant, and the tenant's object's word on
 * whether the grant is live, which counts even while KV still holds the token.
 */
import type { McpAuth } from "../../kernel/app";
import type { Bindings } from "../../kernel/config";
import type { McpEndpoint } from "../mcp/principal";
import { fail, ok, type Outcome } from "../../kernel/outcome";
import { asGrantHolder, parseTenantName } from "../../kernel/stubs";
import { GrantProps, grantUserId } from "./grants";
import { authorizationServer, mcpResource } from "./server";

/** The one detail of every refused token: which check failed is never told. */
const REFUSED =
  "The access token is not valid for this endpoint (expired, revoked, or issued for another): refresh it, or connect the assistant again.";

/**
 * Whom `token` authenticates at `endpoint`, or `unauthorized` (`unavailable` when KV failed).
 * @example const auth = await grantOfToken(c.env, origin, "/mcp", token)
 */
export async function grantOfToken(
  env: Bindings,
  origin: string,
  endpoint: McpEndpoint,
  token: string,
): Promise<Outcome<McpAuth>> {
  let validated;
  try {
    validated = await authorizationServer(origin).validateToken(
      mcpResource(origin, endpoint),
      token,
      env,
    );
  } catch {
    return fail(
      "unavailable",
      "The gateway could not check the access token; try again shortly.",
      5,
    );
  }
  if (!validated) return fail("unauthorized", REFUSED);
  const props = GrantProps.safeParse(validated.props);
  if (!props.success || validated.userId !== grantUserId(props.data.tenant))
    return fail("unauthorized", REFUSED);
  const { tenant, grant } = props.data;
  const name = parseTenantName(tenant);
  if (!name.ok) return fail("unauthorized", REFUSED);
  const used = await asGrantHolder(env, { tenant, grant }, (f) => f.use());
  if (!used.ok) return fail("unauthorized", REFUSED);
  return ok({
    holder: { grant, tenant, environment: name.value.environment },
    principalId: `grant:${grant}`,
    granted: used.value.scope,
  });
}
