/**
 * @module
 * The one call site of `payout.reconciled` and `payout.unmatched`, announced from a step of the
 * run's own and keyed by payout and attempt: a retried step records nothing twice, while a payout
 * the operator retries can be announced again.
 */
import type { Bindings } from "../kernel/config";
import { recordEvents } from "../events/announce";
import { eventKey } from "../events/keys";
import type { TenantName } from "../kernel/stubs";
import type { PayoutSource } from "./payout";

export interface PayoutAnnouncement {
  type: "payout.reconciled" | "payout.unmatched";
  source: PayoutSource;
  payoutId: string;
  attempt: number;
  /** `payout.reconciled`: the voucher; `payout.unmatched`: the issues' count and the first few. */
  data: Record<string, string | number | null | string[]>;
}

export interface PayoutEvents {
  announce(event: PayoutAnnouncement): Promise<void>;
}

/** @example await payoutEvents(env, "demo:acme").announce({ type: "payout.reconciled", … }) */
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
