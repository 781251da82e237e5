/**
 * @module
 * An OAuth access token at the MCP door, turned into the same kind of principal a gateway key
 * gives (`assistants/mcp-key.ts`): the authorization server validates the token for the endpoint's
 * own resource (its audience must be this endpoint; expired, revoked or unknown tokens fail), its
 * sealed props name the tenant and the grant, and the tenant's object says whether the grant is
 * still live and with which scope. The object's word is the one that counts: a grant revoked in the
 * console is refused at the next request even while KV, which is eventually consistent, still holds
 * its token.
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
 * Whom `token` authenticates at `endpoint` of the gateway at `origin`, or why not (`unauthorized`,
 * or `unavailable` when the authorization server's storage could not be read).
 *
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
