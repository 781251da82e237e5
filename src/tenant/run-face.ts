/**
 * @module
 * The tenant object's face for an order run and a payout run. The run was started by this object
 * itself after it verified a webhook's signature with this tenant's secret, so the run holds no
 * gateway key, only the registration it was started under: `grantRun` hands out a `RunFace` while
 * that registration is current, and a `GoneRunFace` (no token, nothing read, nothing written) once
 * it is not. The two kinds of run share the face (the same grant, the same tokens), each seeing
 * the tenant through its own port: `OrderRunPort` and `PayoutRunPort`.
 */
import { RpcTarget } from "cloudflare:workers";
import type { Source } from "../orders/order";
import type { Known, KnownAsk, Learned, OrderRunPort, RunInput } from "../orders/port";
import type { RunPatch } from "../orders/runs";
import type { KnownAccount, LedgerRead, PayoutRunPort, PayoutTask } from "../payouts/port";
import type { PayoutPatch } from "../payouts/records";
import { fail, type Outcome } from "../kernel/outcome";
import type { RunOwner } from "../orders/tenant/order-desk";
import { ownerOf, type TenantParts } from "./parts";
import type { Access } from "../upstream/tenant/token-keeper";

/** What a run may do with its tenant's object: its port, and tokens for its API calls. */
export interface RunHolder extends OrderRunPort, PayoutRunPort {
  /** A token for one of the run's API calls. */
  access(): Promise<Outcome<Access>>;
}

/** What `Tenant.forRun` hands out: a `RunFace` or a `GoneRunFace`. */
export type RunHolderFace = RunHolder & RpcTarget;

/** What a run's face reads of the tenant: its run's records, its memory, its tokens and keys. */
type RunParts = Pick<
  TenantParts,
  "tokens" | "desk" | "settings" | "known" | "payouts" | "stripeKeys" | "arm"
>;

/**
 * The one check of a run's registration: the face of a run started under `registration`, bound to
 * it while it is the tenant's current one. Taken anew for each call (pipelined:
 * `stub.forRun(r).runReport(…)`), so a removal stops a run at its next call.
 */
export function grantRun(
  parts: RunParts & Pick<TenantParts, "registration">,
  registration: string,
): RunHolderFace {
  const r = parts.registration.current(registration);
  return r ? new RunFace(parts, ownerOf(r)) : new GoneRunFace();
}

/** A current registration's run. */
class RunFace extends RpcTarget implements RunHolder {
  readonly #parts: RunParts;
  readonly #owner: RunOwner;

  constructor(parts: RunParts, owner: RunOwner) {
    super();
    this.#parts = parts;
    this.#owner = owner;
  }

  async access(): Promise<Outcome<Access>> {
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
    if (await this.#parts.desk.report(this.#owner, source, orderId, refundId, patch))
      await this.#parts.arm();
  }

  async known(ask: KnownAsk): Promise<Known> {
    return this.#parts.known.recall(this.#owner.registration, ask, Date.now());
  }

  async learn(learned: Learned): Promise<void> {
    this.#parts.known.learn(this.#owner.registration, learned, Date.now());
  }

  async payoutTask(source: Source, payoutId: string, attempt: number): Promise<PayoutTask> {
    return this.#parts.payouts.task(source, payoutId, attempt);
  }

  async payoutReport(
    source: Source,
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
    source: Source,
    payoutId: string,
    attempt: number,
    read: LedgerRead,
  ): Promise<PayoutTask> {
    return this.#parts.payouts.read(source, payoutId, attempt, read);
  }

  /**
   * The one place the Stripe key is opened: for a run of this registration, which the object
   * started itself after verifying Stripe's signature (see the module comment).
   */
  async stripeKey(): Promise<string | null> {
    return this.#parts.stripeKeys.open(this.#owner.tenant);
  }
}

const GONE = fail(
  "not-found",
  "The tenant's registration this run was started under is gone (the tenant was removed): the run stops without calling the API.",
);

/** A run whose registration is gone: it gets no token, reads nothing and writes nothing. */
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
