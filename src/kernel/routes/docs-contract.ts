/** @module The documents and the reference page: no credential, they never describe a tenant. */
import { createRoute, z } from "@hono/zod-openapi";
import { problems } from "../openapi/problems";
import { htmlPage, jsonAnswer, tagged, textAnswer } from "./contract-kit";

const Document = z
  .record(z.string(), z.unknown())
  .openapi({ description: "An OpenAPI 3.1 document." });
const meta = tagged("meta", null);
const javascript = { 200: textAnswer("JavaScript.", "text/javascript"), ...problems() };

export const gatewayOpenApi = createRoute({
  ...meta.get,
  path: "/openapi.json",
  operationId: "getGatewayOpenApi",
  summary: "This document: ledgergate's own routes",
  responses: { 200: jsonAnswer("OpenAPI 3.1 of ledgergate's routes.", Document), ...problems() },
});

export const v2OpenApi = createRoute({
  ...meta.get,
  path: "/v2/openapi.json",
  operationId: "getV2OpenApi",
  summary: "API v2 as seen through ledgergate",
  description:
    "Every catalog operation with its body schema, gateway-key auth, and the gateway's shaping headers and problems. Needs no gateway key.",
  responses: {
    200: jsonAnswer("OpenAPI 3.1 of API v2 through the gateway.", Document),
    ...problems(),
  },
});

export const docsPage = createRoute({
  ...meta.get,
  path: "/docs",
  operationId: "getDocs",
  summary: "Interactive reference of both documents (works offline)",
  description:
    "Scalar's API reference, served whole by the Worker: no request leaves this origin (its Content-Security-Policy allows scripts, requests, images and fonts from here only).",
  responses: { 200: htmlPage("The reference page."), ...problems() },
});

export const docsScript = createRoute({
  ...meta.get,
  path: "/docs/scalar.js",
  operationId: "getDocsScript",
  summary: "The reference page's script (Scalar, served from its npm package)",
  responses: javascript,
});

export const docsInit = createRoute({
  ...meta.get,
  path: "/docs/init.js",
  operationId: "getDocsInit",
  summary: "The reference page's start script: both documents, offline, no hosted features",
  responses: javascript,
});
