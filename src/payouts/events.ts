/**
 * @module
 * Where a payout's run announces what became of it: `payout.reconciled` (its voucher is posted)
 * and `payout.unmatched` (it waits, naming what does not match). This is the one call site of
 * both events: `PayoutReconciliation` calls `announce` from a step of its own, once per attempt
 * (the engine caches a finished step, so a replayed run does not announce twice). Each goes to the
 * tenant's event log (`events/announce.ts`, `recordEvents`), keyed by the payout and its
 * attempt: a step the engine retries records nothing twice, while a payout the operator retries
 * can be unmatched (and announced) again, and then reconciled.
 */
import type { Bindings } from "../kernel/config";
import { recordEvents } from "../events/announce";
import { eventKey } from "../events/keys";
import type { Source } from "../orders/order";
import type { TenantName } from "../kernel/stubs";

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
 * The announcer of `tenant`'s payout runs: each announcement is one event of the tenant's log,
 * `{ source, payoutId, attempt, ...data }`.
 *
 * @example await payoutEvents(env, "demo:acme").announce({ type: "payout.reconciled", … })
 */
export function payoutEvents(env: Bindings, tenant: TenantName): PayoutEvents {
  return {
    announce: async ({ type, source, payoutId, attempt, data }) => {
      await recordEvents(env, tenant, [
        {
          type,
          at: Date.now(),
          data: { source, payoutId, attempt, ...data },
          key: eventKey(type, `${source}:${payoutId}`, `attempt ${attempt}`),
        },
      ]);
    },
  };
}
