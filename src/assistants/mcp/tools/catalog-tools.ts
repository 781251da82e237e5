/**
 * @module
 * `search_operations` and `describe_operation`: the catalog's 313 operations found by search, not
 * as 313 tools (VS Code stops at 128). No upstream call, no permit.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/server";
import { CATALOG, matchOperation, type Operation } from "../../../../shared/v2/catalog";
import { queryOf } from "../../../../shared/v2/query";
import { toJsonSchema } from "../../../kernel/openapi/json-schema";
import { v2Summary } from "../../../v2/openapi/summary";
import { guarded, type ToolContext } from "../audit";
import { operationClass } from "../operation-class";
import { allows } from "../principal";
import { structured, ToolRefusal } from "../results";
import { CATALOG_HINTS, Method, OperationBrief } from "./shapes";

/** Operations one search answers at most, and by default. */
export const MAX_SEARCH_RESULTS = 50;
const DEFAULT_SEARCH_RESULTS = 20;

function brief(op: Operation, tc: ToolContext): z.output<typeof OperationBrief> {
  const cls = operationClass(op);
  return {
    method: op.method,
    path: op.path,
    summary: v2Summary(op),
    class: cls,
    readOnlyHint: cls === "read",
    allowed: allows(tc.principal.scope, cls),
  };
}

/** `Customerledger` → "customerledger customer ledger": the words a search may use. */
function words(text: string): string {
  return `${text} ${text.replace(/([a-z0-9])([A-Z])/g, "$1 $2")}`.toLowerCase();
}

/** A search term without a plural `s`, so "invoices" finds "invoice" and "OutgoingInvoices". */
const stem = (t: string) => (t.length > 3 && t.endsWith("s") ? t.slice(0, -1) : t);

/**
 * The operations matching `query`, best first: each scores the number of its terms found in its
 * method, path and summary; ties go to the shorter path, then the catalog's order.
 */
export function searchCatalog(query: string): { op: Operation; score: number }[] {
  const terms = [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((t) => t.length > 1),
    ),
  ];
  return CATALOG.map((op, i) => {
    const hay = words(`${op.method} ${op.path} ${v2Summary(op)}`);
    return { op, i, score: terms.filter((t) => hay.includes(stem(t))).length };
  })
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score || a.op.path.length - b.op.path.length || a.i - b.i);
}

const SearchInput = z.object({
  query: z
    .string()
    .min(1)
    .max(200)
    .describe("Words: a resource, an action, a path (`invoice paid`)."),
  limit: z.int().min(1).max(MAX_SEARCH_RESULTS).optional().describe("At most this many (20)."),
});
const SearchAnswer = z.strictObject({
  operations: z.array(OperationBrief),
  matched: z.int().describe("Operations matching in all; `operations` holds the best of them."),
});

const DescribeInput = z.object({
  method: Method,
  path: z
    .string()
    .min(1)
    .max(300)
    .describe("The documented path (`/Customers/{id}`) or a real one."),
});
const Parameter = z.strictObject({
  name: z.string(),
  kind: z.string(),
  required: z.boolean(),
  description: z.string(),
});
const DescribeAnswer = OperationBrief.extend({
  privileges: z.array(z.string()).describe("The integration needs one of these; none: any token."),
  pathParameters: z.array(z.string()),
  query: z.strictObject({
    paged: z.boolean().describe("A list the `read` tool pages with a cursor."),
    parameters: z.array(Parameter),
  }),
  body: z.strictObject({
    kind: z.enum(["none", "json", "json-patch", "multipart", "multipart-or-json"]),
    schema: z.record(z.string(), z.unknown()).nullable().describe("JSON Schema 2020-12."),
    note: z.string(),
  }),
});

function bodyNote(op: Operation): string {
  if (op.body === "none") return "No body.";
  if (op.body === "multipart")
    return "A file upload: not through MCP; the person uploads it through /v2 with the gateway key.";
  if (op.method === "PATCH")
    return "A JSON Patch array, or (simpler) an object of the fields to change: a merge patch, where null removes a field.";
  if (op.shape === "unpublished")
    return "JSON whose shape no source publishes: passed on unchecked, the API judges it.";
  return "JSON, checked against this schema before anything is sent.";
}

export function registerCatalogTools(server: McpServer, tc: ToolContext): void {
  server.registerTool(
    "search_operations",
    {
      title: "Search the API's operations",
      description: `Finds operations of the accounting API v2 (${CATALOG.length} in all) by words, best match first: each with its method, path, summary, class (read, draft or write) and whether this connection may perform it. Answers from the gateway's catalog: no call to the API.`,
      inputSchema: SearchInput,
      outputSchema: SearchAnswer,
      annotations: CATALOG_HINTS,
    },
    ({ query, limit }) =>
      guarded(tc, "search_operations", async () => {
        const found = searchCatalog(query);
        const shown = found.slice(0, limit ?? DEFAULT_SEARCH_RESULTS);
        return structured({
          operations: shown.map((m) => brief(m.op, tc)),
          matched: found.length,
        });
      }),
  );
  server.registerTool(
    "describe_operation",
    {
      title: "Describe an operation",
      description:
        "One operation of the API: its path and query parameters, and its body as JSON Schema, as the gateway validates it. Use it before `read` with filters or before `prepare_write`.",
      inputSchema: DescribeInput,
      outputSchema: DescribeAnswer,
      annotations: CATALOG_HINTS,
    },
    ({ method, path }) =>
      guarded(tc, "describe_operation", async (step) => {
        const m = matchOperation(method, path);
        if (m.kind !== "operation")
          throw new ToolRefusal(
            m.kind === "method-not-allowed"
              ? `${path} takes ${m.allow.join(", ")}, not ${method}.`
              : `${method} ${path} is not an operation of the API. Use search_operations to find one.`,
          );
        const op = m.op;
        step.operation = op.key;
        const converted = op.schema ? toJsonSchema(op.schema) : null;
        const query = queryOf(op.key);
        return structured({
          ...brief(op, tc),
          privileges: [...op.privileges],
          pathParameters: [...op.path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1] ?? ""),
          query: {
            paged: query?.paged ?? false,
            parameters: (query?.params ?? []).map((p) => ({
              name: p.name,
              kind: p.kind,
              required: p.required === true,
              description: p.description + (p.values ? ` One of: ${p.values.join(", ")}.` : ""),
            })),
          },
          body: {
            kind: op.body,
            schema: converted?.ok ? converted.schema : null,
            note: bodyNote(op),
          },
        });
      }),
  );
}
