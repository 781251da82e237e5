/**
 * @module
 * A tenant's payouts on the console: the list with the accounts and the unpaid orders, one payout,
 * its Retry and, when it pays out no order, its Confirm and book (the operator's alone), creating a
 * missing account, and the Stripe key (set, never shown, removed). Read through the operator's face
 * (`asOperator`): the session is the authority here, as the gateway key is on `/payouts`.
 */
import { tenantPath } from "../console/views";
import { unwrap } from "../kernel/outcome";
import { accountRoles, checkAccounts, createAccount } from "./accounts";
import { Problem } from "../kernel/problem";
import { asOperator, tenantName } from "../kernel/stubs";
import { seeWith, takeFlash } from "../console/flash-redirect";
import { PayoutPage, payoutPath, PayoutsPage } from "./console-page";
import * as route from "./console-contract";
import { html, see } from "../console/render";
import type { ConsoleRouter } from "../console/router";

/** Most payouts and unpaid orders one page lists. */
const PER_PAGE = 200;

/** Binds the payout pages to `router`. */
export function payoutRoutes(router: ConsoleRouter) {
  return router
    .openapi(route.payoutsPage, async (c) => {
      const { environment, client } = c.req.valid("param");
      const state = c.req.valid("query").state ?? null;
      const name = tenantName(environment, client);
      const [payouts, mapping, unpaid, stripeKey] = await asOperator(c.env, name, (f) =>
        Promise.all([
          f.payouts(state, PER_PAGE),
          f.orderMapping(),
          f.unpaidOrders(PER_PAGE),
          f.stripeKey(),
        ]),
      );
      const m = unwrap(mapping);
      return html(
        c,
        <PayoutsPage
          csrf={c.var.console.csrf}
          tenant={name}
          environment={environment}
          client={client}
          payouts={unwrap(payouts)}
          state={state}
          accounts={await checkAccounts(c.env, name, m)}
          settlesToOneAccount={m.settlementAccount}
          unpaid={unwrap(unpaid)}
          stripeKey={unwrap(stripeKey)}
          flash={(await takeFlash(c)) ?? undefined}
        />,
      );
    })
    .openapi(route.payoutPage, async (c) => {
      const { environment, client, source, payoutId } = c.req.valid("param");
      const name = tenantName(environment, client);
      const payout = unwrap(await asOperator(c.env, name, (f) => f.payout(source, payoutId)));
      return html(
        c,
        <PayoutPage
          csrf={c.var.console.csrf}
          tenant={name}
          environment={environment}
          client={client}
          payout={payout}
        />,
      );
    })
    .openapi(route.retryPayout, async (c) => {
      const { environment, client, source, payoutId } = c.req.valid("param");
      const retried = await asOperator(c.env, tenantName(environment, client), (f) =>
        f.retryPayout(source, payoutId),
      );
      if (!retried.ok && retried.error.reason === "conflict")
        throw new Problem("conflict", `${retried.error.detail} Nothing was started.`);
      unwrap(retried);
      return see(c, payoutPath({ environment, client }, { source, payoutId }));
    })
    .openapi(route.confirmPayout, async (c) => {
      const { environment, client, source, payoutId } = c.req.valid("param");
      const confirmed = await asOperator(c.env, tenantName(environment, client), (f) =>
        f.confirmPayout(source, payoutId),
      );
      if (!confirmed.ok && confirmed.error.reason === "conflict")
        throw new Problem("conflict", `${confirmed.error.detail} Nothing was started.`);
      unwrap(confirmed);
      return see(c, payoutPath({ environment, client }, { source, payoutId }));
    })
    .openapi(route.setStripeKey, async (c) => {
      const { environment, client } = c.req.valid("param");
      const back = tenantPath(environment, client, "/payouts");
      const set = await asOperator(c.env, tenantName(environment, client), (f) =>
        f.setStripeKey(c.req.valid("form").key),
      );
      // A refused key goes back to the form with the reason, never with the key.
      if (!set.ok && set.error.reason === "bad-request")
        return seeWith(c, back, { at: "stripe", error: set.error.detail });
      const { payoutsRestarted } = unwrap(set);
      return seeWith(c, back, {
        at: "stripe",
        notice: `The Stripe key is set.${payoutsRestarted > 0 ? ` ${payoutsRestarted} payouts that waited for it are read again.` : ""}`,
      });
    })
    .openapi(route.removeStripeKey, async (c) => {
      const { environment, client } = c.req.valid("param");
      unwrap(await asOperator(c.env, tenantName(environment, client), (f) => f.removeStripeKey()));
      return seeWith(c, tenantPath(environment, client, "/payouts"), {
        at: "stripe",
        notice: "The Stripe key is forgotten.",
      });
    })
    .openapi(route.createAccount, async (c) => {
      const { environment, client } = c.req.valid("param");
      const name = tenantName(environment, client);
      const back = tenantPath(environment, client, "/payouts");
      const accountNo = Number(c.req.valid("form").accountNo);
      const mapping = unwrap(await asOperator(c.env, name, (f) => f.orderMapping()));
      // Only an account the mapping posts to: the form is not a way to edit the chart at large.
      const role = accountRoles(mapping).find((a) => a.accountNo === accountNo);
      if (!role)
        return seeWith(c, back, {
          at: "accounts",
          error: `Account ${accountNo} is not one the order mapping posts to; nothing was created.`,
        });
      await createAccount(c.env, name, role);
      return seeWith(c, back, {
        at: "accounts",
        notice: `Account ${accountNo} ${role.name} created in the client's chart.`,
      });
    });
}
