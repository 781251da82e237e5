/**
 * @module The gateway's and API v2's OpenAPI documents and `/docs`, with no credential. Mounted
 * before `/v2`, so its document is not taken for an API call.
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

/** The scripts change only with a deploy, and the page asks for them on every load. */
const SCRIPT_MAX_AGE_SECONDS = 3600;

const SCRIPT_HEADERS = {
  "content-type": "text/javascript; charset=utf-8",
  "cache-control": `public, max-age=${SCRIPT_MAX_AGE_SECONDS}`,
  "x-content-type-options": "nosniff",
};

const INIT_SCRIPT = referenceInitScript(
  referenceConfig([
    { title: "ledgergate", slug: "ledgergate", url: gatewayOpenApi.path },
    { title: "API v2 through ledgergate", slug: "v2", url: v2OpenApi.path },
  ]),
);
const PAGE = referencePageHtml({ bundle: docsScript.path, init: docsInit.path });

/**
 * The documents and the page for `app`; the v2 document is built on first use, kept per isolate.
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
