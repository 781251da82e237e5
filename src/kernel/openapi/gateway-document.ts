/** @module ledgergate's own OpenAPI document, from the declarations: validated is documented. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Env } from "hono";
import { SECURITY_SCHEMES } from "./security";

export function gatewayDocument<E extends Env>(app: OpenAPIHono<E>, version: string) {
  const doc = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "ledgergate",
      version,
      description:
        "ledgergate's own interface: the operator API (/admin), shop webhooks, order runs, health and these documents. API v2 itself, called through /v2 with a gateway key, is described by /v2/openapi.json. Errors the gateway answers are application/problem+json (RFC 9457) and every answer carries X-Request-Id.",
    },
    servers: [{ url: "/" }],
    tags: [
      { name: "admin", description: "The operator API (Authorization: Bearer <ADMIN_TOKEN>)." },
      { name: "orders", description: "Order runs of the gateway key's tenant." },
      {
        name: "payouts",
        description: "Payouts of the gateway key's tenant, reconciled and booked.",
      },
      {
        name: "onboarding",
        description:
          "Onboarding v2: the operator starts it, the client's user approves in the accounting system, the callback registers the tenants.",
      },
      {
        name: "webhooks",
        description: "Shop webhooks, each verified with its source's signature scheme.",
      },
      { name: "meta", description: "Health, and the documents of the gateway and of API v2." },
      {
        name: "mcp",
        description:
          "The tenant's remote MCP server (Model Context Protocol, Streamable HTTP) for AI assistants, with a gateway key.",
      },
      {
        name: "console",
        description:
          "The operator console: HTML pages and their forms, behind a session cookie made from the operator token.",
      },
    ],
  });
  // Registered here rather than through the registry: one list, shared with the v2 document.
  return {
    ...doc,
    components: {
      ...doc.components,
      securitySchemes: { ...doc.components?.securitySchemes, ...SECURITY_SCHEMES },
    },
  };
}
