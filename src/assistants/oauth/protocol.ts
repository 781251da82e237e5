/**
 * @module
 * The authorization server's protocol endpoints (metadata, token, registration behind its caps),
 * served by the library, CORS preflight included. Declarations: `assistants/oauth/contract.ts`.
 */
import type { Context } from "hono";
import type { GatewayApp } from "../../kernel/app";
import { register } from "./registration";
import { Problem } from "../../kernel/problem";
import { authorizationServer, OAUTH_PATHS } from "./server";
import { gatewayRouter } from "../../kernel/routes/contract-kit";
import { oauthMetadata, oauthRegister, oauthToken } from "./contract";

/** Hono's execution context as the library types it: the same runtime object. */
const runtimeCtx = (c: Context<GatewayApp>) => c.executionCtx as unknown as ExecutionContext;

/**
 * The request, answered by the library (hence `never`): `test/kernel/openapi/answers.test.ts`
 * holds its answers to their declarations instead.
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

// A preflight, the library's (a bearer token is no ambient credential); any other method, 405.
// After the declared routes, so each answers only what they do not.
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
