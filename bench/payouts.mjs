// The payouts part of `npm run bench` (`npm run bench -- payouts` runs only this part):
//   11. upstream calls per payout of 10, 100 and 1,000 lines, and the time from the webhook to the
//      booked voucher; baseline: a per-transaction sync (one bank voucher per line, posted
//      directly against the sandbox after one look-up of the accounts and one of the VAT codes),
//      the shape the per-transaction mode of the payout tools has. Then the same sizes as Stripe
//      payouts read from Stripe (bench/payouts-stripe.mjs): calls to the API and to Stripe; and as
//      Vipps settlements read from Vipps (bench/payouts-vipps.mjs), on orders of their own.
// A shop's tenant settles 1,111 of its own orders (paid with Vipps) first, and another 1,001
// Stripe invoices, each paid with its own payment intent (order runs at 10 req/s: several
// minutes). The shop's first payout (one order) is a warm-up that looks its account ids up,
// reported on its own; each measured payout is then booked, measured and reversed again
// (payout.failed), so the next, larger one (and the Vipps rows) can pay the same orders out.
// LEDGERGATE_BENCH_PAYOUT_LINES (e.g. `10,100`) measures other sizes, for a shorter run. Every
// figure comes from this run. Not a test: it asserts nothing.
import { randomBytes } from "node:crypto";
import { directToken, GW, json, quiet, realApiSettings, SB, sleep, stats } from "./lib.mjs";
import { naiveClient } from "./orders-baseline.mjs";
import { TOTAL, orderTenant, signed } from "./orders-shop.mjs";
import { printStripeRows, stripeRows } from "./payouts-stripe.mjs";
import { printVippsRows, vippsRows, vippsTenant } from "./payouts-vipps.mjs";
import { invoicePaid, sendStripe, untilStripeOrder, withStripe } from "./stripe-shop.mjs";

const SIZES = (process.env.LEDGERGATE_BENCH_PAYOUT_LINES?.trim() || "10,100,1000")
  .split(",")
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0 && n <= 5000);
/** The provider's fee on each bench order (3 509.50): 2.4 % + 2.00, as a card fee might be. */
const FEE = "86.23";
const NET = (Math.round(Number(TOTAL) * 100) - Math.round(Number(FEE) * 100)) / 100;
const ENDED = new Set(["booked", "unmatched", "failed", "reversed", "cancelled"]);

