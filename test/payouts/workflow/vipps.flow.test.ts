/**
 * Vipps MobilePay settlements read from Vipps, against the sandbox's stand-in: a day of 30 orders
 * and 2 refunds, closed and paid out net of fees, is one voucher whose bank line is the payout,
 * the Vipps clearing account back where it was and the fees on the fee account; reading the same
 * date again books nothing. A date read before it closes is tried again and booked once closed; an
 * order the tenant does not know is named and nothing is booked; a negative balance carried to the
 * next day is repaid by that day's payout, booked as it is; an unknown entry type holds the payout.
 * Under gross settlement the payout is the captures less the refunds and the fees wait for Vipps's
 * invoice. Runs are driven through Workflow introspection; reads by the operator's read call.
 */
import { env } from "cloudflare:workers";
import { introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PayoutView } from "../../../src/payouts/view";
import type { VippsView } from "../../../src/payouts/vipps/view";
import { plainOrder } from "../../fixtures/orders/payouts";
import { standardEvent } from "../../fixtures/orders/standard";
import { ADMIN, control, gw, json } from "../../helpers/gateway";
import { shopTenant, type ShopTenant } from "../../helpers/orders";

type Json = Record<string, unknown>;
const VIPPS_CLEARING = 1906;
const BANK = 1920;
const FEES = 7770;
const EVER = "fromDate=2000-01-01&toDate=2099-12-31";

/** The date `n` days before today (the reader reads dates up to yesterday). */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

interface Merchant {
  merchantSerialNumber: string;
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
  ledgerId: string;
}

const vippsOrder = (id: string, total: string) => {
  const e = plainOrder(id, total);
  return { ...e, data: { ...(e.data as Json), paymentMethod: "vipps" } };
};

/** Sends `events` and waits until every run they started has finished. */
async function settled(t: ShopTenant, ...events: Json[]) {
  await using intro = await introspectWorkflow(env.ORDER_TO_INVOICE);
  for (const e of events) expect((await t.send("standard", e)).status).toBe(202);
  const instances = await intro.get();
  expect(instances).toHaveLength(events.length);
  for (const i of instances) await i.waitForStatus("complete");
}

/** Sets `m`'s keys on the tenant, read from `since`. */
const putKeys = (t: ShopTenant, m: Merchant, since: string) =>
  gw(
    `/admin/tenants/${t.environment}/${t.client}/vipps-keys`,
    json(
      {
        clientId: m.clientId,
        clientSecret: m.clientSecret,
        subscriptionKey: m.subscriptionKey,
        merchantSerialNumber: m.merchantSerialNumber,
        orderSource: "standard",
        since,
      },
      "PUT",
      ADMIN,
    ),
  );

/** A stand-in merchant whose keys the tenant holds, read from `since`. */
async function merchantOf(t: ShopTenant, settlement: "net" | "gross", since: string) {
  const m = await control<Merchant>(
    "POST",
    "/vipps/merchants",
    { settlement, feeBasisPoints: 200 },
    201,
  );
  const res = await putKeys(t, m, since);
  expect(res.status, await res.clone().text()).toBe(200);
  const set = (await res.json()) as Json;
  // Never the keys: only their settings.
  expect(JSON.stringify(set)).not.toContain(m.clientSecret);
  expect(JSON.stringify(set)).not.toContain(m.subscriptionKey);
  return m;
}

const ledger = (m: Merchant, date: string, what: string) =>
  `/vipps/ledgers/${m.ledgerId}/dates/${date}/${what}`;

