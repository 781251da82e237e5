/**
 * @module
 * The audit of an assistant's tool calls (`assistants/mcp/audit.ts`): one bounded row per
 * `tools/call`, beside the request log's rows of its upstream calls. Invariant: `operation` is a
 * catalog key or `OUTSIDE_CATALOG`, never a path the caller wrote, and such a call keeps no detail;
 * `withoutArguments` enforces it at the writer and again here.
 */
import { z } from "zod";
import { CATALOG } from "../../../shared/v2/catalog";
import { REQUEST_LOG_MS } from "../../request-log/tenant-rows";
import { camelRow, keptFor, RetainedRows } from "../../kernel/stored-rows";
import { deleteAll, row } from "../../tenant/sql";

/** How many tool calls are kept: an assistant's work of a busy day, and the support desk's view. */
export const TOOL_CALL_ROWS = 500;

/** `tool_calls`, as of step 10 of `schema.ts` (change it with a new step). */
export const TOOL_CALL_TABLES = [
  `CREATE TABLE IF NOT EXISTS tool_calls (seq INTEGER PRIMARY KEY AUTOINCREMENT,
    request_id TEXT NOT NULL, at INTEGER NOT NULL, principal TEXT NOT NULL, scope TEXT NOT NULL,
    tool TEXT NOT NULL, operation TEXT, outcome TEXT NOT NULL, detail TEXT,
    upstream_calls INTEGER NOT NULL, idempotency_key TEXT, duration_ms INTEGER NOT NULL)`,
];

/** How a tool call ended: `ok`, `error` (an `isError` result), `retry` (no permit in time). */
export const ToolOutcome = z.enum(["ok", "error", "retry"]);
export type ToolOutcome = z.output<typeof ToolOutcome>;

export const ToolCall = z.strictObject({
  requestId: z.string().max(200),
  at: z.int(),
  principal: z.string().max(64),
  scope: z.enum(["read", "draft", "write"]),
  tool: z.string().max(64),
  /** `METHOD /Path/{id}` as the catalog names it, `OUTSIDE_CATALOG`, or null. */
  operation: z.string().max(300).nullable(),
  outcome: ToolOutcome,
  /** An error's first words for the support desk, capped; never a credential or a body. */
  detail: z.string().max(300).nullable(),
  upstreamCalls: z.int().min(0),
  idempotencyKey: z.string().max(255).nullable(),
  durationMs: z.int().min(0),
});
export type ToolCall = z.output<typeof ToolCall>;

/** What a row names for an operation outside the catalog (its path may hold ids or text). */
export const OUTSIDE_CATALOG = "(outside the catalog)";

const CATALOG_KEYS: ReadonlySet<string> = new Set(CATALOG.map((op) => op.key));

/** `call` as a row may hold it: an operation outside the catalog loses its detail too. */
export function withoutArguments(call: ToolCall): ToolCall {
  if (call.operation === null || CATALOG_KEYS.has(call.operation)) return call;
  return { ...call, operation: OUTSIDE_CATALOG, detail: null };
}

export type ToolCallRow = ToolCall & { seq: number };

const Stored = camelRow({
  seq: z.int(),
  request_id: z.string(),
  at: z.int(),
  principal: z.string(),
  scope: ToolCall.shape.scope,
  tool: z.string(),
  operation: z.string().nullable(),
  outcome: ToolOutcome,
  detail: z.string().nullable(),
  upstream_calls: z.int(),
  idempotency_key: z.string().nullable(),
  duration_ms: z.int(),
});

/** The tool-call audit of one tenant object: a row is kept `REQUEST_LOG_MS` after its `at`. */
export class ToolCalls extends RetainedRows {
  constructor(sql: SqlStorage) {
    super(sql, keptFor("tool_calls", REQUEST_LOG_MS));
  }

  /** Writes one tool call (a row over its caps is refused) and keeps the bound. */
  record(call: ToolCall): void {
    const c = withoutArguments(ToolCall.parse(call));
    this.sql.exec(
      `INSERT INTO tool_calls (request_id, at, principal, scope, tool, operation, outcome, detail,
        upstream_calls, idempotency_key, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      c.requestId,
      c.at,
      c.principal,
      c.scope,
      c.tool,
      c.operation,
      c.outcome,
      c.detail,
      c.upstreamCalls,
      c.idempotencyKey,
      c.durationMs,
    );
    const cut = row(
      this.sql,
      z.object({ seq: z.int() }),
      "SELECT seq FROM tool_calls ORDER BY seq DESC LIMIT 1 OFFSET ?",
      TOOL_CALL_ROWS,
    );
    if (cut) this.sql.exec("DELETE FROM tool_calls WHERE seq <= ?", cut.seq);
  }

  list(limit: number, before: number | null, now: number): ToolCallRow[] {
    return this.newest(Stored, { limit, before, now });
  }

  clear(): number {
    return deleteAll(this.sql, "tool_calls");
  }
}
