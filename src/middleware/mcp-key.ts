/**
 * @module
 * The door of the MCP endpoints (`/mcp`, `/mcp/draft`, `/mcp/readonly`): the request's Origin, then
 * its gateway key, before the MCP handler reads a byte of the body.
 *
 * - `mcpOrigin()`: a browser page may call only from the gateway's own host, localhost, or a host
 *   the operator lists (`MCP_ALLOWED_ORIGINS`); any other Origin is the specification's 403 (DNS
 *   rebinding, cross-site requests). Clients that are not browsers send no Origin and pass.
 * - `mcpKey()`: `Authorization: Bearer <gateway key>`, authenticated as `/v2` authenticates it (the
 *   isolate's `AccessCache`, else the tenant's object). A refusal is a 401 whose
 *   `WWW-Authenticate` names the endpoint's protected-resource document (RFC 9728,
 *   `/.well-known/oauth-protected-resource/<endpoint>`), so an OAuth-capable client can find out how
 *   to connect; failures are limited per key and per claimed tenant (`limitFailedKeys(…,
 *   "tenant")`), never per address.
 */
import type { Context, MiddlewareHandler } from "hono";
import { localhostAllowedOrigins, originValidationResponse } from "@modelcontextprotocol/server";
import type { GatewayApp } from "../lib/app";
import { claimedTenant } from "../lib/gateway-key";
import { problemOf } from "../lib/outcome";
import { Problem } from "../lib/problem";
import { asKeyHolder } from "../lib/stubs";
import { bearer } from "./admin-auth";

/** The well-known path of an endpoint's protected-resource document (RFC 9728 §3.1). */
export function resourceMetadataPath(endpoint: string): string {
  return `/.well-known/oauth-protected-resource${endpoint}`;
}

/** The endpoint a request came to: its path without a trailing slash. */
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

/** The hostnames whose pages may call the MCP endpoints. */
export function allowedOrigins(c: Context<GatewayApp>): string[] {
  return [
    new URL(c.req.url).hostname,
    ...localhostAllowedOrigins(),
    ...c.var.config.mcpAllowedOrigins,
  ];
}

/**
 * Refuses a request from a browser page of another site: 403 with a JSON-RPC error, as the MCP
 * SDK's own check answers.
 *
 * @example router.use("/mcp", mcpOrigin())
 */
export function mcpOrigin(): MiddlewareHandler<GatewayApp> {
  return async function mcpOrigin(c, next) {
    const refused = originValidationResponse(c.req.raw, allowedOrigins(c));
    if (refused) return refused;
    await next();
  };
}

/**
 * Sets `c.var.caller` from an authenticated gateway key, or answers the MCP 401.
 *
 * @example createRoute({ …, middleware: [mcpOrigin(), mcpKey()] })
 */
export function mcpKey(): MiddlewareHandler<GatewayApp> {
  return async function mcpKey(c, next) {
    const key = bearer(c.req.header("authorization"));
    const claimed = key ? claimedTenant(key) : null;
    const refuse = (detail: string) =>
      new Problem("unauthorized", detail, {
        headers: { "www-authenticate": mcpChallenge(c, key !== null) },
      });
    if (!key || !claimed)
      throw refuse(
        "Send a gateway key as Authorization: Bearer <gateway key> (docs/mcp.md says how for each client).",
      );
    const caller = { key, tenant: claimed.name, environment: claimed.environment };
    const access = await c.var.accessCache.access(caller.tenant, key, () =>
      asKeyHolder(c.env, caller, (f) => f.access()),
    );
    if (!access.ok) {
      const problem = problemOf(access.error);
      throw problem.type === "unauthorized" ? refuse(problem.detail) : problem;
    }
    c.set("caller", caller);
    await next();
  };
}
