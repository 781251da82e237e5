/**
 * @module
 * The authorization server's protocol endpoints, served by the library
 * (`assistants/oauth/server.ts`): its metadata (RFC 8414), the token endpoint (codes, refresh,
 * revocation) and dynamic client registration behind its caps (`assistants/oauth/registration.ts`).
 * Each declared method is a route of `/openapi.json`; a CORS preflight is the library's too, so a
 * browser-based client (the MCP Inspector) can reach them. Declarations:
 * `assistants/oauth/contract.ts`.
 */
import type { Context } from "hono";
import type { GatewayApp } from "../../kernel/app";
import { register } from "./registration";
import { Problem } from "../../kernel/problem";
import { authorizationServer, OAUTH_PATHS } from "./server";
import { gatewayRouter } from "../../kernel/routes/contract-kit";
import { oauthMetadata, oauthRegister, oauthToken } from "./contract";

/**
 * Hono's execution context as the library's type names it (the same object: the runtime's
 * `ExecutionContext`; Hono declares a narrower interface of its own).
 */
const runtimeCtx = (c: Context<GatewayApp>) => c.executionCtx as unknown as ExecutionContext;

/**
 * The request, answered by the library. Its JSON is the library's to shape, so the route's answer
 * type cannot see it here (hence `never`); `test/kernel/openapi/answers.test.ts` holds every answer
 * of these routes to their declarations instead.
 */
const served = (c: Context<GatewayApp>) =>
  authorizationServer(new URL(c.req.url).origin).fetch(
    c.req.raw,
    c.env,
    runtimeCtx(c),
  ) as Promise<never>;

const router = gatewayRouter();

export const oauthProtocolRoutes = router
  .openapi(oauthMetadata, served)
  .openapi(oauthToken, served)
  .openapi(oauthRegister, (c) => register(c.env, runtimeCtx(c), c.req.raw) as Promise<never>);

// A browser client's preflight, answered by the library (its CORS reflects the origin: a bearer
// token is no ambient credential); any other method, the gateway's 405. After the declared routes,
// so each answers only what they do not. Not routes of /openapi.json.
for (const [path, allow] of [
  [OAUTH_PATHS.metadata, "GET"],
  [OAUTH_PATHS.token, "POST"],
  [OAUTH_PATHS.register, "POST"],
] as const)
  router.all(path, (c) => {
    if (c.req.method === "OPTIONS") return served(c);
    throw new Problem("method-not-allowed", `${path} takes ${allow}.`, {
      headers: { allow: `${allow}, OPTIONS` },
    });
  });
