/**
 * @module
 * The operator's search, declared once: `GET /admin/search` (operator token) and the console's
 * `GET /console/search` (session). Only the operator searches across tenants.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { SECURITY } from "../kernel/openapi/security";
import { guarded, htmlPage, jsonAnswer, tagged } from "../kernel/routes/contract-kit";
import { read, signedOut } from "../console/contract-kit";
import { SearchHit, SearchText } from "./hits";
import { SEARCH_HITS, SEARCH_TENANTS } from "./search";

const admin = tagged("admin", SECURITY.operator);

export const SearchQuery = z.strictObject({
  q: SearchText.openapi({
    description:
      "An order's id or number, an invoice number, a customer's number, organization number, e-mail or part of a name, a request id, a webhook delivery's id, an event id (evt_…) or a payout id.",
  }),
});

const Found = z
  .strictObject({
    query: z.string(),
    hits: z.array(SearchHit.clone().openapi("SearchHit")),
    tenantsSearched: z.int().min(0),
    tenantsNotSearched: z
      .int()
      .min(0)
      .openapi({
        description: `Tenants past the first ${SEARCH_TENANTS} (by name), which a search does not read.`,
      }),
    truncated: z
      .boolean()
      .openapi({ description: `More than ${SEARCH_HITS} hits were found; narrow the query.` }),
  })
  .openapi("SearchResult");

export const search = createRoute({
  ...admin.get,
  path: "/search",
  operationId: "search",
  summary: "Find an order, invoice, customer, request, webhook, event or payout across tenants",
  description: `What the gateway keeps, never the API: each tenant's order runs, payouts, request log and webhook deliveries, and its event log for an event id. The first ${SEARCH_TENANTS} tenants by name are read, ten at a time; at most ${SEARCH_HITS} hits.`,
  request: { query: SearchQuery },
  responses: {
    200: jsonAnswer("What was found, with each record's console page.", Found),
    ...guarded(400),
  },
});

export const searchPage = createRoute({
  ...read,
  path: "/search",
  operationId: "consoleSearch",
  summary: "The search box's results: each record linked to its page",
  request: { query: SearchQuery },
  responses: {
    200: htmlPage("The hits, or none."),
    400: htmlPage("An empty or over-long query."),
    ...signedOut,
  },
});