/** Sends a payout event of ledgergate's JSON to `tenant`; the HTTP status. */
async function sendPayout(tenant, type, data) {
  const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
  const headers = signed(
    tenant.secret,
    body,
    `msg_${randomBytes(12).toString("hex")}`,
    Math.floor(Date.now() / 1000),
  );
  const res = await fetch(`${GW}/webhooks/standard/${tenant.slug}/demo`, {
    method: "POST",
    headers,
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** `payout.paid` of the shop's own orders `ids`, each with the bench's fee; the deposit their net. */
const payoutOf = (id, ids) => ({
  id,
  provider: "vipps",
  orderSource: "standard",
  currency: "NOK",
  amount: (NET * ids.length).toFixed(2),
  arrivalDate: new Date().toISOString().slice(0, 10),
  lines: ids.map((orderId) => ({ type: "charge", orderId, amount: TOTAL, fee: FEE })),
});

/** Polls until payout `id` is in a state `until` accepts; the payout. */
async function untilPayout(tenant, id, until = (p) => ENDED.has(p?.state), timeoutMs = 120_000) {
  const t0 = Date.now();
  let p = null;
  while (Date.now() - t0 < timeoutMs) {
    p = await json("GET", `${GW}/payouts/standard/${id}`, undefined, {
      authorization: `Bearer ${tenant.gatewayKey}`,
    });
    if (until(p)) return p;
    await sleep(100);
  }
  return p;
}

/** A payout sent, waited for and counted: upstream calls, seconds, its state. */
async function measured(tenant, id, ids) {
  await quiet(1000, 20_000);
  const s0 = await stats();
  const t0 = Date.now();
  const status = await sendPayout(tenant, "payout.paid", payoutOf(id, ids));
  const p = await untilPayout(tenant, id);
  const seconds = (Date.now() - t0) / 1000;
  await quiet(500, 10_000);
  const s1 = await stats();
  const steps = (p?.steps ?? []).map((s) => `${s.name}: ${s.result?.upstreamCalls ?? 0}`);
  return { status, state: p?.state, calls: s1.requests - s0.requests, seconds, steps, p };
}

/** Runs 9; answers a function that prints its table. */
export async function payoutsBench(keys) {
  await realApiSettings();
  const notes = [];
  const tenant = await withStripe(await orderTenant("payouts"));
  const orders = Array.from({ length: Math.max(...SIZES) + 1 }, (_, i) => `in_bench_o${i}`);
  const s0 = await stats();
  const t0 = Date.now();
  // Fifty at a time, each batch settled before the next: a thousand Workflow instances at once
  // would measure the local engine, not the payouts.
  const unsettled = [];
  for (let i = 0; i < orders.length; i += 50) {
    const batch = orders.slice(i, i + 50);
    await Promise.all(batch.map((id) => sendStripe(tenant, invoicePaid(id))));
    for (const id of batch) {
      const run = await untilStripeOrder(tenant, id, 300_000);
      if (run?.state !== "settled") unsettled.push(`${id}: ${run?.state}`);
    }
  }
  const setup = {
    seconds: (Date.now() - t0) / 1000,
    calls: (await stats()).requests - s0.requests,
  };
  if (unsettled.length)
    notes.push(`${unsettled.length} orders did not settle (${unsettled.slice(0, 3).join(", ")})`);
  const [, ...rest] = orders;
  // The own JSON's payouts pay out the shop's own orders (a Standard sender may not claim Stripe's):
  // Vipps orders of a tenant of their own, paid out again by the Vipps rows once reversed.
  const v0 = Date.now();
  const shop = await vippsTenant(SIZES.reduce((a, b) => a + b, 0) + 1, notes);
  const shopSetup = (Date.now() - v0) / 1000;
  const [shopFirst, ...shopRest] = shop.orders;
  const warm = await measured(shop.tenant, "po-warm", [shopFirst]);
  const rows = [];
  for (const n of SIZES) {
    const id = `po-${n}`;
    const m = await measured(shop.tenant, id, shopRest.slice(0, n));
    if (m.state !== "booked")
      notes.push(`payout of ${n}: ${m.state} (${JSON.stringify(m.p?.issues?.[0] ?? m.p?.error)})`);
    await sendPayout(shop.tenant, "payout.failed", { id });
    const reversed = await untilPayout(shop.tenant, id, (p) => p?.state === "reversed");
    if (reversed?.state !== "reversed") notes.push(`payout of ${n} was not reversed`);
    rows.push({ n, ...m });
  }
  const stripe = await stripeRows(tenant, rest, SIZES, TOTAL, FEE, notes);
  const vipps = await vippsRows(shop.tenant, shopRest, SIZES, notes);

  // The baseline: a voucher per line, straight to the sandbox, on a client of its own.
  const client = await json("POST", `${SB}/_sandbox/clients`, {
    environment: "demo",
    name: "Naive Payouts AS",
  });
  const token = await directToken(keys, client.clientKey);
  if (!token) throw new Error("the sandbox refused a token for the baseline of part 11");
  const api = naiveClient(keys, token);
  for (const row of rows) {
    await quiet(1000, 10_000);
    const b0 = await stats();
    const started = Date.now();
    const accounts = (await api("GET", "/GeneralLedgerAccounts?accountNos=1904,1920,7770")).rows;
    const id = (no) => accounts.find((a) => a.AccountNo === no)?.Id;
    const vat = (await api("GET", "/VatCodes")).rows.find((c) => c.Code === "0")?.Id;
    const day = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < row.n; i++) {
      const line = (no, amount) => ({
        AccountId: id(no),
        CurrencyAmount: amount,
        VatId: vat,
        PostingDate: day,
      });
      await api("POST", "/Vouchers/BankJournals", {
        VoucherDate: day,
        CurrencyCode: "NOK",
        ExternalImportReference: `naive-${row.n}-${i}-${Date.now().toString(36)}`,
        VoucherLines: [line(1920, NET), line(7770, Number(FEE)), line(1904, -Number(TOTAL))],
      });
    }
    row.naiveSeconds = (Date.now() - started) / 1000;
    row.naiveCalls = (await stats()).requests - b0.requests;
  }
  if (api.errors.length)
    notes.push(`baseline calls that failed: ${[...new Set(api.errors)].slice(0, 5).join(", ")}`);

  return () => {
    console.log(
      `\n11. Payouts: upstream calls and time per payout (a shop's own orders: ${shop.orders.length} settled first in ${shopSetup.toFixed(0)} s; ${orders.length} Stripe orders of another tenant in ${setup.seconds.toFixed(0)} s, ${setup.calls} calls)\n`,
    );
    console.log(
      "| lines | ledgergate calls | baseline calls (a voucher per line) | ratio | ledgergate s, webhook to booked | baseline s | ratio |",
    );
    console.log("|---|---|---|---|---|---|---|");
    for (const r of rows)
      console.log(
        `| ${r.n} | ${r.calls} | ${r.naiveCalls} | ${(r.calls / r.naiveCalls).toFixed(4)} | ${r.seconds.toFixed(2)} | ${r.naiveSeconds.toFixed(1)} | ${(r.seconds / r.naiveSeconds).toFixed(3)} |`,
      );
    console.log(
      `\nA tenant's first payout (1 line) looks its account ids up: ${warm.calls} calls, ${warm.seconds.toFixed(2)} s (${warm.steps.join(" · ")}). Steps of the ${rows.at(-1)?.n}-line payout: ${rows.at(-1)?.steps.join(" · ")}.`,
    );
    printStripeRows(stripe, rows);
    printVippsRows(vipps, rows);
    for (const n of notes) console.log(`NOTE: ${n}`);
  };
}
