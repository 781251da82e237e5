/**
 * @module
 * The Stripe key a tenant gives ledgergate: a restricted key with Read only. A secret key is
 * refused: it can move money, and holding one would make ledgergate worth robbing for no gain.
 */
import { z } from "zod";

export const StripeMode = z.enum(["test", "live"]);
export type StripeMode = z.output<typeof StripeMode>;

/** Why a key is refused, never echoing the key. */
function refusal(key: string): string {
  if (/^sk_/.test(key))
    return "This is a secret key (sk_…), which can move money. Create a restricted key (rk_…) in Stripe's dashboard with Read on Payouts, Balance, Charges, Refunds and Disputes, and give that.";
  if (/^pk_/.test(key))
    return "This is a publishable key (pk_…), which reads nothing. Give a restricted key (rk_…) with Read on Payouts, Balance, Charges, Refunds and Disputes.";
  return "Not a Stripe restricted key: expected rk_test_… or rk_live_… followed by letters and digits.";
}

export const StripeKey = z
  .string()
  .max(255)
  .superRefine((key, ctx) => {
    if (!/^rk_(test|live)_[A-Za-z0-9]{8,240}$/.test(key))
      ctx.addIssue({ code: "custom", message: refusal(key) });
  });

export const modeOf = (key: string): StripeMode => (key.startsWith("rk_live_") ? "live" : "test");
