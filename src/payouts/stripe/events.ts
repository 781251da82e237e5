/**
 * @module
 * Stripe's verified payout events: `payout.paid` and `payout.reconciliation_completed` (lines to
 * be read from Stripe) and `payout.failed` (its voucher reversed).
 */
import { stripeMinor } from "../../ledger/money";
import type { OrderEvent } from "../../orders/order";
import { parseWith } from "../../orders/adapters/payload";
import type { Refusal } from "../../orders/adapters/source";
import type { Result } from "../../kernel/result";
import { StripePayout } from "./api";

export const STRIPE_PAYOUT_EVENTS = [
  "payout.paid",
  "payout.reconciliation_completed",
  "payout.failed",
] as const;

/** The day (UTC) of a Stripe timestamp: `arrival_date` is midnight UTC of the bank's day. */
const dayOf = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);

/** The events of a verified Stripe payout event; a malformed payout is a 400 naming the field. */
export function stripePayoutEvents(
  type: (typeof STRIPE_PAYOUT_EVENTS)[number],
  object: unknown,
  created: number,
): Result<OrderEvent[], Refusal> {
  const parsed = parseWith(StripePayout, object, "Stripe payout");
  if (!parsed.ok) return parsed;
  const p = parsed.value;
  if (type === "payout.failed")
    return {
      ok: true,
      value: [
        {
          kind: "payout",
          event: {
            kind: "payout-failed",
            payoutId: p.id,
            at: new Date(created * 1000).toISOString(),
            reason: p.failure_message ?? p.failure_code ?? null,
          },
        },
      ],
    };
  const currency = p.currency.toUpperCase();
  return {
    ok: true,
    value: [
      {
        kind: "payout",
        event: {
          kind: "payout-read",
          payout: {
            id: p.id,
            provider: "stripe",
            currency,
            amount: stripeMinor(p.amount, currency),
            arrivalDate: dayOf(p.arrival_date),
            orderSource: "stripe",
            lines: [],
          },
          facts: {
            automatic: p.automatic,
            method: p.method,
            // The second event says the ledger is complete whatever the object's copy says.
            reconciliation:
              type === "payout.reconciliation_completed" ? "completed" : p.reconciliation_status,
          },
        },
      },
    ],
  };
}
