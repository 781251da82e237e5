/**
 * @module
 * The door of the MCP endpoints, before the MCP handler reads a byte of the body: `mcpOrigin()`
 * (a browser page only from an allowed host: DNS rebinding), then `mcpKey()`, a gateway key or an
 * OAuth access token turned into `c.var.mcpAuth`. A refusal's 401 names the endpoint's
 * protected-resource document (RFC 9728); failures are counted per credential, never per tenant or
 * address. See docs/design/faces.md.
 */
import type { Context, MiddlewareHandler } from "hono";
import { localhostAllowedOrigins, originValidationResponse } from "@modelcontextprotocol/server";
import type { GatewayApp, McpAuth } from "../kernel/app";
import { claimedTenant } from "../tenant/key-format";
import type { McpEndpoint } from "./mcp/principal";
import { grantOfToken } from "./oauth/door";
import { claimedByToken } from "./oauth/grants";
import { problemOf, type Outcome } from "../kernel/outcome";
import { Problem } from "../kernel/problem";
import { keyId } from "../request-log/record";
import { sha256Hex } from "../kernel/crypto";
import { BlockedAddresses } from "../upstream/rate/blocked-addresses";
import { asKeyHolder } from "../kernel/stubs";
import { bearer } from "../tenant/door/admin-auth";
import {
  countCredentialFailure,
  INBOUND_LIMIT_PERIOD_SECONDS,
  tooMany,
} from "../tenant/door/inbound-limit";

/** The well-known path of an endpoint's protected-resource document (RFC 9728 §3.1). */
export function resourceMetadataPath(endpoint: string): string {
  return `/.well-known/oauth-protected-resource${endpoint}`;
}

const endpointOf = (c: Context<GatewayApp>) => new URL(c.req.url).pathname.replace(/\/+$/, "");

/**
 * The `WWW-Authenticate` challenge of an MCP endpoint: where its protected-resource document is,
 * and for a key that was presented and refused, `error="invalid_token"` (RFC 6750 §3.1).
 */
export function mcpChallenge(c: Context<GatewayApp>, presented: boolean): string {
  const url = new URL(c.req.url);
  const metadata = `${url.origin}${resourceMetadataPath(endpointOf(c))}`;
  return `Bearer resource_metadata="${metadata}"${presented ? ', error="invalid_token"' : ""}`;
}

export function allowedOrigins(c: Context<GatewayApp>): string[] {
  return [
    new URL(c.req.url).hostname,
    ...localhostAllowedOrigins(),
    ...c.var.config.mcpAllowedOrigins,
  ];
}

/**
 * Refuses a browser page of another site: 403 with a JSON-RPC error, as the MCP SDK's own check.
 * @example router.use("/mcp", mcpOrigin())
 */
export function mcpOrigin(): MiddlewareHandler<GatewayApp> {
  return async function mcpOrigin(c, next) {
    const refused = originValidationResponse(c.req.raw, allowedOrigins(c));
    if (refused) return refused;
    await next();
  };
}

/** Read by whoever sets the MCP client up, not by its assistant, which can send no header. */
const NONE =
  "No credential. Set the MCP client up to send a gateway key as Authorization: Bearer <gateway key>, or to connect with OAuth (docs/mcp.md says how for each client).";

/**
 * Sets `c.var.mcpAuth` from a gateway key or OAuth access token, or answers the MCP 401. One per
 * endpoint: a token for `/mcp/readonly` sent once to `/mcp` still works at `/mcp/readonly`. No
 * credential counts nowhere; a failed one is remembered and counted by its hash alone.
 * @example createRoute({ …, middleware: [mcpOrigin(), mcpKey()] })
 */
export function mcpKey(failed = new BlockedAddresses()): MiddlewareHandler<GatewayApp> {
  return async function mcpKey(c, next) {
    const credential = bearer(c.req.header("authorization"));
    const refuse = (detail: string) =>
      new Problem("unauthorized", detail, {
        headers: { "www-authenticate": mcpChallenge(c, credential !== null) },
      });
    if (credential === null) throw refuse(NONE);
    // With nothing remembered nothing is refused, so a valid credential is not hashed for it.
    let id = failed.empty ? null : await sha256Hex(credential);
    if (id !== null && failed.secondsLeft(id, Date.now()) > 0)
      throw await counted(c, id, refuse(REFUSED_AGAIN));
    const found = await authenticate(c, credential);
    if (!found) throw await failure(refuse(NONE));
    if (!found.ok) {
      const problem = problemOf(found.error);
      throw problem.type === "unauthorized" ? await failure(refuse(problem.detail)) : problem;
    }
    c.set("mcpAuth", found.value);
    await next();

    async function failure(p: Problem): Promise<Problem> {
      id ??= await sha256Hex(credential ?? "");
      failed.block(id, INBOUND_LIMIT_PERIOD_SECONDS * 1000, Date.now());
      return counted(c, id, p);
    }
  };
}

const REFUSED_AGAIN =
  "The credential was refused in the last minute and still is: the MCP client needs a fresh access token, or a valid gateway key in its setup.";

/** `refusal`, or the 429 (still with the challenge) once the credential `id` is over the limit. */
async function counted(c: Context<GatewayApp>, id: string, refusal: Problem): Promise<Problem> {
  if (!(await countCredentialFailure(c, id))) return refusal;
  const challenge = refusal.extra.headers?.["www-authenticate"] ?? mcpChallenge(c, true);
  return tooMany(INBOUND_LIMIT_PERIOD_SECONDS, "credential", { "www-authenticate": challenge });
}

/** Whom `credential` authenticates at this endpoint; null when it is neither a key nor a token. */
async function authenticate(
  c: Context<GatewayApp>,
  credential: string,
): Promise<Outcome<McpAuth> | null> {
  const claimed = claimedTenant(credential);
  if (claimed) return keyAuth(c, credential, claimed);
  if (!claimedByToken(credential)) return null;
  const origin = new URL(c.req.url).origin;
  return grantOfToken(c.env, origin, endpointOf(c) as McpEndpoint, credential);
}

async function keyAuth(
  c: Context<GatewayApp>,
  key: string,
  claimed: NonNullable<ReturnType<typeof claimedTenant>>,
): Promise<Outcome<McpAuth>> {
  const caller = { key, tenant: claimed.name, environment: claimed.environment };
  const access = await c.var.accessCache.access(caller.tenant, key, () =>
    asKeyHolder(c.env, caller, (f) => f.access()),
  );
  return access.ok
    ? { ok: true, value: { holder: caller, principalId: `key:${await keyId(key)}`, granted: null } }
    : access;
}
