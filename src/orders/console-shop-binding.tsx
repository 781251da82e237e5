/**
 * @module
 * The shop a webhook source is bound to, on the tenant's page (`tenant.tsx`), with the confirm form
 * of a pin a first delivery made, and the last delivery refused for its shop.
 */
import type { ShopView } from "./tenant/webhook-setup";
import { when } from "../console/views";
import { Csrf } from "../console/layout";

/** The shop a source is bound to, or a first delivery's pin to confirm; and the last refusal. */
export function ShopBindingView(p: { csrf: string; action: string; view: ShopView }) {
  const { binding, lastRefusal } = p.view;
  return (
    <>
      {binding === null ? (
        <p class="notice" role="status">
          No shop is bound: every delivery is refused until the secret is saved with its shop
          domain.
        </p>
      ) : binding.boundBy === "operator" ? (
        <p>
          Shop: <code>{binding.shop}</code>, bound by the operator.
        </p>
      ) : (
        <form method="post" action={p.action}>
          <Csrf token={p.csrf} />
          <p class="notice" role="status">
            Shop: <code>{binding.shop}</code>, pinned by its first delivery, not by an operator. Any
            shop of the app could have sent that delivery: confirm it is this client's shop, or save
            the secret again with the right shop domain.
          </p>
          <input type="hidden" name="shop" value={binding.shop} />
          <button type="submit">{`Confirm ${binding.shop}`}</button>
        </form>
      )}
      {lastRefusal ? (
        <p class="muted">
          {`Last refused ${when(new Date(lastRefusal.at).toISOString())}: ${lastRefusal.reason} (${lastRefusal.count} refused).`}
        </p>
      ) : null}
    </>
  );
}
