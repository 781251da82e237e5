// Stripe payouts read from Stripe, in the payouts bench (bench/payouts.mjs): for each size, the
// orders' charges are made on the tenant's stand-in Stripe account (each with the bench's fee,
// paid with the order's payment intent), an automatic payout sweeps them, and Stripe's
// `payout.paid` goes to the tenant; counted until the payout is booked: calls to the accounting
// API (the sandbox's counters) and to Stripe (the stand-in's). Then the payout fails at the bank
// (`payout.failed`), its voucher is reversed, and the next size pays the same orders out again.
import { quiet, sleep, stats, GW, json } from "./lib.mjs";
import { account, intentOf, payoutEvent, sendStripe, stripeStats } from "./stripe-shop.mjs";

const ENDED = new Set(["booked", "unmatched", "failed", "reversed", "needs-key", "not-itemised"]);

/** Polls until Stripe payout `id` is in a state `until` accepts; the payout. */
async function untilStripePayout(tenant, id, until, timeoutMs = 180_000) {
  const t0 = Date.now();
  let p = null;
  while (Date.now() - t0 < timeoutMs) {
    p = await json("GET", `${GW}/payouts/stripe/${id}`, undefined, {
      authorization: `Bearer ${tenant.gatewayKey}`,
    });
    if (until(p)) return p;
    await sleep(100);
  }
  return p;
}

/**
 * One row per size of `sizes`: the payout of that many of `orders` (settled Stripe invoices), its
 * calls to the API and to Stripe, seconds from the webhook to booked, its state and steps. Problems
 * go to `notes`.
 */
export async function stripeRows(tenant, orders, sizes, total, fee, notes) {
  const rows = [];
  for (const n of sizes) {
    const charges = orders.slice(0, n).map((id) => ({
      amount: Math.round(Number(total) * 100),
      fee: Math.round(Number(fee) * 100),
      paymentIntent: intentOf(id),
    }));
    // The stand-in takes at most 5,000 a call; the sizes here are smaller.
    await account(tenant, "POST", "/charges", { charges });
    const payout = await account(tenant, "POST", "/payouts", {});
    await quiet(1000, 20_000);
    const [api0, stripe0] = await Promise.all([stats(), stripeStats()]);
    const t0 = Date.now();
    const status = await sendStripe(tenant, payoutEvent("payout.paid", payout));
    const p = await untilStripePayout(tenant, payout.id, (x) => ENDED.has(x?.state));
    const seconds = (Date.now() - t0) / 1000;
    await quiet(500, 10_000);
    const [api1, stripe1] = await Promise.all([stats(), stripeStats()]);
    if (p?.state !== "booked")
      notes.push(
        `Stripe payout of ${n}: ${p?.state} (${JSON.stringify(p?.issues?.[0] ?? p?.error)})`,
      );
    rows.push({
      n,
      status,
      state: p?.state,
      transactions: p?.stripe?.transactionsRead ?? null,
      calls: api1.requests - api0.requests,
      stripeCalls: stripe1.requests - stripe0.requests,
      seconds,
      steps: (p?.steps ?? []).map(
        (s) => `${s.name}: ${s.result?.stripeCalls ?? s.result?.upstreamCalls ?? 0}`,
      ),
    });
    const failed = await account(tenant, "PATCH", `/payouts/${payout.id}`, {
      status: "failed",
      failureCode: "account_closed",
    });
    await sendStripe(tenant, payoutEvent("payout.failed", failed));
    const back = await untilStripePayout(tenant, payout.id, (x) => x?.state === "reversed");
    if (back?.state !== "reversed") notes.push(`Stripe payout of ${n} was not reversed`);
  }
  return rows;
}

/**
 * Prints the Stripe rows' table; `baseline` (the payout event's rows, with the voucher-per-line
 * baseline's calls) gives the ratio of all calls, the API's and Stripe's, to that baseline's.
 */
export function printStripeRows(rows, baseline) {
  console.log(
    "\nStripe payouts read from Stripe (payout.paid from Stripe to booked; the same orders):\n",
  );
  console.log(
    "| lines | transactions read | calls to the API | calls to Stripe | baseline calls (a voucher per line) | ratio, all calls | s, webhook to booked | state |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const naive = baseline.find((b) => b.n === r.n)?.naiveCalls ?? NaN;
    console.log(
      `| ${r.n} | ${r.transactions} | ${r.calls} | ${r.stripeCalls} | ${naive} | ${((r.calls + r.stripeCalls) / naive).toFixed(4)} | ${r.seconds.toFixed(2)} | ${r.state} |`,
    );
  }
  const last = rows.at(-1);
  if (last) console.log(`\nSteps of the ${last.n}-line Stripe payout: ${last.steps.join(" · ")}.`);
}
