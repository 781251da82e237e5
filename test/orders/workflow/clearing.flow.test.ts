/**
 * A paid order settles to the clearing account of the provider that pays it out, read from how the
 * shop says the buyer paid: Vipps through Shopify or the own JSON to Vipps's, Klarna through
 * WooCommerce to Klarna's, any Stripe invoice to Stripe's, a method no rule knows to the default the
 * operator names. Seen through the API: the account's transactions grow by exactly the order's
 * total. A batch of two providers' orders is one voucher with one clearing line per provider. A
 * tenant from before providers keeps its per-source accounts until it switches; a payout then
 * credits each account its orders were settled to, and no provider's account may take one that
 * holds other money.
 */
import { env } from "cloudflare:workers";
import { introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { corpus as shopifyCorpus } from "../../fixtures/orders/shopify";
import { corpus as stripeCorpus } from "../../fixtures/orders/stripe";
import { corpus as wooCorpus } from "../../fixtures/orders/woocommerce";
import { minor, payoutPaid, plainOrder } from "../../fixtures/orders/payouts";
import { ADMIN, gw, json } from "../../helpers/gateway";
import { shopTenant, waitFor, type ShopTenant, type Source } from "../../helpers/orders";

type Json = Record<string, unknown>;
const EVER = "fromDate=2000-01-01&toDate=2099-12-31";

const nok = <T extends { currency: string }>(cases: T[]) => {
  const c = cases.find((x) => x.currency === "NOK");
  if (!c) throw new Error("no NOK case in the corpus");
  return c;
};

/** The sum of the postings on `accountNo`, in øre. */
async function held(t: ShopTenant, accountNo: number): Promise<number> {
  const rows = await t.rows(`/AccountTransactions?accountNos=${accountNo}&${EVER}`);
  return rows.reduce((n, r) => n + Math.round(Number(r.Amount) * 100), 0);
}

/** Sends one order and waits until it is settled; answers its run's payment and total. */
async function settle(t: ShopTenant, source: Source, payload: Json, orderId: string) {
  expect((await t.send(source, payload)).status).toBe(202);
  const run = await waitFor(t, source, orderId, ["settled", "failed"]);
  expect(run.state, JSON.stringify(run.error)).toBe("settled");
  return run as typeof run & { payment: Json; total: string };
}

/** Sends own-JSON `events` at once and waits until every run they started has finished. */
async function settledAll(t: ShopTenant, ...events: Json[]) {
  await using intro = await introspectWorkflow(env.ORDER_TO_INVOICE);
  for (const e of events) expect((await t.send("standard", e)).status).toBe(202);
  const instances = await intro.get();
  expect(instances).toHaveLength(events.length);
  for (const i of instances) await i.waitForStatus("complete");
}

const withMethod = (event: Json, paymentMethod: string) => ({
  ...event,
  data: { ...(event.data as Json), paymentMethod },
});

async function putMapping(t: ShopTenant, mapping: Json) {
  return gw(
    `/admin/tenants/${t.environment}/${t.client}/order-mapping`,
    json(mapping, "PUT", ADMIN),
  );
}

describe("clearing per provider", () => {
  it("each order settles to its provider's account, which grows by exactly the order's total; the run says how it was paid", async () => {
    const t = await shopTenant();
    const mapping = (await (
      await gw(`/admin/tenants/${t.environment}/${t.client}/order-mapping`, { headers: ADMIN })
    ).json()) as Json;
    expect(mapping).toMatchObject({
      clearingBy: "provider",
      providerAccounts: {
        stripe: 1905,
        vipps: 1906,
        klarna: 1907,
        paypal: 1908,
        card: 1909,
        other: 1910,
      },
      unknownPaymentMethod: "other",
    });

    const shop = nok(shopifyCorpus());
    const shopVipps = { ...shop.payload, payment_gateway_names: ["gift_card", "Vipps"] };
    const a = await settle(t, "shopify", shopVipps, String(shop.payload.id));
    expect(a.payment).toEqual({
      method: "Vipps",
      title: null,
      provider: "vipps",
      clearingAccount: 1906,
    });
    expect(await held(t, 1906)).toBe(minor(a.total));

    const woo = nok(wooCorpus());
    const wooKlarna = { ...woo.payload, payment_method: "kco", payment_method_title: "Klarna" };
    const b = await settle(t, "woocommerce", wooKlarna, String(woo.payload.id));
    expect(b.payment).toEqual({
      method: "kco",
      title: "Klarna",
      provider: "klarna",
      clearingAccount: 1907,
    });
    expect(await held(t, 1907)).toBe(minor(b.total));

    const stripe = nok(stripeCorpus());
    const invoice = (stripe.payload.data as { object: Json }).object;
    const c = await settle(t, "stripe", stripe.payload, String(invoice.id));
    expect(c.payment).toMatchObject({
      method: "stripe",
      provider: "stripe",
      clearingAccount: 1905,
    });
    expect(await held(t, 1905)).toBe(minor(c.total));

    await settledAll(
      t,
      withMethod(plainOrder("own-vipps", "300.00"), "vipps"),
      withMethod(plainOrder("own-btc", "70.00"), "bitcoin"),
    );
    // Vipps's account holds the Shopify order and the own one; the unknown method went to "other".
    expect(await held(t, 1906)).toBe(minor(a.total) + 30_000);
    expect(await held(t, 1910)).toBe(7_000);
    // The bank is untouched until a payout.
    expect(await held(t, 1920)).toBe(0);
  });

  it("the operator's own names and default: a method it names goes to its provider, an unknown one to the default it chose", async () => {
    const t = await shopTenant({
      paymentMethods: { "Bitcoin-betaling": "paypal" },
      unknownPaymentMethod: "card",
    });
    await settledAll(
      t,
      withMethod(plainOrder("m-1", "100.00"), "bitcoin-BETALING"),
      withMethod(plainOrder("m-2", "40.00"), "gavekort"),
    );
    expect(await held(t, 1908)).toBe(10_000);
    expect(await held(t, 1909)).toBe(4_000);
  });

  it("orders of two providers on the way together: one voucher, one clearing line per provider", async () => {
    const t = await shopTenant();
    await settledAll(
      t,
      withMethod(plainOrder("v-1", "100.00"), "vipps"),
      withMethod(plainOrder("v-2", "200.00"), "vipps"),
      withMethod(plainOrder("k-1", "50.00"), "klarna"),
      withMethod(plainOrder("k-2", "25.00"), "klarna"),
    );
    const accounts = await t.rows("/GeneralLedgerAccounts?accountNos=1906,1907");
    const idOf = (no: number) => accounts.find((x) => x.AccountNo === no)?.Id;
    const rows = await t.rows(`/AccountTransactions?accountNos=1906,1907&${EVER}`);
    // One voucher for the four (as test/orders/workflow/shared-calls.flow.test.ts shows of ten),
    // its clearing lines one per provider, each the sum of that provider's orders.
    expect(new Set(rows.map((r) => r.VoucherId)).size).toBe(1);
    expect(rows.map((r) => [r.AccountId, Math.round(Number(r.Amount) * 100)]).sort()).toEqual(
      [
        [idOf(1906), 30_000],
        [idOf(1907), 7_500],
      ].sort(),
    );
  });

  it("a tenant on per-source accounts switches: old orders stay where they were, a payout credits each account its orders were settled to, and no provider may take an account that holds other money", async () => {
    const t = await shopTenant({ clearingBy: "source" });
    await settledAll(t, withMethod(plainOrder("old-1", "400.00"), "vipps"));
    expect(await held(t, 1904)).toBe(40_000);

    // 1904 holds a Vipps order: Klarna's money may not join it (Vipps's may).
    const refused = await putMapping(t, { providerAccounts: { klarna: 1904 } });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      errors: [
        {
          path: "providerAccounts.klarna",
          message: expect.stringContaining("account 1904 holds vipps's orders"),
        },
      ],
    });
    expect((await putMapping(t, { providerAccounts: { vipps: 1906, klarna: 1906 } })).status).toBe(
      422,
    );

    expect((await putMapping(t, { clearingBy: "provider" })).status).toBe(200);
    await settledAll(t, withMethod(plainOrder("new-1", "100.00"), "vipps"));
    expect(await held(t, 1906)).toBe(10_000);
    expect(await held(t, 1904)).toBe(40_000);

    await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
    const payout = payoutPaid(
      "po-mixed",
      [
        { type: "charge", orderId: "old-1", amount: "400.00", fee: "4.00" },
        { type: "charge", orderId: "new-1", amount: "100.00", fee: "1.00" },
      ],
      { provider: "vipps" },
    );
    expect((await t.send("standard", payout)).status).toBe(202);
    for (const i of await intro.get()) await i.waitForStatus("complete");
    // Each account back to zero: the payout took from each exactly what was settled there.
    expect(await held(t, 1904)).toBe(0);
    expect(await held(t, 1906)).toBe(0);
    expect(await held(t, 1920)).toBe(49_500);
  });
});
