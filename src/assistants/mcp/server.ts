/**
 * @module
 * The MCP server of one request, with the tools the principal's scope allows: `tools/list` varies
 * with the authorization presented, so a `read` principal is not shown the write tools.
 */
import { McpServer } from "@modelcontextprotocol/server";
import type { ToolContext } from "./audit";
import { registerCatalogTools } from "./tools/catalog-tools";
import { registerCompositeTools } from "./tools/composite-tools";
import { registerOrderRunTool } from "./tools/order-run-tool";
import { registerReadTool } from "./tools/read-tool";
import { registerConfirmTool } from "./tools/confirm-tool";
import { registerPrepareTool } from "./tools/prepare-tool";

/** The server's name in its `serverInfo`. */
export const MCP_SERVER_NAME = "ledgergate";

function instructions(tc: ToolContext): string {
  const writes =
    tc.principal.scope === "read"
      ? "This connection reads only."
      : `Writes take two steps: prepare_write checks the write and answers a preview and a confirmation; show the preview to the person, and only when they agree call confirm_write with the confirmation. Repeat confirm_write with the same confirmation to retry: it never writes twice.${tc.principal.scope === "draft" ? " This connection prepares drafts only: master data, sales orders and journal entry vouchers, never sending, posting or deleting." : ""}`;
  return `The books of ${tc.principal.tenant} in the accounting API v2, through ledgergate. Find an operation with search_operations, see its parameters with describe_operation, and read with read (lists come in pages with a cursor). customer_open_invoices, invoice_with_payments and order_run_status answer common questions in one call. ${writes} Every call shares the API's limit of 10 calls a second with the tenant's other traffic: an answer that says to try again later means that.`;
}

/**
 * The server for `tc`'s session: every tool its scope allows.
 * @example createMcpHandler(() => mcpServer(tc, config.version))
 */
export function mcpServer(tc: ToolContext, version: string): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version },
    { instructions: instructions(tc) },
  );
  registerCatalogTools(server, tc);
  registerReadTool(server, tc);
  registerCompositeTools(server, tc);
  registerOrderRunTool(server, tc);
  if (tc.principal.scope !== "read") {
    registerPrepareTool(server, tc);
    registerConfirmTool(server, tc);
  }
  return server;
}
