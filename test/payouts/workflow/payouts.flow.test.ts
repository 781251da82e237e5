/**
 * Payouts against the sandbox: paid orders settle to their source's clearing account (the bank
 * untouched); a `payout.paid` of their charges becomes one balancing bank voucher whose bank line
 * is the deposit and whose fees are on the fee account; the same payout again posts nothing; a
 * line for an unknown order waits unmatched, naming it, with nothing posted, and is booked once the
 * order has settled and the payout is retried; `payout.failed` reverses a booked voucher; a voucher
 * an earlier attempt posted is found by its reference, not posted twice. A payout that pays out no
 * order is held unmatched with nothing posted, and a line signed as no ledger signs it is refused
 * before anything is stored. Only the operator can confirm such a payout (never its gateway key,
 * whose retry holds it again): it is then booked as one voucher with every other check kept, and a
 * delivery with other lines needs a confirmation of its own. Runs are driven through Workflow
 * introspection: each test waits for its instances to finish, never for time.
 */
import { env } from "cloudflare:workers";
import { introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PayoutView } from "../../../src/payouts/view";
import { payoutFailed, payoutPaid, plainOrder } from "../../fixtures/orders/payouts";
import { standardEvent } from "../../fixtures/orders/standard";
import { feed } from "../../helpers/events";
import { ADMIN, gw, json } from "../../helpers/gateway";
import { shopTenant, type ShopTenant } from "../../helpers/orders";

type Json = Record<string, unknown>;
/** Where the own JSON's orders that name no payment method wait: the provider "other". */
const CLEARING = 1910;
const BANK = 1920;
const FEES = 7770;
const EVER = "fromDate=2000-01-01&toDate=2099-12-31";

/** Sends `events` and waits until every run they started has finished. */
async function settled(t: ShopTenant, ...events: Json[]) {
  await using intro = await introspectWorkflow(env.ORDER_TO_INVOICE);
  for (const e of events) expect((await t.send("standard", e)).status).toBe(202);
  const instances = await intro.get();
  expect(instances).toHaveLength(events.length);
  for (const i of instances) await i.waitForStatus("complete");
}

/**
 * Sends a payout event and, when it starts a run, waits until the run has finished; answers the
 * webhook's status and how many runs it started.
 */
async function deliverPayout(t: ShopTenant, event: Json) {
  await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
  const res = await t.send("standard", event);
  const answer = (await res.json()) as Json;
  const instances = await intro.get();
  for (const i of instances) await i.waitForStatus("complete");
  return { status: res.status, answer, runs: instances.length };
}

