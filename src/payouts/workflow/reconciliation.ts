/**
 * @module
 * `PayoutReconciliation`: one durable run per payout attempt. It asks the tenant's object what the
 * attempt is to do (its lines matched to the tenant's settled orders, which are claimed for it),
 * then posts the payout's one bank voucher, or waits unmatched naming what does not match, or
 * reverses the voucher of a payout that failed (`payout-run.ts`).
 *
 * A Workflow class of its own rather than a third kind of `OrderToInvoice` run: its instance ids,
 * parameters and record are the payout's, its failures are reported to the payout (not to an
 * order), and tests and operators introspect it apart from the order runs. What the two share is
 * the machinery below the Workflow: the run's API client and errors (`ledger/run-api.ts`), the
 * tenant's run face and its registration check, the way steps report from inside themselves.
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import type { Bindings } from "../../kernel/config";
import { runApi } from "../../ledger/run-api";
import { payoutEvents } from "../events";
import type { PayoutParams } from "../records";
import { payoutRunPort } from "../../kernel/stubs";
import { PayoutRun } from "./run";

/** The payout run's Workflow: a failure of any step is reported to the payout, then ends the run. */
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
