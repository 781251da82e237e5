/**
 * @module
 * The machinery an order run's flows (`Run`, `order-run.ts`) are built from: one API step, retried
 * by the engine and reported to the tenant's object from inside the step; reports made in steps
 * of their own; the run's input; and the ways a run ends early without an exception.
 */
import type { WorkflowStep, WorkflowStepConfig } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import { runDrafts, runEventTypes } from "../../events/run-events";
import type { EventDraft } from "../../events/types";
import type { OrderRunPort, RunInput } from "../port";
import { RunError, type RunApi } from "../../ledger/run-api";
import { publicView } from "../run-view";
import type { RunParams, RunPatch } from "../runs";

/**
 * Steps that call the API: retried 6 times, 2 s doubling (≈ 2 min in all), each attempt at most 2
 * minutes.
 */
const CALL_STEP: WorkflowStepConfig = {
  retries: { limit: 6, delay: "2 seconds", backoff: "exponential" },
  timeout: "2 minutes",
};

/** Records events in the tenant's event log (`events/announce.ts`, `recordEvents`). */
export type Announce = (drafts: EventDraft[]) => Promise<void>;

/**
 * The steps every run is made of. `current` names the step a failure happened in.
 *
 * Every step that reports also announces, inside the same step, after the report: the run's own
 * events (`events/run-events.ts`) and the invoice events the step's value shows. A step the
 * engine retries announces again, and the event log drops the repeat by its key, so each event is
 * recorded once; an announcement that fails fails the step, which the engine retries.
 */
export class RunSteps {
  /** The step running now, named in the failure. */
  current = "load";
  /** The run's attempt (1, then one more per operator retry). */
  runAttempt = 1;

  constructor(
    protected readonly step: WorkflowStep,
    protected readonly port: OrderRunPort,
    private readonly api: () => RunApi,
    protected readonly p: RunParams,
    private readonly announce: Announce = async () => {},
  ) {}

  /**
   * One API step: the engine retries transient failures; the others fail the run at once. The
   * step's outcome is reported to the tenant's object.
   */
  protected async apiStep<T extends Rpc.Serializable<T>>(
    name: string,
    fn: (api: RunApi, attempt: number) => Promise<T>,
    summary: (t: T) => Record<string, unknown>,
    patch: (t: T) => RunPatch = () => ({}),
    events: (t: T, at: number) => EventDraft[] = () => [],
  ): Promise<T> {
    this.current = name;
    return this.step.do(name, CALL_STEP, async (ctx) => {
      try {
        // In the try: a tenant name the client refuses is a RunError too, and retrying cannot mend
        // it.
        const api = this.api();
        const value = await fn(api, ctx.attempt);
        const reported = patch(value);
        await this.port.runReport(this.p.source, this.p.orderId, this.p.refundId, {
          ...reported,
          step: {
            name,
            at: new Date().toISOString(),
            ok: true,
            result: { ...summary(value), upstreamCalls: api.calls },
          },
        });
        await this.#announce(reported, events(value, Date.now()));
        return value;
      } catch (e) {
        if (e instanceof RunError && !e.retryable) throw new NonRetryableError(e.message);
        throw e;
      }
    });
  }

  /**
   * The order's record and mapping, read once in a step of its own; the run's attempt is taken from
   * it.
   */
  protected async load(): Promise<RunInput> {
    // Kept as JSON text: the record is plain JSON, and its full type is too deep for the step's
    // typing.
    const text = await this.step.do("load", async () => {
      const input = await this.port.runInput(this.p.source, this.p.orderId);
      if (!input)
        throw new NonRetryableError("The order's record is gone (the tenant was removed).");
      return JSON.stringify(input);
    });
    const input = JSON.parse(text) as RunInput;
    this.runAttempt =
      input.run.refunds.find((x) => x.refund.id === this.p.refundId)?.attempt ?? input.run.attempt;
    return input;
  }

  /**
   * Reports to the tenant's object from a step of its own. Every report is made inside a step: the
   * engine replays `run` after sleeps and evictions, and a report outside a step would be made
   * again then, putting an older state back over a newer one.
   */
  protected async record(name: string, patch: RunPatch): Promise<void> {
    await this.step.do(name, async () => {
      await this.port.runReport(this.p.source, this.p.orderId, this.p.refundId, patch);
      await this.#announce(patch, []);
      return true;
    });
  }

  /** Reports (and announces) this run's failure, in a step of its own. */
  async reportFailure(detail: string): Promise<void> {
    await this.record("record failure", this.failed(detail));
  }

  /**
   * Records `extra` and the events `reported` announces, with the run as it stands now (read after
   * the report, so the event shows the state it announces). Inside the calling step.
   */
  async #announce(reported: RunPatch, extra: EventDraft[]): Promise<void> {
    const types = runEventTypes(reported, this.p.refundId);
    const drafts = [...extra];
    if (types.length > 0) {
      const input = await this.port.runInput(this.p.source, this.p.orderId);
      if (input)
        drafts.push(
          ...runDrafts(types, publicView(input.run), this.p, this.runAttempt, Date.now()),
        );
    }
    if (drafts.length > 0) await this.announce(drafts);
  }

  /** Whether the order was cancelled meanwhile (read afresh, inside the calling step). */
  protected async cancelled(): Promise<boolean> {
    return (await this.port.runInput(this.p.source, this.p.orderId))?.run.cancelledAt != null;
  }

  /** The report of this run's failure, naming the step it failed in (`current`). */
  failed(detail: string): RunPatch {
    return this.p.refundId === null
      ? { order: { state: "failed", error: { step: this.current, detail } } }
      : { refund: { state: "failed", error: `${this.current}: ${detail}` } };
  }

  /**
   * Ends the run as failed, without an exception, for a failure the run decided itself before its
   * first call: nothing was written, nothing for the engine to retry. (An exception would end the
   * same, through `OrderToInvoice`'s catch, and be logged by the runtime as uncaught.)
   */
  protected async refuse(detail: string): Promise<unknown> {
    await this.reportFailure(detail);
    return { failed: detail };
  }

  /** Ends the order's run as cancelled, saying why. */
  protected async stop(why: string): Promise<unknown> {
    await this.record("stop", {
      order: { state: "cancelled" },
      step: { name: "stop", at: new Date().toISOString(), ok: true, result: { reason: why } },
    });
    return { cancelled: why };
  }
}
