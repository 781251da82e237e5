/**
 * @module
 * The steps of one payout attempt: the task the tenant's object decides, then the voucher (ids,
 * rates, the post) or the reversal, each step retried by the engine and reported from inside it.
 * One upstream call per payout once the tenant's ids are known, whatever its lines.
 */
import type { WorkflowStep, WorkflowStepConfig } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import { formatMinor } from "../../ledger/money";
import { RunError, type RunApi } from "../../ledger/run-api";
import { postVoucher, reverseVoucher, findVoucher, voucherIds, voucherRates } from "../book";
import type { PayoutEvents } from "../events";
import { BASE_CURRENCY } from "../match";
import { clearingBalance } from "../balance";
import type { BookingPlan } from "../plan";
import type { PayoutRunPort, PayoutTask } from "../port";
import type { PayoutParams, PayoutPatch } from "../records";
import { voucherOf } from "../voucher";
import { readLedger, type LedgerContext } from "./stripe";

/** Steps that call the API: as an order run's. */
const CALL_STEP: WorkflowStepConfig = {
  retries: { limit: 6, delay: "2 seconds", backoff: "exponential" },
  timeout: "2 minutes",
};

/** Issues named in the `payout.unmatched` announcement. */
const ANNOUNCED_ISSUES = 10;

/** One payout attempt's steps. `current` names the step a failure happened in. */
export class PayoutRun {
  current = "task";

  constructor(
    private readonly step: WorkflowStep,
    private readonly port: PayoutRunPort,
    private readonly events: PayoutEvents,
    private readonly api: () => RunApi,
    private readonly p: PayoutParams,
    private readonly stripe: Pick<LedgerContext, "env" | "runId">,
  ) {}

  async run(): Promise<unknown> {
    // JSON text: the plan's full type is too deep for the step's typing.
    const text = await this.step.do("task", async () =>
      JSON.stringify(await this.port.payoutTask(this.p.source, this.p.payoutId, this.p.attempt)),
    );
    return this.#follow(JSON.parse(text) as PayoutTask);
  }

