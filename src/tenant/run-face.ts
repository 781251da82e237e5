/**
 * @module
 * The tenant object's face for an order run and a payout run, which hold no key, only the
 * registration they were started under: a `RunFace` while it is current, a `GoneRunFace` (no token,
 * nothing read or written) once not. See docs/design/faces.md.
 */
import { RpcTarget } from "cloudflare:workers";
import type { Source } from "../orders/order";
import type { Known, KnownAsk, Learned, OrderRunPort, RunInput } from "../orders/port";
import type { RunPatch } from "../orders/runs";
import type { Delivery } from "../orders/run/invoice";
import type { Settlement } from "../orders/run/settle";
import type { RunRef, Shared } from "../orders/tenant/shared-calls";
import type { KnownAccount, LedgerRead, PayoutRunPort, PayoutTask } from "../payouts/port";
import type { PayoutPatch } from "../payouts/records";
import type { PayoutSource } from "../payouts/payout";
import { fail, type Outcome } from "../kernel/outcome";
import type { RunOwner } from "../orders/tenant/order-desk";
import { ownerOf, type TenantParts } from "./parts";
import type { Access } from "../upstream/tenant/token-keeper";

/** What a run may do with its tenant's object: its port, and tokens for its API calls. */
export interface RunHolder extends OrderRunPort, PayoutRunPort {
  /** A token for a call of run instance `run`, seen alive by this (`Pulses`). */
  access(run?: string): Promise<Outcome<Access>>;
}

/** What `Tenant.forRun` hands out: a `RunFace` or a `GoneRunFace`. */
export type RunHolderFace = RunHolder & RpcTarget;

type RunParts = Pick<
  TenantParts,
  "tokens" | "desk" | "settings" | "known" | "payouts" | "stripeKeys" | "shared" | "arm" | "pulses"
>;

/** The one check of a run's registration, taken anew for each call: `forRun(r).runReport(…)`. */
export function grantRun(
  parts: RunParts & Pick<TenantParts, "registration">,
  registration: string,
): RunHolderFace {
  const r = parts.registration.current(registration);
  return r ? new RunFace(parts, ownerOf(r)) : new GoneRunFace();
}

class RunFace extends RpcTarget implements RunHolder {
  readonly #parts: RunParts;
  readonly #owner: RunOwner;

  constructor(parts: RunParts, owner: RunOwner) {
    super();
    this.#parts = parts;
    this.#owner = owner;
  }

  async access(run?: string): Promise<Outcome<Access>> {
    if (run !== undefined) this.#parts.pulses.beat(run, Date.now());
    return this.#parts.tokens.access();
  }

  async runInput(source: Source, orderId: string): Promise<RunInput | null> {
    const run = this.#parts.desk.book.get(source, orderId);
    return run ? { run, mapping: this.#parts.settings.mapping() } : null;
  }

  async runReport(
    source: Source,
    orderId: string,
    refundId: string | null,
    patch: RunPatch,
  ): Promise<void> {
    const changed = await this.#parts.desk.report(this.#owner, source, orderId, refundId, patch);
    this.#parts.shared.poke();
    if (changed) await this.#parts.arm();
  }

  async delivery(
    run: RunRef,
    salesOrderId: string,
    alone: boolean,
  ): Promise<Shared<Delivery | null>> {
    const { runId, order } = run;
    return this.#parts.shared.delivery({ owner: this.#owner, runId, order, salesOrderId }, alone);
  }

  async settle(
    run: RunRef,
    line: Settlement,
    alone: boolean,
  ): Promise<Shared<{ posted: boolean }>> {
    const { runId, order } = run;
    return this.#parts.shared.settle({ owner: this.#owner, runId, order, line }, alone);
  }

  async known(ask: KnownAsk): Promise<Known> {
    return this.#parts.known.recall(this.#owner.registration, ask, Date.now());
  }

  async learn(learned: Learned): Promise<void> {
    this.#parts.known.learn(this.#owner.registration, learned, Date.now());
  }

  async payoutTask(source: PayoutSource, payoutId: string, attempt: number): Promise<PayoutTask> {
    return this.#parts.payouts.task(source, payoutId, attempt);
  }

  async payoutReport(
    source: PayoutSource,
    payoutId: string,
    attempt: number,
    patch: PayoutPatch,
  ): Promise<void> {
    if (await this.#parts.payouts.report(this.#owner, source, payoutId, attempt, patch))
      await this.#parts.arm();
  }

  async knownAccounts(accountNos: number[]): Promise<KnownAccount[]> {
    // Account ids do not go stale while the account exists (see `KnownIds`): kept with the
    // settlement ids, dropped with them when the client key is replaced.
    return accountNos.flatMap((accountNo) => {
      const ids = this.#parts.settings.settlementIds(accountNo);
      return ids ? [{ accountNo, ids }] : [];
    });
  }

  async learnAccounts(found: KnownAccount[]): Promise<void> {
    for (const f of found) this.#parts.settings.rememberSettlementIds(f.accountNo, f.ids);
  }

  async payoutRead(
    source: PayoutSource,
    payoutId: string,
    attempt: number,
    read: LedgerRead,
  ): Promise<PayoutTask> {
    return this.#parts.payouts.read(source, payoutId, attempt, read);
  }

  /** The one place the Stripe key is opened: for a run the object started itself. */
  async stripeKey(): Promise<string | null> {
    return this.#parts.stripeKeys.open(this.#owner.tenant);
  }
}

const GONE = fail(
  "not-found",
  "The tenant's registration this run was started under is gone (the tenant was removed): the run stops without calling the API.",
);

const GONE_SHARED = { ok: false, retryable: false, detail: GONE.error.detail } as const;

class GoneRunFace extends RpcTarget implements RunHolder {
  async access() {
    return GONE;
  }
  async runInput() {
    return null;
  }
  async runReport() {}
  async known(): Promise<Known> {
    return { customer: null, products: [], settlement: null };
  }
  async learn() {}
  async delivery(): Promise<Shared<never>> {
    return GONE_SHARED;
  }
  async settle(): Promise<Shared<never>> {
    return GONE_SHARED;
  }
  async payoutTask(): Promise<PayoutTask> {
    return { kind: "stale" };
  }
  async payoutReport() {}
  async knownAccounts(): Promise<KnownAccount[]> {
    return [];
  }
  async learnAccounts() {}
  async payoutRead(): Promise<PayoutTask> {
    return { kind: "stale" };
  }
  async stripeKey() {
    return null;
  }
}
