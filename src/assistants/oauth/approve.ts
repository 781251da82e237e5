/**
 * @module
 * The approval of an assistant's connection: `beginApproval` checks the client's request (PKCE S256
 * of every client) and begins a single-use consent bound to this browser; the route proves the
 * person may act for a tenant; `completeApproval` makes the grant and records it in the tenant's
 * object (or `denyApproval`). Nothing here sees a gateway key. See docs/design/faces.md.
 */
import {
  authorizationErrorRedirect,
  AuthorizationError,
  CimdFetchError,
  type AuthRequest,
  type ConsentDescription,
} from "@cloudflare/workers-oauth-provider";
import type { GrantView } from "../tenant/assistant-grants";
import type { NewGrant } from "../tenant/assistant-grants";
import type { Bindings } from "../../kernel/config";
import { ENDPOINT_SCOPES, Scope, allows, type McpEndpoint } from "../mcp/principal";
import type { Outcome } from "../../kernel/outcome";
import { directoryStub, type TenantName } from "../../kernel/stubs";
import { GRANT_LIFETIMES, grantUserId, newGrantId, type GrantProps, type Lifetime } from "./grants";
import { revokeGrantRecords } from "./revoke";
import { authorizationServer, endpointOf, OAUTH_PATHS } from "./server";

/** What the approval page shows and offers. */
export interface ApprovalFacts {
  /** The client's facts, from the authorization server (the name is the client's own claim). */
  consent: ConsentDescription;
  endpoint: McpEndpoint;
  ceiling: Scope;
  /** The scope the page offers first: the widest the client asked for within the ceiling. */
  suggested: Scope;
  handle: string;
  /** The client's request as its query string (no secret in it), to show the page again. */
  request: string;
}

export type Begun =
  | { kind: "page"; facts: ApprovalFacts; headers: Headers }
  | { kind: "redirect"; location: string }
  | { kind: "refused"; message: string };

export type Completed =
  { kind: "redirect"; response: Response } | { kind: "refused"; message: string };

/** PKCE with S256, required of every client: a secret proves who redeems a code, not who asked. */
const hasPkce = (r: AuthRequest) => !!r.codeChallenge && r.codeChallengeMethod === "S256";

const NO_PKCE =
  "PKCE is required of every client: send code_challenge with code_challenge_method S256.";

const EXPIRED =
  "The assistant's registration ended before it was approved (an unapproved registration lasts a few hours, and the oldest make way when many are waiting). Nothing was approved: connect again from the assistant, which registers anew.";

const STALE =
  "This approval page expired, was already used, or was opened in another browser. Nothing was approved: start connecting again from the assistant.";

/**
 * Begins approving the authorization request `query` (of `GET /oauth/authorize`) at `origin`.
 * @example const begun = await beginApproval(c.env, origin, new URL(c.req.url).search)
 */
export async function beginApproval(env: Bindings, origin: string, query: string): Promise<Begun> {
  const oauth = authorizationServer(origin).getOAuthApi(env);
  const search = query.startsWith("?") ? query.slice(1) : query;
  let request: AuthRequest;
  let consent: ConsentDescription;
  try {
    request = await oauth.parseAuthRequest(
      new Request(`${origin}${OAUTH_PATHS.authorize}?${search}`),
    );
    consent = await oauth.describeConsent(request);
  } catch (e) {
    // Only a request whose client and exact redirect URI were validated may be sent back.
    if (e instanceof AuthorizationError)
      return e.redirectTo
        ? { kind: "redirect", location: e.redirectTo }
        : {
            kind: "refused",
            message: `The assistant's request cannot be approved: ${e.description}`,
          };
    if (e instanceof CimdFetchError)
      return {
        kind: "refused",
        message:
          "The assistant's client metadata document could not be fetched or is not valid, so the assistant cannot be verified. Nothing was approved.",
      };
    throw e;
  }
  // The client and its redirect URI were validated: the refusal goes back to it, as the library's.
  if (!hasPkce(request))
    return {
      kind: "redirect",
      location: authorizationErrorRedirect(request, "invalid_request", NO_PKCE),
    };
  const endpoint = endpointOf(origin, request.resource);
  if (!endpoint)
    return { kind: "refused", message: "The request names no MCP endpoint of this gateway." };
  const ceiling = ENDPOINT_SCOPES[endpoint];
  const asked = Scope.options.filter((s) => request.scope.includes(s) && allows(ceiling, s));
  const transaction = await oauth.beginConsent(request);
  return {
    kind: "page",
    facts: {
      consent,
      endpoint,
      ceiling,
      suggested: asked.at(-1) ?? "read",
      handle: transaction.handle,
      request: search,
    },
    headers: transaction.headers,
  };
}