  async #follow(task: PayoutTask): Promise<unknown> {
    switch (task.kind) {
      case "stale":
        return { stale: true };
      case "unmatched":
        return this.#unmatched(
          task.issues.map((i) => i.detail),
          task.issueCount,
        );
      case "reverse":
        return this.#reverse(task);
      case "book":
        return this.#book(task.plan);
      case "read":
        return this.#read(task);
      case "balance":
        return this.#balance(task);
    }
  }

  /** Reads a Stripe payout's lines and hands them to the object to match; no key: `needs-key`. */
  async #read(task: Extract<PayoutTask, { kind: "read" }>): Promise<unknown> {
    this.current = "read Stripe payout";
    const outcome = await readLedger(
      {
        ...this.stripe,
        step: this.step,
        port: this.port,
        p: this.p,
        report: (name, ok, result) =>
          this.port.payoutReport(this.p.source, this.p.payoutId, this.p.attempt, {
            step: this.#stepRecord(name, ok, result),
          }),
      },
      task,
    );
    if (outcome.kind === "needs-key") {
      await this.#record("needs-key", {
        state: "needs-key",
        error: { step: outcome.step, detail: outcome.detail },
      });
      return { needsKey: true };
    }
    if (outcome.kind === "waiting") {
      await this.#record("waiting", { state: "waiting" });
      return { waiting: true };
    }
    const { source, payoutId, attempt } = this.p;
    this.current = "take Stripe lines";
    const text = await this.step.do("take Stripe lines", async () =>
      JSON.stringify(await this.port.payoutRead(source, payoutId, attempt, outcome.read)),
    );
    const next = JSON.parse(text) as PayoutTask;
    // The object answers the match or a balance; another read would loop.
    if (next.kind === "read") throw new RunError("The payout's lines were not taken.", false);
    return this.#follow(next);
  }

  /** Not itemised by Stripe: the clearing balance is read once to show; nothing is booked. */
  async #balance(task: Extract<PayoutTask, { kind: "balance" }>): Promise<unknown> {
    const balance = await this.#apiStep(
      "clearing balance",
      (api) => clearingBalance(api, task.accountNo, task.date),
      (b) => ({ accountNo: task.accountNo, balance: formatMinor(b), asOf: task.date }),
      (b) => ({
        state: "not-itemised",
        clearing: {
          accountNo: task.accountNo,
          balance: b,
          asOf: task.date,
          currency: BASE_CURRENCY,
        },
      }),
    );
    return { notItemised: true, clearingBalance: balance };
  }

  failed(detail: string): PayoutPatch {
    return { state: "failed", error: { step: this.current, detail } };
  }

  async #unmatched(details: string[], count: number): Promise<unknown> {
    await this.#record("unmatched", {
      step: this.#stepRecord("match", true, { issues: count }),
    });
    await this.#announce("payout.unmatched", {
      issues: count,
      first: details.slice(0, ANNOUNCED_ISSUES),
    });
    return { unmatched: count };
  }

  async #book(plan: BookingPlan): Promise<unknown> {
    await this.#record("matched", {
      step: this.#stepRecord("match", true, {
        clearingCredits: plan.clearing.length,
        deposit: formatMinor(plan.deposit),
      }),
    });
    const ids = await this.#apiStep(
      "voucher ids",
      (api) =>
        voucherIds(
          api,
          {
            recall: (nos) => this.port.knownAccounts(nos),
            learn: (found) => this.port.learnAccounts(found),
          },
          plan,
        ),
      () => ({}),
    );
    const rates =
      plan.rates.length === 0
        ? {}
        : await this.#apiStep(
            "rates",
            (api) => voucherRates(api, plan, BASE_CURRENCY),
            (r) => ({ rates: Object.keys(r).length }),
          );
    // Built outside a step: pure, and the same on every replay.
    let built: ReturnType<typeof voucherOf>;
    try {
      built = voucherOf(plan, ids, rates);
    } catch (e) {
      throw new RunError(`The payout's voucher could not be built: ${String(e)}`, false);
    }
    const findOn =
      plan.deposit !== 0 ? plan.bankAccount : (plan.clearing[0]?.accountNo ?? plan.bankAccount);
    const posted = await this.#apiStep(
      "post voucher",
      (api) => postVoucher(api, built.body, findOn),
      (v) => ({
        voucherId: v.id,
        voucherNo: v.number,
        postedNow: v.first,
        lines: built.body.VoucherLines?.length ?? 0,
        currencyDifference: formatMinor(built.currencyDifference),
      }),
      (v) => ({
        state: "booked",
        voucher: {
          reference: plan.reference,
          bankAccount: plan.bankAccount,
          id: v.id,
          number: v.number,
        },
      }),
    );
    await this.#announce("payout.reconciled", {
      voucherId: posted.id,
      voucherNo: posted.number,
      reference: plan.reference,
      deposit: formatMinor(plan.deposit),
    });
    return { voucherId: posted.id };
  }

  async #reverse(task: Extract<PayoutTask, { kind: "reverse" }>): Promise<unknown> {
    const v = task.voucher;
    if (v === null) {
      await this.#record("cancel", {
        state: "cancelled",
        step: this.#stepRecord("cancel", true, { reason: "no voucher was planned" }),
      });
      return { cancelled: true };
    }
    const done = await this.#apiStep(
      "reverse voucher",
      async (api) => {
        const id = v.id ?? (await findVoucher(api, v.reference, v.bankAccount, task.date))?.id;
        if (!id) return { reversed: false, id: null };
        await reverseVoucher(api, id);
        return { reversed: true, id };
      },
      (r) => ({ ...r }),
      (r) => (r.reversed ? { state: "reversed" } : { state: "cancelled" }),
    );
    return done;
  }

  /** One API step, reported from inside it with its calls. */
  async #apiStep<T extends Rpc.Serializable<T>>(
    name: string,
    fn: (api: RunApi) => Promise<T>,
    summary: (t: T) => Record<string, string | number | boolean | null>,
    patch: (t: T) => PayoutPatch = () => ({}),
  ): Promise<T> {
    this.current = name;
    return this.step.do(name, CALL_STEP, async () => {
      try {
        const api = this.api();
        const value = await fn(api);
        await this.port.payoutReport(this.p.source, this.p.payoutId, this.p.attempt, {
          ...patch(value),
          step: this.#stepRecord(name, true, { ...summary(value), upstreamCalls: api.calls }),
        });
        return value;
      } catch (e) {
        if (e instanceof RunError && !e.retryable) throw new NonRetryableError(e.message);
        throw e;
      }
    });
  }

  /** A report from a step of its own, so a replay does not make it again. */
  async #record(name: string, patch: PayoutPatch): Promise<void> {
    this.current = name;
    await this.step.do(`record ${name}`, async () => {
      await this.port.payoutReport(this.p.source, this.p.payoutId, this.p.attempt, patch);
      return true;
    });
  }

  /** The one call site of the payout events. */
  async #announce(
    type: "payout.reconciled" | "payout.unmatched",
    data: Record<string, string | number | null | string[]>,
  ): Promise<void> {
    await this.step.do(`announce ${type}`, async () => {
      const { source, payoutId, attempt } = this.p;
      await this.events.announce({ type, source, payoutId, attempt, data });
      return true;
    });
  }

  #stepRecord(name: string, ok: boolean, result: Record<string, string | number | boolean | null>) {
    return { name, at: new Date().toISOString(), ok, result };
  }
}
