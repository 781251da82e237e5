/**
 * @module
 * The Stripe key on a tenant's payouts page: whether one is set, its mode and when (never the key
 * itself, nor any part of it), a form to set one and a button to forget it. A saved key is never
 * put back on a page; a refused one is not either (the form comes back empty, with the reason).
 */
import type { StripeKeyStatus } from "./tenant/stripe-key";
import type { Flash } from "../console/flash";
import { when } from "../console/views";
import { Csrf } from "../console/layout";
import { FormMessage } from "../console/pages/feedback";

/** The Stripe section: the key's state, its form, and Remove. */
export function StripeKeySection(p: {
  csrf: string;
  action: string;
  status: StripeKeyStatus;
  flash: Flash | undefined;
}) {
  const s = p.status;
  return (
    <section aria-labelledby="stripe">
      <h2 id="stripe">Stripe</h2>
      <FormMessage flash={p.flash} at="stripe" />
      <p>
        {s.set && s.setAt
          ? `A Stripe key is set (${s.mode} mode), since ${when(s.setAt)}. It is not shown again.`
          : "No Stripe key is set: Stripe payouts wait for one (needs-key)."}
      </p>
      <p class="muted">
        Stripe payouts are read from Stripe with this key: a restricted key (rk_…) with Read on
        Payouts, Balance, Charges, Refunds and Disputes. A secret key (sk_…) is refused.
      </p>
      <form method="post" action={p.action}>
        <Csrf token={p.csrf} />
        <label for="stripe-key">{s.set ? "Replace the Stripe key" : "Stripe restricted key"}</label>
        <input
          id="stripe-key"
          name="key"
          type="password"
          autocomplete="off"
          placeholder="rk_live_…"
          required
          maxlength={255}
        />
        <button type="submit">Save Stripe key</button>
      </form>
      {s.set ? (
        <form method="post" action={`${p.action}/remove`}>
          <Csrf token={p.csrf} />
          <button type="submit">Remove the Stripe key</button>
        </form>
      ) : null}
    </section>
  );
}
