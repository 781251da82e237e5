/**
 * @module
 * An assistant's tool calls, on the tenant's requests page, beside the request log rows of their
 * upstream calls. Nothing on it is secret: no key, no arguments.
 */
import type { ToolCallRow } from "../tenant/tool-calls";
import { when } from "../../console/views";
import { Table } from "../../console/table";

/** Tool calls the requests page shows, newest first. */
export const TOOL_CALLS_SHOWN = 50;

/** The section of tool calls. */
export function ToolCallsSection(p: { calls: ToolCallRow[] }) {
  return (
    <section id="tool-calls">
      <h2>Assistant tool calls</h2>
      <p class="muted">
        Calls of the MCP server's tools (docs/mcp.md), newest first: the last {TOOL_CALLS_SHOWN}{" "}
        shown, 500 kept, at most 7 days back. A tool's calls to the API are the requests above with
        caller <code>assistant</code> and the same request id.
      </p>
      {p.calls.length === 0 ? (
        <p>No tool calls yet.</p>
      ) : (
        <Table
          columns={[
            "Time",
            "Tool",
            "Operation",
            "Outcome",
            "API calls",
            "Who",
            "Idempotency key",
            "Id",
          ]}
          rows={p.calls.map((t) => [
            when(new Date(t.at).toISOString()),
            t.tool,
            t.operation ?? "–",
            t.detail ? <span title={t.detail}>{t.outcome}</span> : t.outcome,
            t.upstreamCalls,
            `${t.principal} (${t.scope})`,
            t.idempotencyKey ?? "–",
            t.requestId,
          ])}
        />
      )}
    </section>
  );
}
