/**
 * @module
 * Shapes and hints the MCP tools share; the annotations are hints to the host, which clients must
 * treat as untrusted.
 */
import { z } from "zod";
import type { ToolAnnotations } from "@modelcontextprotocol/server";

export const Method = z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]);

export const WriteMethod = z.enum(["POST", "PUT", "PATCH", "DELETE"]);

/** A path below the API's root, as a tool takes it: no query, no fragment. */
export const ApiPath = z
  .string()
  .min(1)
  .max(2000)
  .regex(/^\/[^?#\s\\]*$/, "a path below the API's root, starting with /, without ? or #")
  .describe("Below the API's root, e.g. `/Customers` or `/Customers/123`.");

/** Query parameters as an object; each value is sent as text. */
export const Query = z
  .record(z.string().min(1).max(100), z.union([z.string().max(2000), z.number(), z.boolean()]))
  .describe('Query parameters (filters), e.g. `{ "customerNos": "10000-10100" }`.');

/** One operation of the catalog as search and describe name it. */
export const OperationBrief = z.strictObject({
  method: Method,
  path: z.string(),
  summary: z.string(),
  class: z.enum(["read", "draft", "write"]),
  readOnlyHint: z.boolean(),
  allowed: z.boolean().describe("Whether this connection's scope may perform it."),
});

/** Tools that answer from the gateway's catalog: no side effect, nothing outside. */
export const CATALOG_HINTS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Tools that read the tenant's books through the API. */
export const READ_HINTS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

/** `query` as the `?…` of a URL (empty when there is none). */
export function searchOf(query: Record<string, string | number | boolean> | undefined): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}
