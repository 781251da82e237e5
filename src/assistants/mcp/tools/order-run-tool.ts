/**
 * @module
 * `order_run_status`: where a shop order stands in the gateway (only the gateway knows its runs: no
 * API call), with its invoice's balance as the API has it now (one call), or the runs in a state
 * (no call). The run is the one `/orders/{source}/{orderId}` answers (`OrderRunView`).
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/server";
import { Source } from "../../../orders/order";
import { OrderRunView } from "../../../orders/run-view";
import { RunState } from "../../../orders/runs";
import { guarded, type ToolContext, type ToolStep } from "../audit";
import { formatMoney } from "../preview";
import { structured, ToolRefusal } from "../results";
import { currencyOf, invoice, Invoice, num, rows } from "./ledger-kit";
import { READ_HINTS } from "./shapes";

const RunsAnswer = z.strictObject({
  runs: z.array(OrderRunView),
  invoice: Invoice.nullable().describe("The run's invoice as the API has it now (one run only)."),
  note: z.string(),
});

const RunsInput = z.object({
  source: Source.optional().describe("With orderId: one order's run."),
  orderId: z.string().min(1).max(100).optional(),
  state: RunState.optional().describe("Without an order: the runs in this state (e.g. failed)."),
  limit: z.int().min(1).max(50).optional().describe("Runs listed at most (20)."),
});

async function orderRunStatus(tc: ToolContext, input: z.output<typeof RunsInput>, step: ToolStep) {
  if ((input.source === undefined) !== (input.orderId === undefined))
    throw new ToolRefusal("Give both source and orderId for one order, or neither for a list.");
  if (input.source === undefined || input.orderId === undefined) {
    const runs = await tc.port.orderRuns(input.state ?? null, input.limit ?? 20);
    return structured({
      runs,
      invoice: null,
      note: `${runs.length} run${runs.length === 1 ? "" : "s"}${input.state ? ` in state ${input.state}` : ""}, newest change first.`,
    });
  }
  const run = await tc.port.orderRun(input.source, input.orderId);
  if (run.invoiceNo === null)
    return structured({
      runs: [run],
      invoice: null,
      note: `The run is ${run.state}; no invoice yet.`,
    });
  step.operation = "GET /OutgoingInvoices";
  const found = await rows(tc, step, "/OutgoingInvoices", { invoiceNos: String(run.invoiceNo) });
  const inv = found.list[0];
  return structured({
    runs: [run],
    invoice: inv ? invoice(inv) : null,
    note: inv
      ? `The run is ${run.state}; invoice ${run.invoiceNo} has ${formatMoney(num(inv.Balance) ?? 0, currencyOf(inv))} left to pay.`
      : `The run is ${run.state}; the API lists no invoice ${run.invoiceNo}.`,
  });
}

export function registerOrderRunTool(server: McpServer, tc: ToolContext): void {
  server.registerTool(
    "order_run_status",
    {
      title: "A shop order's run",
      description:
        "Where a shop order stands in the gateway (received, invoiced, settled, failed: each step, and the error of a failed one), with its invoice's balance; or, without an order, the runs in a state (e.g. failed). Only the gateway knows runs: no API call, except one for the invoice.",
      inputSchema: RunsInput,
      outputSchema: RunsAnswer,
      annotations: READ_HINTS,
    },
    (input) => guarded(tc, "order_run_status", (step) => orderRunStatus(tc, input, step)),
  );
}
