/**
 * Stripe payouts read from Stripe, against the sandbox's stand-in of Stripe's API: Stripe's own
 * `payout.paid` (signed as Stripe signs, on the Stripe webhook route) starts the payout's run once
 * Stripe says its ledger is complete; the run reads the payout's balance transactions (paged),
 * links each charge and refund to its order through the payment intent its `invoice.paid` carried,
 * and books the same one voucher as a payout event's: the bank line equal to the deposit, the fees
 * booked. A manual payout is answered 2xx and recorded with the reason, nothing booked; a payout of
 * two pages is read whole; a wrong Stripe key leaves the payout `needs-key`, nothing booked, until
 * the operator sets the right key. Runs are driven through Workflow introspection, never time.
 */
import { env } from "cloudflare:workers";
import { introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PayoutView } from "../../../src/payouts/view";
import { corpus, stripeBasil, stripeChargeRefunded } from "../../fixtures/orders/stripe";
import { stripeCheckoutCompleted, stripePayoutEvent } from "../../fixtures/orders/stripe-payouts";
import { ADMIN, gw } from "../../helpers/gateway";
import type { ShopTenant } from "../../helpers/orders";
import { setStripeKey, stripeStats, stripeTenant } from "../../helpers/stripe";

type Json = Record<string, unknown>;
const CLEARING = 1905;
const BANK = 1920;
const FEES = 7770;
const EVER = "fromDate=2000-01-01&toDate=2099-12-31";

/** NOK invoices of the Stripe corpus, and what each invoice.paid names. */
const invoices = corpus()
  .filter((c) => c.currency === "NOK")
  .map((c) => {
    const invoice = (c.payload.data as { object: Json }).object;
    return {
      event: c.payload,
      id: String(invoice.id),
      total: c.expectedTotal,
      paymentIntent: String(invoice.payment_intent),
    };
  });

/** Sends Stripe `events` and waits until every order run they started has finished. */
async function settled(t: ShopTenant, ...events: Json[]) {
  await using intro = await introspectWorkflow(env.ORDER_TO_INVOICE);
  for (const e of events) expect((await t.send("stripe", e)).status).toBe(202);
  const instances = await intro.get();
  expect(instances).toHaveLength(events.length);
  for (const i of instances) await i.waitForStatus("complete");
}

/** Sends a Stripe event and waits until the payout runs it started have finished. */
async function deliver(t: ShopTenant, event: Json, timestamp?: number) {
  await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
  const res = await t.send("stripe", event, timestamp === undefined ? {} : { timestamp });
  const answer = (await res.json()) as Json;
  const instances = await intro.get();
  for (const i of instances) await i.waitForStatus("complete");
  return { status: res.status, answer, runs: instances.length };
}

