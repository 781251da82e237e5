/**
 * @module
 * What an order run's flows (`order-run.ts`) are built from: API steps that report from inside the
 * step, reports in steps of their own, the run's input, and early ends without an exception.
 * See docs/design/order-runs.md.
 */
import type { WorkflowStep, WorkflowStepConfig } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import { runDrafts, runEventTypes } from "../../events/run-events";
import type { EventDraft } from "../../events/types";
import type { OrderRunPort, RunInput } from "../port";
import { RunError, type RunApi } from "../../ledger/run-api";
import { publicView } from "../run-view";
import type { RunRef, Shared } from "../tenant/shared-calls";
import type { RunParams, RunPatch } from "../runs";

/** Steps that call the API: retried 6 times, 2 s doubling (≈ 2 min), each attempt ≤ 2 min. */
const CALL_STEP: WorkflowStepConfig = {
  retries: { limit: 6, delay: "2 seconds", backoff: "exponential" },
  timeout: "2 minutes",
};

/** Records events in the tenant's event log (`events/announce.ts`, `recordEvents`). */
export type Announce = (drafts: EventDraft[]) => Promise<void>;

/**
 * The steps every run is made of. Every step that reports also announces its events inside the
 * same step, after the report; a repeat is dropped by the event log's key.
 */
export class RunSteps {
  /** The step running now, named in a failure. */
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

  /** One API step, reported from inside it: the engine retries transient failures only. */
  protected async apiStep<T extends Rpc.Serializable<T>>(
    name: string,
    fn: (api: RunApi, attempt: number) => Promise<T>,
    summary: (t: T) => Record<string, unknown>,
    patch: (t: T) => RunPatch = () => ({}),
    events: (t: T, at: number) => EventDraft[] = () => [],
    sharedCalls: () => number = () => 0,
  ): Promise<T> {
    this.current = name;
    return this.step.do(name, CALL_STEP, async (ctx) => {
      try {
        // In the try: a tenant name the client refuses is a RunError too, not retryable.
        const api = this.api();
        const value = await fn(api, ctx.attempt);
        const reported = patch(value);
        await this.port.runReport(this.p.source, this.p.orderId, this.p.refundId, {
          ...reported,
          step: {
            name,
            at: new Date().toISOString(),
            ok: true,
            result: { ...summary(value), upstreamCalls: api.calls + sharedCalls() },
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
   * An API step whose call the tenant's object may share with other runs (`tenant/shared-calls.ts`):
   * `fn` asks it, with the step's own client for lookups first; the step reports its share.
   */
  protected async sharedStep<S, T extends Rpc.Serializable<T>>(
    name: string,
    fn: (attempt: number, api: RunApi) => Promise<Shared<S>>,
    value: (s: S) => T,
    summary: (t: T) => Record<string, unknown>,
    patch: (t: T) => RunPatch = () => ({}),
    events: (t: T, at: number) => EventDraft[] = () => [],
  ): Promise<T> {
    let shared: { calls: number; runs: number; reference: string | null } | null = null;
    return this.apiStep(
      name,
      async (api, attempt) => {
        const answer = await fn(attempt, api);
        if (!answer.ok) throw new RunError(answer.detail, answer.retryable);
        shared = answer;
        return value(answer.value);
      },
      (t) => ({
        ...summary(t),
        ...(shared && shared.runs > 1
          ? { sharedBy: shared.runs, ...(shared.reference ? { voucher: shared.reference } : {}) }
          : {}),
      }),
      patch,
      events,
      () => shared?.calls ?? 0,
    );
  }

  /** The run as the tenant's shared calls name it. */
  protected runRef(api: RunApi): RunRef {
    return { runId: api.runId, order: `${this.p.source}:${this.p.orderId}` };
  }

  /** The order's record and mapping, read in a step of its own; sets `runAttempt`. */
  protected async load(): Promise<RunInput> {
    // As JSON text: the record's full type is too deep for the step's typing.
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
   * Reports from a step of its own: the engine replays `run`, and a report outside a step would be
   * made again, putting an older state back over a newer one.
   */
  protected async record(name: string, patch: RunPatch): Promise<void> {
    await this.step.do(name, async () => {
      await this.port.runReport(this.p.source, this.p.orderId, this.p.refundId, patch);
      await this.#announce(patch, []);
      return true;
    });
  }

  async reportFailure(detail: string): Promise<void> {
    await this.record("record failure", this.failed(detail));
  }

  /** Records `extra` and the events `reported` announces, with the run read after the report. */
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

  failed(detail: string): RunPatch {
    return this.p.refundId === null
      ? { order: { state: "failed", error: { step: this.current, detail } } }
      : { refund: { state: "failed", error: `${this.current}: ${detail}` } };
  }

  /**
   * Ends the run as failed, without an exception, for a failure decided before its first call
   * (an exception would be logged by the runtime as uncaught).
   */
  protected async refuse(detail: string): Promise<unknown> {
    await this.reportFailure(detail);
    return { failed: detail };
  }

  protected async stop(why: string): Promise<unknown> {
    await this.record("stop", {
      order: { state: "cancelled" },
      step: { name: "stop", at: new Date().toISOString(), ok: true, result: { reason: why } },
    });
    return { cancelled: why };
  }
}