/** `GET /payouts/standard/{id}` with the tenant's key. */
async function payout(t: ShopTenant, id: string): Promise<PayoutView> {
  const res = await gw(`/payouts/standard/${id}`, {
    headers: { authorization: `Bearer ${t.gatewayKey}` },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as PayoutView;
}

/** The ids of `GET /payouts/unpaid-orders`. */
async function unpaid(t: ShopTenant): Promise<string[]> {
  const res = await gw("/payouts/unpaid-orders", {
    headers: { authorization: `Bearer ${t.gatewayKey}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { orders: { orderId: string }[] }).orders.map((o) => o.orderId);
}

/**
 * `POST /payouts/standard/{id}/retry` with the tenant's key, or the operator's confirmation of
 * `POST /admin/…/payouts/standard/{id}/confirm` with `headers`; waits for the runs it started.
 */
async function act(t: ShopTenant, id: string, how: "retry" | "confirm", headers: HeadersInit) {
  const path =
    how === "retry"
      ? `/payouts/standard/${id}/retry`
      : `/admin/tenants/${t.environment}/${t.client}/payouts/standard/${id}/confirm`;
  await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
  const res = await gw(path, { method: "POST", headers });
  const answer = (await res.json()) as Json;
  const instances = await intro.get();
  for (const i of instances) await i.waitForStatus("complete");
  return { status: res.status, answer, runs: instances.length };
}

/** The voucher's lines by account number: each line's amount in its own currency. */
async function voucherLines(t: ShopTenant, id: string | null | undefined) {
  const voucher = (await (await t.v2(`/Vouchers/BankJournals/${id}`)).json()) as Json;
  const accounts = await t.rows("/GeneralLedgerAccounts");
  const noOf = (accountId: unknown) => accounts.find((a) => a.Id === accountId)?.AccountNo;
  return (voucher.VoucherLines as Json[]).map((l) => [
    noOf(l.AccountId),
    l.CurrencyAmount,
    l.CurrencyCode,
  ]);
}

/** The postings on `accountNo`, and their sum in øre. */
async function postings(t: ShopTenant, accountNo: number) {
  const rows = await t.rows(`/AccountTransactions?accountNos=${accountNo}&${EVER}`);
  const sum = rows.reduce((n, r) => n + Math.round(Number(r.Amount) * 100), 0);
  return { rows, sum };
}

describe("payouts", () => {
  it("two orders settle to the clearing account, the bank untouched; their payout is one balancing voucher, bank line = deposit, fees on the fee account; the same payout again posts nothing", async () => {
    const t = await shopTenant();
    await settled(t, plainOrder("o-1", "1000.00"), plainOrder("o-2", "500.00"));
    expect((await postings(t, BANK)).rows).toEqual([]);
    expect((await postings(t, CLEARING)).sum).toBe(150_000);

    const event = payoutPaid("po_1", [
      { type: "charge", orderId: "o-1", amount: "1000.00", fee: "24.00" },
      { type: "charge", orderId: "o-2", amount: "500.00", fee: "13.00" },
    ]);
    const first = await deliverPayout(t, event);
    expect(first).toMatchObject({ status: 202, answer: { intake: "started" }, runs: 1 });
    const p = await payout(t, "po_1");
    expect(p).toMatchObject({
      state: "booked",
      amount: "1463.00",
      issues: [],
      voucher: { reference: "lg:std:po:po_1", bankAccount: BANK },
    });
    expect(p.lines.charge).toEqual({ lines: 2, amount: "1500.00", fee: "37.00" });

    const voucher = (await (await t.v2(`/Vouchers/BankJournals/${p.voucher?.id}`)).json()) as Json;
    const lines = voucher.VoucherLines as Json[];
    const byAccount = async (no: number) => {
      const [a] = await t.rows(`/GeneralLedgerAccounts?accountNos=${no}`);
      return lines.filter((l) => l.AccountId === a?.Id).map((l) => l.CurrencyAmount);
    };
    expect(voucher.ExternalImportReference).toBe("lg:std:po:po_1");
    expect(lines.reduce((n, l) => n + Math.round(Number(l.CurrencyAmount) * 100), 0)).toBe(0);
    expect(await byAccount(BANK)).toEqual([1463]);
    expect(await byAccount(FEES)).toEqual([37]);
    expect(await byAccount(CLEARING)).toEqual([-1500]);
    // The bank account's transactions sum to the deposit exactly; the clearing account is even.
    expect((await postings(t, BANK)).sum).toBe(146_300);
    expect((await postings(t, CLEARING)).sum).toBe(0);

    const again = await deliverPayout(t, event);
    expect(again).toMatchObject({ status: 200, answer: { intake: "duplicate" }, runs: 0 });
    expect((await postings(t, BANK)).rows).toHaveLength(1);
    expect(await payout(t, "po_1")).toMatchObject({ state: "booked", deliveries: 2 });
  });

  it("a line for an unknown order waits unmatched, naming it, with nothing posted; once the order has settled, a retry books it", async () => {
    const t = await shopTenant();
    await settled(t, plainOrder("o-1", "200.00"));
    const res = await deliverPayout(
      t,
      payoutPaid("po_2", [
        { type: "charge", orderId: "o-1", amount: "200.00", fee: "5.00" },
        { type: "charge", orderId: "o-9", amount: "100.00", fee: "2.50" },
      ]),
    );
    expect(res.runs).toBe(1);
    const waiting = await payout(t, "po_2");
    expect(waiting).toMatchObject({ state: "unmatched", issueCount: 1, voucher: null });
    expect(waiting.issues).toEqual([
      {
        line: 1,
        orderId: "o-9",
        refundId: null,
        reason: "unknown-order",
        detail: "line 1: no standard order o-9 has reached this tenant",
      },
    ]);
    expect((await postings(t, BANK)).rows).toEqual([]);
    const list = await gw("/payouts?state=unmatched", {
      headers: { authorization: `Bearer ${t.gatewayKey}` },
    });
    expect(
      ((await list.json()) as { payouts: PayoutView[] }).payouts.map((x) => x.payoutId),
    ).toEqual(["po_2"]);

    await settled(t, plainOrder("o-9", "100.00"));
    await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
    const retried = await gw("/payouts/standard/po_2/retry", {
      method: "POST",
      headers: { authorization: `Bearer ${t.gatewayKey}` },
    });
    expect(retried.status).toBe(202);
    for (const i of await intro.get()) await i.waitForStatus("complete");
    expect(await payout(t, "po_2")).toMatchObject({ state: "booked", attempt: 2, issues: [] });
    expect((await postings(t, BANK)).sum).toBe(29_250);
    // Each attempt announced once: unmatched (naming the line), then reconciled.
    const announced = (await feed(t.gatewayKey, "&types=payout.unmatched,payout.reconciled")).map(
      (e) => ({ type: e.type, ...e.data }),
    );
    expect(announced).toMatchObject([
      {
        type: "payout.unmatched",
        source: "standard",
        payoutId: "po_2",
        attempt: 1,
        issues: 1,
        first: ["line 1: no standard order o-9 has reached this tenant"],
      },
      { type: "payout.reconciled", payoutId: "po_2", attempt: 2, deposit: "292.50" },
    ]);
  });

  it("payout.failed after a booked payout reverses its voucher: the bank is back where it was, and the orders are unpaid again", async () => {
    const t = await shopTenant();
    await settled(t, plainOrder("o-1", "300.00"));
    // Settled in March, in no payout since: listed (the mapping's 7 days are long past).
    expect(await unpaid(t)).toEqual(["o-1"]);
    await deliverPayout(
      t,
      payoutPaid("po_3", [{ type: "charge", orderId: "o-1", amount: "300.00", fee: "7.00" }]),
    );
    const booked = await payout(t, "po_3");
    expect(booked.state).toBe("booked");
    expect(await unpaid(t)).toEqual([]);
    const failed = await deliverPayout(t, payoutFailed("po_3"));
    expect(failed).toMatchObject({ status: 202, runs: 1 });
    expect(await payout(t, "po_3")).toMatchObject({
      state: "reversed",
      failed: { reason: "account closed" },
      voucher: { id: booked.voucher?.id },
    });
    const bank = await postings(t, BANK);
    expect(bank.rows).toHaveLength(2);
    expect(bank.sum).toBe(0);
    expect((await postings(t, CLEARING)).sum).toBe(30_000);
    expect(await unpaid(t)).toEqual(["o-1"]);
    // The same failure again changes nothing.
    expect(await deliverPayout(t, payoutFailed("po_3"))).toMatchObject({ status: 200, runs: 0 });
  });

  it("a voucher an earlier attempt posted is found by its reference: one voucher, the payout booked with its id", async () => {
    const t = await shopTenant();
    await settled(t, plainOrder("o-1", "100.00"));
    const [bank] = await t.rows(`/GeneralLedgerAccounts?accountNos=${BANK}`);
    const [clearing] = await t.rows(`/GeneralLedgerAccounts?accountNos=${CLEARING}`);
    // As if a crashed attempt had posted the voucher and never reported it.
    const line = (AccountId: unknown, CurrencyAmount: number) => ({
      AccountId,
      CurrencyAmount,
      VatId: 1,
      PostingDate: "2026-03-04",
    });
    const earlier = await t.v2(
      "/Vouchers/BankJournals",
      json({
        VoucherDate: "2026-03-04",
        CurrencyCode: "NOK",
        ExternalImportReference: "lg:std:po:po_4",
        VoucherLines: [line(bank?.Id, 100), line(clearing?.Id, -100)],
      }),
    );
    expect(earlier.status).toBe(201);
    const { Id } = (await earlier.json()) as { Id: string };
    await deliverPayout(
      t,
      payoutPaid("po_4", [{ type: "charge", orderId: "o-1", amount: "100.00" }]),
    );
    const p = await payout(t, "po_4");
    expect(p).toMatchObject({ state: "booked", voucher: { id: Id } });
    expect(p.steps.find((s) => s.name === "post voucher")?.result).toMatchObject({
      postedNow: false,
    });
    expect((await postings(t, BANK)).rows).toHaveLength(1);
  });

  it("refunds, fee lines, disputes and adjustments: each on its account, the clearing account even, the bank line the deposit", async () => {
    const t = await shopTenant();
    await settled(t, plainOrder("o-1", "1000.00"));
    await settled(
      t,
      standardEvent("order.refunded", { orderId: "o-1", id: "r-1", total: "200.00" }),
    );
    expect((await postings(t, CLEARING)).sum).toBe(80_000);
    await deliverPayout(
      t,
      payoutPaid("po_5", [
        { type: "charge", orderId: "o-1", amount: "1000.00", fee: "25.00" },
        { type: "refund", orderId: "o-1", refundId: "r-1", amount: "-200.00" },
        { type: "fee", amount: "-2.00" },
        { type: "dispute", orderId: "o-1", amount: "-50.00", fee: "15.00" },
        { type: "adjustment", amount: "10.00" },
      ]),
    );
    const p = await payout(t, "po_5");
    expect(p).toMatchObject({ state: "booked", amount: "718.00" });
    expect(await voucherLines(t, p.voucher?.id)).toEqual([
      [BANK, 718, "NOK"],
      [CLEARING, -800, "NOK"],
      [FEES, 42, "NOK"],
      [7790, -10, "NOK"],
      [7830, 50, "NOK"],
    ]);
    expect((await postings(t, CLEARING)).sum).toBe(0);
    expect((await postings(t, BANK)).sum).toBe(71_800);
  });

  it("a payout in another currency than its orders: the orders leave clearing at their settlement's rate, and the difference is a currency loss", async () => {
    const t = await shopTenant();
    await settled(t, plainOrder("e-1", "100.00", "EUR"));
    // The sandbox's EUR rate is 11.65 on every day: 100 EUR settled as 1165 NOK.
    expect((await postings(t, CLEARING)).sum).toBe(116_500);
    await deliverPayout(
      t,
      payoutPaid("po_6", [{ type: "charge", orderId: "e-1", amount: "1150.00", fee: "20.00" }]),
    );
    const p = await payout(t, "po_6");
    expect(p).toMatchObject({ state: "booked", amount: "1130.00", currency: "NOK" });
    expect(p.steps.find((s) => s.name === "rates")?.result).toMatchObject({ rates: 1 });
    expect(await voucherLines(t, p.voucher?.id)).toEqual([
      [BANK, 1130, "NOK"],
      [CLEARING, -100, "EUR"],
      [FEES, 20, "NOK"],
      [8160, 15, "NOK"],
    ]);
    expect((await postings(t, CLEARING)).sum).toBe(0);
    expect((await postings(t, BANK)).sum).toBe(113_000);
    expect((await postings(t, 8160)).sum).toBe(1_500);
  });

  it("a payout of one adjustment of 1,000,000.00, or one fee line, and no order is held unmatched: nothing posted", async () => {
    const t = await shopTenant();
    for (const [id, line] of [
      ["po_8", { type: "adjustment", amount: "1000000.00" }],
      ["po_9", { type: "fee", amount: "-50000.00" }],
    ] as const) {
      expect(await deliverPayout(t, payoutPaid(id, [line]))).toMatchObject({
        status: 202,
        runs: 1,
      });
      expect(await payout(t, id)).toMatchObject({
        state: "unmatched",
        issueCount: 1,
        issues: [{ line: null, reason: "needs-orders" }],
        voucher: null,
      });
    }
    expect((await postings(t, BANK)).rows).toEqual([]);
    expect((await postings(t, 7790)).rows).toEqual([]);
    expect((await postings(t, FEES)).rows).toEqual([]);
  });

  it("a line with a negative fee is refused 400 as a problem, before anything of the payout is stored or started", async () => {
    const t = await shopTenant();
    await settled(t, plainOrder("o-1", "100.00"));
    {
      await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
      const res = await t.send(
        "standard",
        payoutPaid("po_10", [
          { type: "charge", orderId: "o-1", amount: "100.00", fee: "-50000.00" },
        ]),
      );
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
      expect(await res.json()).toMatchObject({
        type: "https://ledgergate.dev/problems/bad-request",
        detail: expect.stringContaining("lines.0.fee"),
      });
      expect(await intro.get()).toHaveLength(0);
    }
    const stored = await gw("/payouts/standard/po_10", {
      headers: { authorization: `Bearer ${t.gatewayKey}` },
    });
    expect(stored.status).toBe(404);
    expect((await postings(t, BANK)).rows).toEqual([]);
    // The order is no payout's: a payout sent right pays it out.
    await deliverPayout(
      t,
      payoutPaid("po_10", [{ type: "charge", orderId: "o-1", amount: "100.00", fee: "2.00" }]),
    );
    expect(await payout(t, "po_10")).toMatchObject({ state: "booked", attempt: 1, deliveries: 1 });
  });

  it("one matched charge and an adjustment books as before: the adjustment on its account", async () => {
    const t = await shopTenant();
    await settled(t, plainOrder("o-1", "100.00"));
    await deliverPayout(
      t,
      payoutPaid("po_11", [
        { type: "charge", orderId: "o-1", amount: "100.00", fee: "2.00" },
        { type: "adjustment", amount: "10.00" },
      ]),
    );
    const p = await payout(t, "po_11");
    expect(p).toMatchObject({ state: "booked", amount: "108.00", issues: [] });
    expect(await voucherLines(t, p.voucher?.id)).toEqual([
      [BANK, 108, "NOK"],
      [CLEARING, -100, "NOK"],
      [FEES, 2, "NOK"],
      [7790, -10, "NOK"],
    ]);
    expect((await postings(t, BANK)).sum).toBe(10_800);
  });

  it("a payout of one adjustment is held needs-orders; the gateway key cannot confirm it and its retry holds it again; the operator's confirmation books it as one voucher, its bank line the deposit", async () => {
    const t = await shopTenant();
    const key = { authorization: `Bearer ${t.gatewayKey}` };
    const event = payoutPaid("po_12", [{ type: "adjustment", amount: "1000000.00" }]);
    expect(await deliverPayout(t, event)).toMatchObject({ status: 202, runs: 1 });
    expect(await payout(t, "po_12")).toMatchObject({
      state: "unmatched",
      issues: [{ line: null, reason: "needs-orders" }],
      confirmedBy: null,
      confirmedAt: null,
    });

    // The key's holder is who could have sent it: /payouts has no confirm, /admin takes no key.
    const confirmPath = `/admin/tenants/${t.environment}/${t.client}/payouts/standard/po_12/confirm`;
    expect(
      (await gw("/payouts/standard/po_12/confirm", { method: "POST", headers: key })).status,
    ).toBe(404);
    expect(await act(t, "po_12", "confirm", key)).toMatchObject({ status: 401, runs: 0 });
    expect(await act(t, "po_12", "retry", key)).toMatchObject({ status: 202, runs: 1 });
    expect(await payout(t, "po_12")).toMatchObject({
      state: "unmatched",
      attempt: 2,
      issues: [{ line: null, reason: "needs-orders" }],
      confirmedBy: null,
    });
    expect((await postings(t, BANK)).rows).toEqual([]);
    expect((await postings(t, 7790)).rows).toEqual([]);

    const confirmed = await act(t, "po_12", "confirm", ADMIN);
    expect(confirmed).toMatchObject({
      status: 202,
      runs: 1,
      answer: { payoutId: "po_12", attempt: 3, confirmedBy: "operator" },
    });
    const p = await payout(t, "po_12");
    expect(p).toMatchObject({
      state: "booked",
      attempt: 3,
      issues: [],
      confirmedBy: "operator",
      confirmedAt: confirmed.answer.confirmedAt,
      voucher: { reference: "lg:std:po:po_12", bankAccount: BANK },
    });
    expect(await voucherLines(t, p.voucher?.id)).toEqual([
      [BANK, 1_000_000, "NOK"],
      [7790, -1_000_000, "NOK"],
    ]);
    const bank = await postings(t, BANK);
    expect([bank.rows.length, bank.sum]).toEqual([1, 100_000_000]);

    // Booked: nothing left to confirm, and nothing posted twice.
    const again = await gw(confirmPath, { method: "POST", headers: ADMIN });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ type: "https://ledgergate.dev/problems/conflict" });
    expect((await postings(t, BANK)).rows).toHaveLength(1);
  });

  it("the operator's confirmation waives needs-orders alone: a deposit its lines do not explain is still held, and other lines delivered after it need a confirmation of their own", async () => {
    const t = await shopTenant();
    const wrong = payoutPaid("po_13", [{ type: "adjustment", amount: "500.00" }], {
      amount: "900.00",
    });
    await deliverPayout(t, wrong);
    expect((await act(t, "po_13", "confirm", ADMIN)).status).toBe(202);
    expect(await payout(t, "po_13")).toMatchObject({
      state: "unmatched",
      attempt: 2,
      issues: [{ line: null, reason: "deposit-differs" }],
      confirmedBy: "operator",
    });
    // Not held for needs-orders any more: nothing to confirm, nothing started.
    expect(await act(t, "po_13", "confirm", ADMIN)).toMatchObject({ status: 409, runs: 0 });

    const right = payoutPaid("po_13", [{ type: "adjustment", amount: "900.00" }]);
    expect(await deliverPayout(t, right)).toMatchObject({ status: 202, runs: 1 });
    expect(await payout(t, "po_13")).toMatchObject({
      state: "unmatched",
      attempt: 3,
      issues: [{ line: null, reason: "needs-orders" }],
      confirmedBy: null,
      confirmedAt: null,
    });
    expect((await postings(t, BANK)).rows).toEqual([]);
  });

  it("confirming a payout not held for needs-orders is 409 and starts nothing; an unknown payout, or another tenant's, is 404", async () => {
    const t = await shopTenant();
    await deliverPayout(
      t,
      payoutPaid("po_14", [{ type: "charge", orderId: "o-404", amount: "10.00" }]),
    );
    expect(await payout(t, "po_14")).toMatchObject({
      state: "unmatched",
      issues: [{ reason: "unknown-order" }],
    });
    const refused = await act(t, "po_14", "confirm", ADMIN);
    expect(refused).toMatchObject({
      status: 409,
      runs: 0,
      answer: { type: "https://ledgergate.dev/problems/conflict" },
    });
    expect(await payout(t, "po_14")).toMatchObject({ attempt: 1, confirmedBy: null });
    expect((await act(t, "po_404", "confirm", ADMIN)).status).toBe(404);
    const other = await shopTenant();
    const theirs = `/admin/tenants/${other.environment}/${other.client}/payouts/standard/po_14/confirm`;
    expect((await gw(theirs, { method: "POST", headers: ADMIN })).status).toBe(404);
  });

  it("a payout.paid with other lines replaces an unmatched payout and is reconciled again; one that differs from a booked payout is not taken", async () => {
    const t = await shopTenant();
    await settled(t, plainOrder("o-1", "100.00"));
    const wrong = payoutPaid("po_7", [{ type: "charge", orderId: "o-1", amount: "90.00" }]);
    await deliverPayout(t, wrong);
    expect(await payout(t, "po_7")).toMatchObject({
      state: "unmatched",
      issues: [{ line: 0, reason: "amount-differs" }],
    });
    const right = payoutPaid("po_7", [{ type: "charge", orderId: "o-1", amount: "100.00" }]);
    expect(await deliverPayout(t, right)).toMatchObject({ status: 202, runs: 1 });
    expect(await payout(t, "po_7")).toMatchObject({ state: "booked", attempt: 2 });
    const later = await deliverPayout(t, wrong);
    expect(later).toMatchObject({ status: 200, answer: { intake: "ignored" }, runs: 0 });
    expect((await postings(t, BANK)).rows).toHaveLength(1);
  });
});