/** The operator's read of every due date; waits for the payout runs it started. */
async function read(t: ShopTenant): Promise<{ view: VippsView; runs: number }> {
  await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
  const res = await gw(`/admin/tenants/${t.environment}/${t.client}/vipps/read`, {
    method: "POST",
    headers: ADMIN,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const view = (await res.json()) as VippsView;
  const instances = await intro.get();
  for (const i of instances) await i.waitForStatus("complete");
  return { view, runs: instances.length };
}

async function payout(t: ShopTenant, id: string): Promise<PayoutView> {
  const res = await gw(`/payouts/vipps/${id}`, {
    headers: { authorization: `Bearer ${t.gatewayKey}` },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as PayoutView;
}

/** The sum of the postings on `accountNo`, in øre. */
async function sum(t: ShopTenant, accountNo: number): Promise<number> {
  const rows = await t.rows(`/AccountTransactions?accountNos=${accountNo}&${EVER}`);
  return rows.reduce((n, r) => n + Math.round(Number(r.Amount) * 100), 0);
}

/** The voucher's lines as [account number, amount in øre]. */
async function voucherLines(t: ShopTenant, id: string | null | undefined) {
  const voucher = (await (await t.v2(`/Vouchers/BankJournals/${id}`)).json()) as Json;
  const accounts = await t.rows("/GeneralLedgerAccounts");
  const noOf = (accountId: unknown) => accounts.find((a) => a.Id === accountId)?.AccountNo;
  return (voucher.VoucherLines as Json[]).map((l) => [
    noOf(l.AccountId),
    Math.round(Number(l.CurrencyAmount) * 100),
  ]);
}

describe("Vipps MobilePay settlements", () => {
  it("a net day of 30 orders and 2 refunds is one voucher: bank = payout, clearing back where it was, fees on the fee account; read again, nothing", async () => {
    const t = await shopTenant();
    const orders = Array.from({ length: 30 }, (_, i) => vippsOrder(`v-${i}`, `${100 + i}.00`));
    await settled(t, ...orders);
    await settled(
      t,
      standardEvent("order.refunded", { orderId: "v-3", id: "r-3", total: "103.00" }),
      standardEvent("order.refunded", { orderId: "v-7", id: "r-7", total: "50.00" }),
    );
    const before = await sum(t, VIPPS_CLEARING);
    // 30 orders of 100 + i kroner, less the two refunds.
    expect(before).toBe(3_000_00 + 435_00 - 103_00 - 50_00);

    const day = daysAgo(2);
    const m = await merchantOf(t, "net", day);
    const captured = await control<{ captured: number }>(
      "POST",
      ledger(m, day, "from-orders"),
      { environment: t.environment, clientId: t.clientId },
      201,
    );
    expect(captured.captured).toBe(30);
    await control(
      "POST",
      ledger(m, day, "entries"),
      {
        refunds: [
          { reference: "v-3", amount: 103_00 },
          { reference: "v-7", amount: 50_00 },
        ],
      },
      201,
    );
    const closed = await control<{ payout: { pspReference: string; amount: number } }>(
      "POST",
      ledger(m, day, "close"),
    );
    // 2 % of each capture, rounded per capture.
    const fees = Array.from({ length: 30 }, (_, i) => Math.round((100 + i) * 100 * 0.02)).reduce(
      (a, b) => a + b,
      0,
    );
    expect(closed.payout.amount).toBe(before - fees);

    const first = await read(t);
    expect(first.runs).toBe(1);
    // The day is read; the next, not closed yet, is tried again later.
    expect(first.view.lastRead).toMatchObject({ datesRead: 1, payoutsFound: 1, error: null });
    const p = await payout(t, closed.payout.pspReference);
    expect(p).toMatchObject({
      source: "vipps",
      provider: "vipps",
      state: "booked",
      issues: [],
      vipps: { ledgerId: m.ledgerId, dates: [day], feesInvoiced: "0.00" },
    });
    expect(p.lines.charge.lines).toBe(30);
    expect(p.lines.refund).toMatchObject({ lines: 2, amount: "-153.00" });
    const lines = await voucherLines(t, p.voucher?.id);
    expect(lines).toContainEqual([BANK, closed.payout.amount]);
    expect(lines).toContainEqual([VIPPS_CLEARING, -before]);
    expect(lines).toContainEqual([FEES, fees]);
    expect(lines.reduce((n, l) => n + Number(l[1]), 0)).toBe(0);
    expect(await sum(t, VIPPS_CLEARING)).toBe(0);
    expect(await sum(t, BANK)).toBe(closed.payout.amount);

    // Read again: the date is read; set the keys again from the same date and it is read anew,
    // finding the payout it booked: nothing new.
    const again = await read(t);
    expect(again).toMatchObject({ runs: 0, view: { lastRead: { datesRead: 0, payoutsFound: 0 } } });
    expect((await putKeys(t, m, day)).status).toBe(200);
    const reread = await read(t);
    expect(reread.runs).toBe(0);
    expect(reread.view.lastRead).toMatchObject({ payoutsFound: 1 });
    expect(await sum(t, BANK)).toBe(closed.payout.amount);
  });

  it("a date read before it closes is tried again and booked once closed; an unknown order is named and nothing booked", async () => {
    const t = await shopTenant();
    await settled(t, vippsOrder("k-1", "400.00"));
    const day = daysAgo(1);
    const m = await merchantOf(t, "net", day);
    await control(
      "POST",
      ledger(m, day, "entries"),
      {
        captures: [{ reference: "k-1", amount: 400_00 }],
      },
      201,
    );
    // Set keys are read ten minutes later, unless the operator reads now.
    const set = (await (
      await gw(`/admin/tenants/${t.environment}/${t.client}/vipps`, { headers: ADMIN })
    ).json()) as VippsView;
    expect(Date.parse(set.nextReadAt ?? "") - Date.parse(set.keys.setAt ?? "")).toBe(600_000);
    expect(set.lastRead).toBeNull();
    const open = await read(t);
    expect(open.runs).toBe(0);
    expect(open.view.ledgers[0]).toMatchObject({
      nextDate: day,
      dates: [{ date: day, state: "open", tries: 1 }],
    });
    // The next read is an hour on, not a day: the date is expected to close.
    const next = Date.parse(open.view.nextReadAt ?? "") - Date.parse(open.view.lastRead?.at ?? "");
    expect(next).toBe(3_600_000);
    const closed = await control<{ payout: { pspReference: string; amount: number } }>(
      "POST",
      ledger(m, day, "close"),
    );
    const done = await read(t);
    expect(done.runs).toBe(1);
    expect(done.view.ledgers[0]?.dates[0]).toMatchObject({ date: day, state: "read", tries: 2 });
    expect((await payout(t, closed.payout.pspReference)).state).toBe("booked");

    // Another tenant's ledger day holding an order this tenant never saw.
    const u = await shopTenant();
    await settled(u, vippsOrder("u-1", "100.00"));
    const n = await merchantOf(u, "net", day);
    await control(
      "POST",
      ledger(n, day, "entries"),
      {
        captures: [
          { reference: "u-1", amount: 100_00 },
          { reference: "nobody-9", amount: 70_00 },
        ],
      },
      201,
    );
    const c = await control<{ payout: { pspReference: string } }>("POST", ledger(n, day, "close"));
    await read(u);
    const held = await payout(u, c.payout.pspReference);
    expect(held).toMatchObject({ state: "unmatched", voucher: null });
    expect(held.issues).toMatchObject([{ reason: "unknown-order", orderId: "nobody-9" }]);
    expect(await sum(u, BANK)).toBe(0);
  });

  it("a negative balance is carried with no payout, and the next day's payout repays it; today is not read", async () => {
    const t = await shopTenant();
    await settled(t, vippsOrder("n-1", "300.00"), vippsOrder("n-2", "200.00"));
    const [d0, d1, d2] = [daysAgo(4), daysAgo(3), daysAgo(2)];
    const m = await merchantOf(t, "net", d0);
    await control(
      "POST",
      ledger(m, d0, "entries"),
      { captures: [{ reference: "n-1", amount: 300_00 }] },
      201,
    );
    const p0 = await control<{ payout: { pspReference: string } }>("POST", ledger(m, d0, "close"));
    await settled(
      t,
      standardEvent("order.refunded", { orderId: "n-1", id: "r-1", total: "300.00" }),
    );
    await control(
      "POST",
      ledger(m, d1, "entries"),
      { refunds: [{ reference: "n-1", amount: 300_00 }] },
      201,
    );
    expect(await control("POST", ledger(m, d1, "close"))).toMatchObject({
      payout: null,
      balanceAfter: -300_00,
    });
    await control(
      "POST",
      ledger(m, d2, "entries"),
      { captures: [{ reference: "n-2", amount: 200_00 }] },
      201,
    );
    expect(await control("POST", ledger(m, d2, "close"))).toMatchObject({
      payout: null,
      balanceAfter: -104_00,
    });
    const d3 = daysAgo(1);
    await settled(t, vippsOrder("n-3", "500.00"));
    await control(
      "POST",
      ledger(m, d3, "entries"),
      { captures: [{ reference: "n-3", amount: 500_00 }] },
      201,
    );
    const p3 = await control<{ payout: { pspReference: string; amount: number } }>(
      "POST",
      ledger(m, d3, "close"),
    );

    const r = await read(t);
    expect(r.runs).toBe(2);
    expect(r.view.ledgers[0]?.dates.map((d) => [d.date, d.payouts.length, d.balanceAfter])).toEqual(
      [
        [d3, 1, "0.00"],
        [d2, 0, "-104.00"],
        [d1, 0, "-300.00"],
        [d0, 1, "0.00"],
      ],
    );
    expect((await payout(t, p0.payout.pspReference)).state).toBe("booked");
    const repaid = await payout(t, p3.payout.pspReference);
    expect(repaid).toMatchObject({
      state: "booked",
      amount: "386.00",
      vipps: { dates: [d1, d2, d3], carriedIn: "-104.00" },
    });
    expect(p3.payout.amount).toBe(386_00);
    // Every order paid out and the refund taken back: the clearing account is even again.
    expect(await sum(t, VIPPS_CLEARING)).toBe(0);

    await settled(t, vippsOrder("n-4", "250.00"));
    const d4 = daysAgo(0);
    await control(
      "POST",
      ledger(m, d4, "entries"),
      { captures: [{ reference: "n-4", amount: 250_00 }] },
      201,
    );
    // Today is not read (dates are read up to yesterday): nothing of it yet.
    const p4 = await control<{ payout: { pspReference: string } }>("POST", ledger(m, d4, "close"));
    expect((await read(t)).runs).toBe(0);
    expect(
      (
        await gw(`/payouts/vipps/${p4.payout.pspReference}`, {
          headers: { authorization: `Bearer ${t.gatewayKey}` },
        })
      ).status,
    ).toBe(404);
  });

  it("gross settlement: the payout is the captures less the refunds, and the fees wait for Vipps's invoice", async () => {
    const t = await shopTenant();
    await settled(t, vippsOrder("g-1", "1000.00"), vippsOrder("g-2", "500.00"));
    await settled(
      t,
      standardEvent("order.refunded", { orderId: "g-2", id: "r-2", total: "500.00" }),
    );
    const day = daysAgo(1);
    const m = await merchantOf(t, "gross", day);
    await control(
      "POST",
      ledger(m, day, "entries"),
      {
        captures: [
          { reference: "g-1", amount: 1000_00 },
          { reference: "g-2", amount: 500_00 },
        ],
        refunds: [{ reference: "g-2", amount: 500_00 }],
      },
      201,
    );
    const closed = await control<{ payout: { pspReference: string; amount: number } }>(
      "POST",
      ledger(m, day, "close"),
    );
    expect(closed.payout.amount).toBe(1000_00);
    await read(t);
    const p = await payout(t, closed.payout.pspReference);
    expect(p).toMatchObject({ state: "booked", vipps: { feesInvoiced: "30.00" } });
    const lines = await voucherLines(t, p.voucher?.id);
    expect(lines.map((l) => l[0]).sort()).toEqual([VIPPS_CLEARING, BANK]);
    expect(await sum(t, FEES)).toBe(0);
    expect(await sum(t, VIPPS_CLEARING)).toBe(0);
  });

  it("an unknown entry type is held, not guessed", async () => {
    const t = await shopTenant();
    await settled(t, vippsOrder("x-1", "250.00"));
    const day = daysAgo(1);
    const m = await merchantOf(t, "net", day);
    await control(
      "POST",
      ledger(m, day, "entries"),
      {
        captures: [{ reference: "x-1", amount: 250_00 }],
        entries: [{ entryType: "interest-credited", amount: 3 }],
      },
      201,
    );
    const c = await control<{ payout: { pspReference: string } }>("POST", ledger(m, day, "close"));
    const r = await read(t);
    expect(r.view.ledgers[0]?.dates[0]).toMatchObject({ unknown: 1 });
    const p = await payout(t, c.payout.pspReference);
    expect(p).toMatchObject({
      state: "unmatched",
      voucher: null,
      lines: { unknown: { lines: 1, amount: "0.03" } },
    });
    expect(p.issues).toMatchObject([{ reason: "unknown-entry" }]);
    expect(p.issues[0]?.detail).toContain("interest-credited");
    expect(await sum(t, BANK)).toBe(0);
  });
});
