// Vipps MobilePay settlements read from Vipps, in the payouts bench (bench/payouts.mjs): a tenant
// of its own settles as many orders paid with Vipps as the sizes add up to; for each size a
// stand-in merchant's ledger date captures that many of them (net settlement, 2 % fees), closes
// and pays out, and the operator's read (`POST …/vipps/read`) books it. Counted from the read to
// the booked voucher: calls to the accounting API (the sandbox's counters), calls to Vipps (the
// stand-in's), seconds.
import { ADMIN, GW, SB, json, quiet, sleep, stats } from "./lib.mjs";
import { TOTAL, orderTenant, sendOrder, untilDone } from "./orders-shop.mjs";

const ENDED = new Set(["booked", "unmatched", "failed"]);
const DAY = 86_400_000;
/** The stand-in's request count (its counters start at the first request). */
const vippsCalls = async () => (await json("GET", `${SB}/_sandbox/vipps/stats`)).requests ?? 0;
const control = (method, path, body) => json(method, `${SB}/_sandbox/vipps${path}`, body);

async function untilVippsPayout(tenant, id, timeoutMs = 300_000) {
  const t0 = Date.now();
  let p = null;
  while (Date.now() - t0 < timeoutMs) {
    p = await json("GET", `${GW}/payouts/vipps/${id}`, undefined, {
      authorization: `Bearer ${tenant.gatewayKey}`,
    });
    if (ENDED.has(p?.state)) return p;
    await sleep(100);
  }
  return p;
}

/** A tenant with `count` settled orders paid with Vipps (own JSON, 50 at a time); their ids. */
export async function vippsTenant(count, notes) {
  const tenant = await orderTenant("payouts-vipps");
  const orders = Array.from({ length: count }, (_, i) => `vipps_bench_o${i}`);
  const unsettled = [];
  for (let i = 0; i < orders.length; i += 50) {
    const batch = orders.slice(i, i + 50);
    await Promise.all(batch.map((id) => sendOrder(tenant, id, { paymentMethod: "vipps" })));
    for (const id of batch) {
      const run = await untilDone(tenant, id, 300_000);
      if (run?.state !== "settled") unsettled.push(`${id}: ${run?.state}`);
    }
  }
  if (unsettled.length)
    notes.push(
      `${unsettled.length} Vipps orders did not settle (${unsettled.slice(0, 3).join(", ")})`,
    );
  return { tenant, orders };
}

/** One row per size of `sizes`, each paying out the next of `orders`; problems go to `notes`. */
export async function vippsRows(tenant, orders, sizes, notes) {
  const m = await control("POST", "/merchants", { settlement: "net", feeBasisPoints: 200 });
  const since = Date.now() - (sizes.length + 1) * DAY;
  const keys = await fetch(`${GW}/admin/tenants/demo/${tenant.slug}/vipps-keys`, {
    method: "PUT",
    headers: { "content-type": "application/json", ...ADMIN },
    body: JSON.stringify({
      clientId: m.clientId,
      clientSecret: m.clientSecret,
      subscriptionKey: m.subscriptionKey,
      merchantSerialNumber: m.merchantSerialNumber,
      orderSource: "standard",
      since: new Date(since).toISOString().slice(0, 10),
    }),
  });
  if (keys.status !== 200) throw new Error(`setting the Vipps keys answered ${keys.status}`);
  const rows = [];
  let next = 0;
  for (const [k, n] of sizes.entries()) {
    const date = new Date(since + k * DAY).toISOString().slice(0, 10);
    const captures = orders
      .slice(next, next + n)
      .map((reference) => ({ reference, amount: Math.round(Number(TOTAL) * 100) }));
    next += n;
    await control("POST", `/ledgers/${m.ledgerId}/dates/${date}/entries`, { captures });
    const closed = await control("POST", `/ledgers/${m.ledgerId}/dates/${date}/close`);
    await quiet(1000, 20_000);
    const [api0, vipps0] = await Promise.all([stats(), vippsCalls()]);
    const t0 = Date.now();
    await json("POST", `${GW}/admin/tenants/demo/${tenant.slug}/vipps/read`, undefined, ADMIN);
    const p = await untilVippsPayout(tenant, closed.payout?.pspReference);
    const seconds = (Date.now() - t0) / 1000;
    await quiet(500, 10_000);
    const [api1, vipps1] = await Promise.all([stats(), vippsCalls()]);
    if (p?.state !== "booked")
      notes.push(
        `Vipps payout of ${n}: ${p?.state} (${JSON.stringify(p?.issues?.[0] ?? p?.error)})`,
      );
    rows.push({
      n,
      state: p?.state,
      calls: api1.requests - api0.requests,
      vippsCalls: vipps1 - vipps0,
      seconds,
      steps: (p?.steps ?? []).map((s) => `${s.name}: ${s.result?.upstreamCalls ?? 0}`),
    });
  }
  return rows;
}

/** Prints the Vipps rows; `baseline` (the payout event's rows) gives the voucher-per-line calls. */
export function printVippsRows(rows, baseline) {
  console.log(
    "\nVipps MobilePay settlements read from Vipps (the operator's read to booked; orders of their own):\n",
  );
  console.log(
    "| lines | calls to the API | calls to Vipps | baseline calls (a voucher per line) | ratio, all calls | s, read to booked | state |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const naive = baseline.find((b) => b.n === r.n)?.naiveCalls ?? NaN;
    console.log(
      `| ${r.n} | ${r.calls} | ${r.vippsCalls} | ${naive} | ${((r.calls + r.vippsCalls) / naive).toFixed(4)} | ${r.seconds.toFixed(2)} | ${r.state} |`,
    );
  }
  const last = rows.at(-1);
  if (last) console.log(`\nSteps of the ${last.n}-line Vipps payout: ${last.steps.join(" · ")}.`);
}
