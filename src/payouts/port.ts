/**
 * @module
 * What a payout's run needs from its tenant's object, and all it sees of it: the plan of the
 * payout's voucher (matched and claimed inside the object, against its order book), a place to
 * report, and the account ids earlier runs looked up. The tenant object's run face implements it
 * (`tenant/run-face.ts`, the compiler checks it there), bound to the registration the run
 * was started under, as `OrderRunPort` is: once that is gone, the run reads and writes nothing.
 */
import type { Source } from "../orders/order";
import type { SettlementIds } from "../orders/port";
import type { PayoutLine } from "./payout";
import type { BookingPlan } from "./plan";
import type { PayoutIssue, PayoutPatch, PayoutVoucher } from "./records";

/** What the payout's attempt is to do, as the object decided it when the run asked. */
export type PayoutTask =
  /** Every line matched and its orders are claimed: post this voucher. */
  | { kind: "book"; plan: BookingPlan }
  /** Some lines do not match (the record says so now): nothing to post. */
  | { kind: "unmatched"; issues: PayoutIssue[]; issueCount: number }
  /** The payout failed after its run began: reverse its voucher, if one was posted. */
  | { kind: "reverse"; voucher: PayoutVoucher | null; date: string }
  /** This attempt is no longer the payout's current one (or the payout is gone): stop. */
  | { kind: "stale" }
  /** A Stripe payout whose lines are to be read from Stripe first (`payoutRead` then). */
  | { kind: "read"; amount: number; currency: string }
  /**
   * A payout Stripe cannot itemise: read the balance of the account its orders settle to, on its
   * arrival date, to show beside it; nothing is booked.
   */
  | { kind: "balance"; accountNo: number; date: string; currency: string };

/** What reading a Stripe payout's ledger came to, for the tenant's object to take. */
export type LedgerRead =
  /** Its lines, and how many transactions were read for them (the payout's own included). */
  | { kind: "lines"; lines: PayoutLine[]; read: number }
  /** Stripe says it cannot list the payout's transactions (a manual payout), in its words. */
  | { kind: "not-itemised"; reason: string };

/** An account's ids as the tenant remembers them. */
export interface KnownAccount {
  accountNo: number;
  ids: SettlementIds;
}

/** The tenant's side of a payout run. */
export interface PayoutRunPort {
  /**
   * Starts `attempt` of the payout: matches its lines against the order book and, when all match,
   * claims their orders for it (state `running`); when some do not, records them (`unmatched`).
   */
  payoutTask(source: Source, payoutId: string, attempt: number): Promise<PayoutTask>;
  /** Records a step, a state or the voucher on `attempt` of the payout (ignored for another). */
  payoutReport(
    source: Source,
    payoutId: string,
    attempt: number,
    patch: PayoutPatch,
  ): Promise<void>;
  /** The ids remembered for these account numbers (those known). */
  knownAccounts(accountNos: number[]): Promise<KnownAccount[]>;
  /** Remembers account ids a run looked up. */
  learnAccounts(found: KnownAccount[]): Promise<void>;
  /**
   * Takes what was read of a Stripe payout on `attempt` and answers what follows: the match (the
   * lines stored and matched as a payout event's are, the same `payoutTask` answer), or the
   * balance to read instead.
   */
  payoutRead(
    source: Source,
    payoutId: string,
    attempt: number,
    read: LedgerRead,
  ): Promise<PayoutTask>;
  /**
   * The tenant's Stripe key, opened, for a Stripe read of a run (null: none is set). Call it inside
   * a step and never return it from one: a step's result is stored by the engine.
   */
  stripeKey(): Promise<string | null>;
}
