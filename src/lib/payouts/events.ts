/**
 * @module
 * Where a payout's run announces what became of it: `payout.reconciled` (its voucher is posted)
 * and `payout.unmatched` (it waits, naming what does not match). This is the one call site of
 * both events: `PayoutReconciliation` calls `announce` from a step of its own, once per attempt
 * (the engine caches a finished step, so a replayed run does not announce twice).
 *
 * Not wired yet: the tenant's event log and its delivery to subscribed endpoints are the events
 * unit's (`/events/*`), built on another branch. Until the two are merged `payoutEvents` answers a
 * port that records nothing; wiring it is this function's body only, e.g. appending to the
 * tenant's event log through its face, with the event's id made of the payout, its attempt and
 * the type (the log's de-duplication key), so a replayed step cannot add a second event.
 */
import type { Bindings } from "../config";
import type { Source } from "../orders/order";
import type { TenantName } from "../stubs";

/** One announcement: which payout, which attempt, and what the run found. */
export interface PayoutAnnouncement {
  type: "payout.reconciled" | "payout.unmatched";
  source: Source;
  payoutId: string;
  attempt: number;
  /** `payout.reconciled`: the voucher; `payout.unmatched`: the issues' count and the first few. */
  data: Record<string, string | number | null | string[]>;
}

/** The port a payout run announces through. */
export interface PayoutEvents {
  announce(event: PayoutAnnouncement): Promise<void>;
}

/**
 * The announcer of `tenant`'s payout runs (under `registration`). Answers a port that records
 * nothing until the events unit is merged (see the module's comment).
 */
export function payoutEvents(
  _env: Bindings,
  _tenant: TenantName,
  _registration: string,
): PayoutEvents {
  return { announce: async () => undefined };
}