/** What completing an approval takes besides the browser's request. */
export interface Approval {
  handle: string;
  tenant: TenantName;
  scope: Scope;
  lifetime: Lifetime;
  /** Who approved, for the grant's row: `key:<hash prefix>` or `operator`. */
  approvedBy: string;
  /** Records the grant in the tenant's object, through the approver's own face. */
  record(grant: NewGrant): Promise<Outcome<GrantView>>;
}

/** Completes an approval made in the browser that sent `req` (its cookie must match the handle). */
export async function completeApproval(
  env: Bindings,
  origin: string,
  req: Request,
  a: Approval,
): Promise<Completed> {
  const oauth = authorizationServer(origin).getOAuthApi(env);
  let approved;
  try {
    approved = await oauth.approveConsent(req, a.handle, { scope: [a.scope] });
  } catch (e) {
    if (e instanceof AuthorizationError) return { kind: "refused", message: STALE };
    throw e;
  }
  // Checked again, so no other way to a consent can make a code without PKCE.
  if (!hasPkce(approved.request))
    return { kind: "refused", message: `${NO_PKCE} Nothing was approved.` };
  const endpoint = endpointOf(origin, approved.request.resource);
  // The page offers no more than the endpoint allows; a form that asks for more was not ours.
  if (!endpoint || !allows(ENDPOINT_SCOPES[endpoint], a.scope))
    return {
      kind: "refused",
      message: `The endpoint allows at most ${endpoint ? ENDPOINT_SCOPES[endpoint] : "nothing"}; nothing was approved.`,
    };
  // Before the grant exists, so no grant outlives its client by our doing.
  if (!(await directoryStub(env).useRegistration(approved.request.clientId)))
    return { kind: "refused", message: EXPIRED };
  const consent = await oauth.describeConsent(approved.request);
  const id = newGrantId();
  const expiresAt = Date.now() + GRANT_LIFETIMES[a.lifetime].seconds * 1000;
  const props: GrantProps = { tenant: a.tenant, grant: id, expiresAt };
  const { redirectTo } = await oauth.completeAuthorization({
    request: approved.request,
    userId: grantUserId(a.tenant),
    metadata: { grant: id },
    scope: [a.scope],
    props,
    // claude.ai's client is the same for every person: replacing its grant cuts off a colleague.
    revokeExistingGrants: false,
  });
  const recorded = await a.record({
    id,
    clientId: approved.request.clientId.slice(0, 2000),
    clientName: consent.clientName.slice(0, 200) || "(unnamed)",
    redirectHost: consent.redirectHost.slice(0, 255),
    scope: a.scope,
    approvedBy: a.approvedBy,
    expiresAt,
  });
  if (!recorded.ok) {
    // The grant is inert without its row (the door refuses it); its KV records go too.
    await revokeGrantRecords(env, origin, a.tenant, id);
    return { kind: "refused", message: `${recorded.error.detail} Nothing was approved.` };
  }
  approved.headers.set("location", redirectTo);
  return {
    kind: "redirect",
    response: new Response(null, { status: 302, headers: approved.headers }),
  };
}

/** Declines: the handle is consumed, the browser sent back to the client with `access_denied`. */
export async function denyApproval(
  env: Bindings,
  origin: string,
  req: Request,
  handle: string,
): Promise<Completed> {
  try {
    const denied = await authorizationServer(origin).getOAuthApi(env).denyConsent(req, handle);
    return {
      kind: "redirect",
      response: new Response(null, { status: 302, headers: denied.headers }),
    };
  } catch (e) {
    if (e instanceof AuthorizationError) return { kind: "refused", message: STALE };
    throw e;
  }
}