/** `GET /payouts/stripe/{id}` with the tenant's key. */
async function payout(t: ShopTenant, id: unknown): Promise<PayoutView> {
  const res = await gw(`/payouts/stripe/${String(id)}`, {
    headers: { authorization: `Bearer ${t.gatewayKey}` },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as PayoutView;
}

/** The postings on `accountNo`, and their sum in øre. */
async function postings(t: ShopTenant, accountNo: number) {
  const rows = await t.rows(`/AccountTransactions?accountNos=${accountNo}&${EVER}`);
  return { rows, sum: rows.reduce((n, r) => n + Math.round(Number(r.Amount) * 100), 0) };
}

/** The voucher's lines as [account number, amount]. */
async function voucherLines(t: ShopTenant, id: string | null | undefined) {
  const voucher = (await (await t.v2(`/Vouchers/BankJournals/${id}`)).json()) as Json;
  const accounts = await t.rows("/GeneralLedgerAccounts");
  const noOf = (accountId: unknown) => accounts.find((a) => a.Id === accountId)?.AccountNo;
  return (voucher.VoucherLines as Json[]).map((l) => [noOf(l.AccountId), l.CurrencyAmount]);
}

/** Stripe's fee on a charge of `amount` øre: 2.4 % + 2 kr, rounded to the øre. */
const feeOf = (amount: number) => Math.round(amount * 0.024) + 200;

describe("Stripe payouts", () => {
  it("an automatic payout of three orders, one refund and a Stripe fee is one bank voucher equal to the deposit, fees booked; payout.paid before Stripe's ledger is complete waits, and payout.failed reverses it", async () => {
    const t = await stripeTenant();
    const before = await stripeStats();
    const orders = invoices.slice(0, 3);
    await settled(t, ...orders.map((o) => o.event));
    const charges = await t.stripe.charges(
      orders.map((o) => ({ amount: o.total, fee: feeOf(o.total), paymentIntent: o.paymentIntent })),
    );
    const [first] = orders;
    const refunded = 10_000;
    const refund = await t.stripe.refund(charges[0]?.charge ?? "", refunded);
    await settled(
      t,
      stripeChargeRefunded(first?.event ?? {}, refunded, { refundId: refund.refund }),
    );
    await t.stripe.fee(1_500);
    const po = await t.stripe.payout({ reconciliationStatus: "in_progress" });
    const gross = orders.reduce((n, o) => n + o.total, 0);
    const fees = orders.reduce((n, o) => n + feeOf(o.total), 0) + 1_500;
    expect(po.amount).toBe(gross - refunded - fees);

    // payout.paid while Stripe's ledger is in progress: recorded, 2xx, no run yet.
    const early = await deliver(t, stripePayoutEvent("payout.paid", po));
    expect(early).toMatchObject({ status: 202, answer: { intake: "recorded" }, runs: 0 });
    expect(await payout(t, po.id)).toMatchObject({ state: "waiting", voucher: null });

    const done = await t.stripe.updatePayout(po.id, { reconciliationStatus: "completed" });
    const complete = await deliver(t, stripePayoutEvent("payout.reconciliation_completed", done));
    expect(complete).toMatchObject({ status: 202, answer: { intake: "started" }, runs: 1 });
    const p = await payout(t, po.id);
    expect(p).toMatchObject({
      state: "booked",
      provider: "stripe",
      orderSource: "stripe",
      issues: [],
      stripe: { automatic: true, transactionsRead: 6, notItemised: null },
    });
    expect(p.lines.charge.lines).toBe(3);
    expect(p.lines.refund).toEqual({ lines: 1, amount: "-100.00", fee: "0.00" });
    expect(p.lines.fee).toEqual({ lines: 1, amount: "-15.00", fee: "0.00" });
    expect(p.steps.map((s) => [s.name, s.result.stripeCalls ?? s.result.upstreamCalls])).toEqual([
      ["read Stripe payout", 1],
      ["read Stripe lines 1", 1],
      ["match", undefined],
      ["voucher ids", expect.any(Number)],
      ["post voucher", 1],
    ]);
    expect(await voucherLines(t, p.voucher?.id)).toEqual([
      [BANK, (gross - refunded - fees) / 100],
      [CLEARING, -(gross - refunded) / 100],
      [FEES, fees / 100],
    ]);
    expect((await postings(t, BANK)).sum).toBe(gross - refunded - fees);
    expect((await postings(t, CLEARING)).sum).toBe(0);
    expect((await postings(t, FEES)).sum).toBe(fees);
    // Every call to Stripe pinned its version and went with the tenant's key.
    const after = await stripeStats();
    expect(after.refused).toBe(before.refused);
    expect(after.versions["2025-03-31.basil"]).toBe((before.versions["2025-03-31.basil"] ?? 0) + 2);

    // Stripe's retry of payout.paid (signed anew) changes nothing.
    const again = await deliver(
      t,
      stripePayoutEvent("payout.paid", done),
      Math.floor(Date.now() / 1000) + 1,
    );
    expect(again).toMatchObject({ status: 200, answer: { intake: "duplicate" }, runs: 0 });
    expect((await postings(t, BANK)).rows).toHaveLength(1);

    const failed = await t.stripe.updatePayout(po.id, {
      status: "failed",
      failureCode: "account_closed",
      failureMessage: "The bank account has been closed.",
    });
    expect(await deliver(t, stripePayoutEvent("payout.failed", failed))).toMatchObject({
      status: 202,
      runs: 1,
    });
    expect(await payout(t, po.id)).toMatchObject({
      state: "reversed",
      failed: { reason: "The bank account has been closed." },
    });
    expect((await postings(t, BANK)).sum).toBe(0);
    expect((await postings(t, CLEARING)).sum).toBe(gross - refunded);
  });

  it("a manual or an instant payout is answered 2xx and recorded with the reason; nothing is booked, Stripe is not asked, and the clearing account's balance is shown instead", async () => {
    const t = await stripeTenant();
    const [order] = invoices;
    await settled(t, order?.event ?? {});
    await t.stripe.charges([{ amount: order?.total ?? 0, fee: 900 }]);
    const before = await stripeStats();
    const po = await t.stripe.payout({ automatic: false, amount: 20_000 });
    const res = await deliver(t, stripePayoutEvent("payout.paid", po));
    expect(res.status).toBe(202);
    expect(String(res.answer.detail)).toMatch(/manual payout/);
    const p = await payout(t, po.id);
    expect(p).toMatchObject({
      state: "not-itemised",
      amount: "200.00",
      voucher: null,
      issues: [],
      stripe: {
        automatic: false,
        transactionsRead: null,
        notItemised: expect.stringMatching(/^a manual payout \(automatic: false\)/),
        clearing: {
          accountNo: CLEARING,
          balance: ((order?.total ?? 0) / 100).toFixed(2),
          currency: "NOK",
        },
      },
    });
    expect(p.steps.find((s) => s.name === "clearing balance")?.result).toMatchObject({
      upstreamCalls: 1,
    });
    expect((await postings(t, BANK)).rows).toEqual([]);
    expect((await stripeStats()).requests).toBe(before.requests);
    // Not retried: nothing about it will ever match line by line.
    const retry = await gw(`/payouts/stripe/${String(po.id)}/retry`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.gatewayKey}` },
    });
    expect(retry.status).toBe(409);

    // An instant payout is not itemised either: the same, with its own reason.
    const instant = await t.stripe.payout({ method: "instant", amount: 5_000 });
    expect((await deliver(t, stripePayoutEvent("payout.paid", instant))).status).toBe(202);
    expect(await payout(t, instant.id)).toMatchObject({
      state: "not-itemised",
      voucher: null,
      stripe: { method: "instant", notItemised: expect.stringMatching(/^an instant payout/) },
    });
    expect((await postings(t, BANK)).rows).toEqual([]);
    expect((await stripeStats()).requests).toBe(before.requests);
  });

  it("a payout whose transactions span two pages is read whole and booked", async () => {
    const t = await stripeTenant();
    const [order] = invoices;
    await settled(t, order?.event ?? {});
    await t.stripe.charges([
      { amount: order?.total ?? 0, fee: 1_000, paymentIntent: order?.paymentIntent },
    ]);
    // 120 Stripe fees of 1.00 each: with the charge and the payout's own, 122 transactions.
    for (let i = 0; i < 120; i++) await t.stripe.fee(100);
    const po = await t.stripe.payout();
    const before = await stripeStats();
    await deliver(t, stripePayoutEvent("payout.paid", po));
    const p = await payout(t, po.id);
    expect(p).toMatchObject({ state: "booked", stripe: { transactionsRead: 122 } });
    expect(p.lines.fee).toEqual({ lines: 120, amount: "-120.00", fee: "0.00" });
    expect(
      p.steps.filter((s) => s.name.startsWith("read Stripe lines")).map((s) => s.result),
    ).toMatchObject([
      { transactions: 100, more: true, stripeCalls: 1 },
      { transactions: 22, more: false, stripeCalls: 1 },
    ]);
    const after = await stripeStats();
    expect(after.byPath["/v1/balance_transactions"]).toBe(
      (before.byPath["/v1/balance_transactions"] ?? 0) + 2,
    );
    expect((await postings(t, BANK)).sum).toBe(Number(po.amount));
    expect((await postings(t, FEES)).sum).toBe(1_000 + 12_000);
    expect((await postings(t, CLEARING)).sum).toBe(0);
  });

  it("an invoice of API 2025-03-31 names no payment: its Checkout Session's checkout.session.completed links the payment intent, and the payout's charge finds the order through it", async () => {
    const t = await stripeTenant();
    const [order] = invoices;
    // As Stripe sends it since 2025-03-31: no payment_intent or charge on the invoice.
    const basil = stripeBasil(order?.event ?? {});
    const data = basil.data as { object: Json };
    const { payment_intent: _pi, charge: _ch, ...invoice } = data.object;
    await settled(t, { ...basil, data: { object: invoice } });
    const paymentIntent = order?.paymentIntent ?? "";
    await t.stripe.charges([{ amount: order?.total ?? 0, fee: 800, paymentIntent }]);
    const po = await t.stripe.payout();

    // Before the link: the charge names a payment no order was paid with; nothing is booked.
    const unlinked = await deliver(t, stripePayoutEvent("payout.paid", po));
    expect(unlinked.runs).toBe(1);
    const waiting = await payout(t, po.id);
    expect(waiting.state).toBe("unmatched");
    expect(waiting.issues.map((i) => i.detail)).toEqual([
      expect.stringContaining(`payment ${paymentIntent}, which no stripe order`),
    ]);
    expect((await postings(t, BANK)).rows).toEqual([]);

    const link = await t.send("stripe", stripeCheckoutCompleted(order?.id ?? "", paymentIntent));
    expect(link.status).toBe(202);
    expect(await link.json()).toMatchObject({ intake: "recorded", run: null });
    const beforeRetry = await stripeStats();
    await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
    const retry = await gw(`/payouts/stripe/${String(po.id)}/retry`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.gatewayKey}` },
    });
    expect(retry.status).toBe(202);
    for (const i of await intro.get()) await i.waitForStatus("complete");
    const booked = await payout(t, po.id);
    expect(booked).toMatchObject({ state: "booked", attempt: 2, issues: [] });
    // The lines were read once: the retry matched them again without asking Stripe.
    expect(booked.steps.filter((s) => s.name === "read Stripe lines 1")).toHaveLength(1);
    expect((await stripeStats()).byPath).toEqual(beforeRetry.byPath);
    expect((await postings(t, BANK)).sum).toBe(Number(po.amount));
    expect((await postings(t, CLEARING)).sum).toBe(0);
  });

  it("a wrong Stripe key leaves the payout needs-key, saying Stripe refused the key, nothing booked; setting the right key reads and books it", async () => {
    const t = await stripeTenant();
    const wrong = "rk_test_NotTheAccountsKey0000000000000000";
    await setStripeKey(t, wrong);
    const [order] = invoices;
    await settled(t, order?.event ?? {});
    await t.stripe.charges([
      { amount: order?.total ?? 0, fee: 700, paymentIntent: order?.paymentIntent },
    ]);
    const po = await t.stripe.payout();
    const res = await deliver(t, stripePayoutEvent("payout.paid", po));
    expect(res).toMatchObject({ status: 202, runs: 1 });
    const refused = await payout(t, po.id);
    expect(refused).toMatchObject({
      state: "needs-key",
      voucher: null,
      error: {
        step: "read Stripe payout",
        detail: expect.stringMatching(/^Stripe refused the key/),
      },
      stripe: { transactionsRead: null },
    });
    expect((await postings(t, BANK)).rows).toEqual([]);
    // The request log has Stripe's refusal, with no part of the key.
    const log = await gw(`/admin/tenants/${t.environment}/${t.client}/requests`, {
      headers: ADMIN,
    });
    const text = await log.text();
    const rows = (JSON.parse(text) as { requests: Json[] }).requests;
    expect(rows.find((r) => (r.caller as Json).kind === "stripe")).toMatchObject({
      path: `/v1/payouts/${String(po.id)}`,
      apiStatus: 401,
      caller: { kind: "stripe" },
    });
    expect(text).not.toContain(wrong.slice(8, 20));
    expect(text).not.toContain(t.stripe.key);

    await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
    expect((await setStripeKey(t, t.stripe.key)).payoutsRestarted).toBe(1);
    for (const i of await intro.get()) await i.waitForStatus("complete");
    expect(await payout(t, po.id)).toMatchObject({ state: "booked", attempt: 2, error: null });
    expect((await postings(t, BANK)).sum).toBe(Number(po.amount));
  });
});
