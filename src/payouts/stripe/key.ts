/**
 * @module
 * The Stripe key a tenant gives ledgergate to read its payouts: a restricted key (`rk_test_…` or
 * `rk_live_…`) with read access to Payouts, Balance and the objects a payout's lines come from
 * (Charges, Refunds, Disputes). A secret key (`sk_…`) is refused: it can move money, and nothing
 * here needs more than reading, so holding one would make ledgergate a place worth robbing for
 * no gain. A publishable key (`pk_…`) reads nothing.
 */
import { z } from "zod";

/** Whether a key belongs to Stripe's test mode or its live mode (the key says so itself). */
export const StripeMode = z.enum(["test", "live"]);
export type StripeMode = z.output<typeof StripeMode>;

/** Why a key is refused, in words for the operator (never echoing the key). */
function refusal(key: string): string {
  if (/^sk_/.test(key))
    return "This is a secret key (sk_…), which can move money. Create a restricted key (rk_…) in Stripe's dashboard with Read on Payouts, Balance, Charges, Refunds and Disputes, and give that.";
  if (/^pk_/.test(key))
    return "This is a publishable key (pk_…), which reads nothing. Give a restricted key (rk_…) with Read on Payouts, Balance, Charges, Refunds and Disputes.";
  return "Not a Stripe restricted key: expected rk_test_… or rk_live_… followed by letters and digits.";
}

/** A restricted key as the admin API and the console take it. */
export const StripeKey = z
  .string()
  .max(255)
  .superRefine((key, ctx) => {
    if (!/^rk_(test|live)_[A-Za-z0-9]{8,240}$/.test(key))
      ctx.addIssue({ code: "custom", message: refusal(key) });
  });

/** The mode of a key that passed `StripeKey`. */
export const modeOf = (key: string): StripeMode => (key.startsWith("rk_live_") ? "live" : "test");
