/**
 * @module
 * `OrderToInvoice`: one durable run per shop order attempt, and one per refund, from customer to
 * settlement (`order-run.ts`). The run holds no secret: it asks the tenant's object for tokens.
 * See docs/design/order-runs.md.
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import type { Bindings } from "../../kernel/config";
import { recordEvents } from "../../events/announce";
import { runApi } from "../../ledger/run-api";
import type { RunParams } from "../runs";
import { orderRunPort } from "../../kernel/stubs";
import { Run } from "./order-run";

/** The order run's Workflow: a failure of any step is reported, then ends the run. */
export class OrderToInvoice extends WorkflowEntrypoint<Bindings, RunParams> {
  override async run(
    event: Readonly<WorkflowEvent<RunParams>>,
    step: WorkflowStep,
  ): Promise<unknown> {
    const p = event.payload;
    const port = orderRunPort(this.env, p.tenant, p.registration);
    const run = new Run(
      step,
      port,
      () => runApi(this.env, p.tenant, p.registration, event.instanceId),
      p,
      async (drafts) => void (await recordEvents(this.env, p.tenant, drafts)),
    );
    try {
      return p.refundId === null ? await run.invoice() : await run.credit(p.refundId);
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      await run.reportFailure(detail);
      throw new NonRetryableError(detail || "The run failed.");
    }
  }
}
