/**
 * @module
 * The search's routes: the admin API's (operator token) and the console's page (session), both
 * over `searchAll`.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { GatewayApp } from "../kernel/app";
import { gatewayRouter } from "../kernel/routes/contract-kit";
import { requireAdmin } from "../tenant/door/admin-auth";
import { html } from "../console/render";
import type { ConsoleRouter } from "../console/router";
import { search, searchPage } from "./contract";
import { SearchPage } from "./console-page";
import { searchAll } from "./search";

const router = gatewayRouter();
router.use("*", requireAdmin);

export const adminSearchRoutes: OpenAPIHono<GatewayApp> = router.openapi(search, async (c) => {
  const { q } = c.req.valid("query");
  return c.json({ query: q, ...(await searchAll(c.env, q)) }, 200);
});

/** Binds the console's search page to `router`. */
export function searchRoutes(router: ConsoleRouter) {
  return router.openapi(searchPage, async (c) => {
    const { q } = c.req.valid("query");
    const found = await searchAll(c.env, q);
    return html(c, <SearchPage csrf={c.var.console.csrf} query={q} {...found} />);
  });
}
