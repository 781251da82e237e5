/**
 * @module
 * The gateway's contract, served: `/openapi.json` (its own routes, from their declarations),
 * `/v2/openapi.json` (API v2 through the gateway, from the catalog) and `/docs`, an interactive
 * reference of both. No credential. Mounted before `/v2`, so its document is not taken for an API
 * call.
 *
 * The page is Scalar's API reference: its bundle from `@scalar/api-reference`'s standalone build,
 * imported as text and served here, its start script and HTML from
 * `kernel/openapi/reference-page.ts`. Nothing is loaded from another origin, and the page's CSP
 * would block it if it were.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import scalarScript from "@scalar/api-reference/browser/standalone.js";
import type { GatewayApp } from "../app";
import { gatewayDocument } from "../openapi/gateway-document";
import {
  REFERENCE_PAGE_HEADERS,
  referenceConfig,
  referenceInitScript,
  referencePageHtml,
} from "../openapi/reference-page";
import { v2Document } from "../../v2/openapi/document";
import { gatewayRouter } from "./contract-kit";
import { docsInit, docsPage, docsScript, gatewayOpenApi, v2OpenApi } from "./docs-contract";

/**
 * How long browsers may keep the scripts, s: they change only with a deploy, and the page asks for
 * them on every load.
 */
const SCRIPT_MAX_AGE_SECONDS = 3600;

const SCRIPT_HEADERS = {
  "content-type": "text/javascript; charset=utf-8",
  "cache-control": `public, max-age=${SCRIPT_MAX_AGE_SECONDS}`,
  "x-content-type-options": "nosniff",
};

/** The start script and the page: the same for every request, so built once per isolate. */
const INIT_SCRIPT = referenceInitScript(
  referenceConfig([
    { title: "ledgergate", slug: "ledgergate", url: gatewayOpenApi.path },
    { title: "API v2 through ledgergate", slug: "v2", url: v2OpenApi.path },
  ]),
);
const PAGE = referencePageHtml({ bundle: docsScript.path, init: docsInit.path });

/**
 * The documents and the page for `app` (the whole gateway, whose declared routes `/openapi.json`
 * lists as mounted when it is asked). One router per isolate: the v2 document, built from the
 * catalog on first use, is kept for the isolate's life (it changes only with a deploy).
 *
 * @example app.route("/", docsRoutes(app))
 */
export function docsRoutes(app: OpenAPIHono<GatewayApp>) {
  let v2: ReturnType<typeof v2Document> | null = null;
  const router = gatewayRouter()
    .openapi(gatewayOpenApi, (c) => c.json(gatewayDocument(app, c.var.config.version), 200))
    .openapi(v2OpenApi, (c) => c.json((v2 ??= v2Document(c.var.config.version)), 200))
    .openapi(docsScript, (c) => c.body(scalarScript, 200, SCRIPT_HEADERS))
    .openapi(docsInit, (c) => c.body(INIT_SCRIPT, 200, SCRIPT_HEADERS));
  router.openAPIRegistry.registerPath(docsPage);
  return router.get(docsPage.getRoutingPath(), (c) => c.html(PAGE, 200, REFERENCE_PAGE_HEADERS));
}
