/**
 * The tool-call audit's row (`src/assistants/mcp/audit.ts`): one row per call, naming the catalog's
 * operation key and never a path the caller wrote; a path outside the catalog is a fixed marker,
 * and its error (which quotes the path) is not kept.
 */
import { describe, expect, it } from "vitest";
import { OUTSIDE_CATALOG, type ToolCall } from "../../../src/assistants/tenant/tool-calls";
import { guarded, type ToolContext } from "../../../src/assistants/mcp/audit";
import type { AssistantPort } from "../../../src/assistants/mcp/port";
import { ToolRefusal } from "../../../src/assistants/mcp/results";
import { tenantName } from "../../../src/kernel/stubs";

/** A tool context whose audit rows are kept in `rows`; its port is never used. */
function context(): { tc: ToolContext; rows: ToolCall[] } {
  const rows: ToolCall[] = [];
  const tc: ToolContext = {
    principal: {
      tenant: tenantName("demo", "audit-unit"),
      environment: "demo",
      scope: "read",
      id: "key:0123abcd",
      ceiling: "read",
    },
    port: {} as AssistantPort,
    requestId: "req-audit.1",
    audit: (call) => rows.push(call),
  };
  return { tc, rows };
}

describe("audit: what a row keeps of the operation", () => {
  it("keeps a catalog operation's key and the error's first words", async () => {
    const { tc, rows } = context();
    await guarded(tc, "read", (step) => {
      step.operation = "GET /Customers/{id}";
      throw new ToolRefusal("The API answered 404 to GET /Customers/{id}.");
    });
    expect(rows[0]).toMatchObject({
      operation: "GET /Customers/{id}",
      outcome: "error",
      detail: "The API answered 404 to GET /Customers/{id}.",
    });
  });

  it("keeps a fixed marker and no detail for a path outside the catalog", async () => {
    const { tc, rows } = context();
    const result = await guarded(tc, "read", (step) => {
      step.operation = "GET /Nowhere/12345/hush-text";
      throw new ToolRefusal(
        "Not found (404): GET /v2/Nowhere/12345/hush-text is not an operation.",
      );
    });
    // The assistant still reads the whole refusal; only the audit row leaves the path out.
    expect(JSON.stringify(result)).toContain("hush-text");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operation: OUTSIDE_CATALOG, outcome: "error", detail: null });
    expect(JSON.stringify(rows)).not.toMatch(/hush-text|12345|Nowhere/);
  });

  it("keeps no operation for a call that touched none", async () => {
    const { tc, rows } = context();
    await guarded(tc, "search_operations", () => Promise.resolve({ content: [] }));
    expect(rows[0]).toMatchObject({ operation: null, outcome: "ok", detail: null });
  });
});
