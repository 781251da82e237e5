/**
 * @module
 * `PayoutReconciliation`: one durable run per payout attempt, a Workflow class of its own rather
 * than a kind of order run, sharing the machinery below it (docs/payouts.md says why).
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import type { Bindings } from "../../kernel/config";
import { runApi } from "../../ledger/run-api";
import { payoutEvents } from "../events";
import type { PayoutParams } from "../records";
import { payoutRunPort } from "../../kernel/stubs";
import { PayoutRun } from "./run";

/** A failure of any step is reported to the payout, then ends the run. */
export class PayoutReconciliation extends WorkflowEntrypoint<Bindings, PayoutParams> {
  override async run(
    event: Readonly<WorkflowEvent<PayoutParams>>,
    step: WorkflowStep,
  ): Promise<unknown> {
    const p = event.payload;
    const port = payoutRunPort(this.env, p.tenant, p.registration);
    const run = new PayoutRun(
      step,
      port,
      payoutEvents(this.env, p.tenant),
      () => runApi(this.env, p.tenant, p.registration, event.instanceId),
      p,
      { env: this.env, runId: event.instanceId },
    );
    try {
      return await run.run();
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      await step.do("record failure", async () => {
        await port.payoutReport(p.source, p.payoutId, p.attempt, run.failed(detail));
        return true;
      });
      throw new NonRetryableError(detail || "The payout's run failed.");
    }
  }
}
