/**
 * @module
 * A tenant's payouts on the console: the list with the accounts and the unpaid orders, one payout,
 * its Retry and, when it pays out no order, its Confirm and book (the operator's alone), creating a
 * missing account, the Stripe key (set, never shown, removed) and the Vipps keys (set, removed,
 * read now). Read through the operator's face
 * (`asOperatorOf`, `console/tenant-kit.tsx`): the session is the authority here, as the gateway
 * key is on `/payouts`.
 */
import { tenantPath } from "../console/views";
import { unwrap } from "../kernel/outcome";
import { tenantName } from "../kernel/stubs";
import { accountRoles, checkAccounts, createAccount } from "./accounts";
import { VippsKeysInput } from "./vipps/keys";
import { seeWith, takeFlash } from "../console/flash-redirect";
import { PayoutPage, payoutPath, PayoutsPage } from "./console-page";
import * as route from "./console-contract";
import { html, see } from "../console/render";
import { asOperatorOf, started, tenantOwner } from "../console/tenant-kit";
import type { ConsoleRouter } from "../console/router";

/** Most payouts and unpaid orders one page lists. */
const PER_PAGE = 200;

/** Binds the payout pages to `router`. */
export function payoutRoutes(router: ConsoleRouter) {
  return router
    .openapi(route.payoutsPage, async (c) => {
      const p = c.req.valid("param");
      const state = c.req.valid("query").state ?? null;
      const owner = tenantOwner(c, p);
      const [payouts, mapping, unpaid, held, stripeKey, vipps] = await asOperatorOf(c, p, (f) =>
        Promise.all([
          f.payouts(state, PER_PAGE),
          f.orderMapping(),
          f.unpaidOrders(PER_PAGE),
          f.clearingHeld(),
          f.stripeKey(),
          f.vipps(),
        ]),
      );
      const m = unwrap(mapping);
      return html(
        c,
        <PayoutsPage
          {...owner}
          payouts={unwrap(payouts)}
          state={state}
          accounts={await checkAccounts(c.env, owner.tenant, m)}
          settlesToOneAccount={m.settlementAccount}
          unpaid={unwrap(unpaid)}
          held={unwrap(held)}
          stripeKey={unwrap(stripeKey)}
          vipps={unwrap(vipps)}
          flash={(await takeFlash(c)) ?? undefined}
        />,
      );
    })
    .openapi(route.payoutPage, async (c) => {
      const { source, payoutId, ...p } = c.req.valid("param");
      const payout = unwrap(await asOperatorOf(c, p, (f) => f.payout(source, payoutId)));
      return html(c, <PayoutPage {...tenantOwner(c, p)} payout={payout} />);
    })
    .openapi(route.retryPayout, async (c) => {
      const { source, payoutId, ...p } = c.req.valid("param");
      started(await asOperatorOf(c, p, (f) => f.retryPayout(source, payoutId)));
      return see(c, payoutPath(p, { source, payoutId }));
    })
    .openapi(route.confirmPayout, async (c) => {
      const { source, payoutId, ...p } = c.req.valid("param");
      started(await asOperatorOf(c, p, (f) => f.confirmPayout(source, payoutId)));
      return see(c, payoutPath(p, { source, payoutId }));
    })
    .openapi(route.setStripeKey, async (c) => {
      const p = c.req.valid("param");
      const back = tenantPath(p.environment, p.client, "/payouts");
      const set = await asOperatorOf(c, p, (f) => f.setStripeKey(c.req.valid("form").key));
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
      const p = c.req.valid("param");
      unwrap(await asOperatorOf(c, p, (f) => f.removeStripeKey()));
      return seeWith(c, tenantPath(p.environment, p.client, "/payouts"), {
        at: "stripe",
        notice: "The Stripe key is forgotten.",
      });
    })
    .openapi(route.setVippsKeys, async (c) => {
      const p = c.req.valid("param");
      const back = tenantPath(p.environment, p.client, "/payouts");
      const { csrf: _, since, ...form } = c.req.valid("form");
      const input = VippsKeysInput.safeParse({ ...form, ...(since ? { since } : {}) });
      // A refused form goes back with the reason, never with a key.
      if (!input.success)
        return seeWith(c, back, {
          at: "vipps",
          error: `${input.error.issues[0]?.path.join(".") ?? "form"}: ${input.error.issues[0]?.message ?? "not valid"}`,
        });
      const set = await asOperatorOf(c, p, (f) => f.setVippsKeys(input.data));
      if (!set.ok && set.error.reason === "bad-request")
        return seeWith(c, back, { at: "vipps", error: set.error.detail });
      unwrap(set);
      return seeWith(c, back, {
        at: "vipps",
        notice:
          "The Vipps keys are set: the first read is in ten minutes, or now with Read Vipps now.",
      });
    })
    .openapi(route.removeVippsKeys, async (c) => {
      const p = c.req.valid("param");
      unwrap(await asOperatorOf(c, p, (f) => f.removeVippsKeys()));
      return seeWith(c, tenantPath(p.environment, p.client, "/payouts"), {
        at: "vipps",
        notice: "The Vipps keys are forgotten; what was read and booked stays.",
      });
    })
    .openapi(route.readVipps, async (c) => {
      const p = c.req.valid("param");
      const back = tenantPath(p.environment, p.client, "/payouts");
      const read = await asOperatorOf(c, p, (f) => f.readVipps());
      if (!read.ok && read.error.reason === "conflict")
        return seeWith(c, back, { at: "vipps", error: read.error.detail });
      const last = unwrap(read).lastRead;
      return seeWith(c, back, {
        at: "vipps",
        ...(last?.error
          ? { error: `The read stopped: ${last.error}` }
          : {
              notice: `Read ${last?.datesRead ?? 0} dates; ${last?.payoutsFound ?? 0} payouts found.`,
            }),
      });
    })
    .openapi(route.createAccount, async (c) => {
      const p = c.req.valid("param");
      const back = tenantPath(p.environment, p.client, "/payouts");
      const accountNo = Number(c.req.valid("form").accountNo);
      const mapping = unwrap(await asOperatorOf(c, p, (f) => f.orderMapping()));
      // Only an account the mapping posts to: the form is not a way to edit the chart at large.
      const role = accountRoles(mapping).find((a) => a.accountNo === accountNo);
      if (!role)
        return seeWith(c, back, {
          at: "accounts",
          error: `Account ${accountNo} is not one the order mapping posts to; nothing was created.`,
        });
      await createAccount(c.env, tenantName(p.environment, p.client), role);
      return seeWith(c, back, {
        at: "accounts",
        notice: `Account ${accountNo} ${role.name} created in the client's chart.`,
      });
    });
}
