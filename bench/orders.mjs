// The orders part of `npm run bench` (`npm run bench -- orders` runs only this part):
//   4. upstream calls per order, new customer and products against a returning customer with known
//      products (remembered by the tenant), and against the same but first seen by the tenant (its
//      ids looked up, as every returning order was before the tenant remembered them); baseline: a
//      straightforward client doing the same order directly against the sandbox,
//   5. orders per minute through the shared 10 req/s with 20 tenants; baseline: the ceiling that
//      10 req/s allows at the calls per order measured in 4,
//   6. webhook answer time over 200 deliveries (new orders and retried duplicates); baseline: a
//      read of one of part 5's settled orders of the same tenant (GET /orders/standard/<id>,
//      gateway key, through the tenant's Durable Object), interleaved with them. Not /healthz: the
//      gateway limits its reads to 20 a minute per address, so most of them would answer 429.
// Every figure comes from this run. Not a test: it asserts nothing. Needs both Workers up and the
// sandbox's demo keys; `run.mjs` starts them. The shop side is in orders-shop.mjs, the
// straightforward client in orders-baseline.mjs.

/** Part 4's orders: what is new, what the tenant remembers, and what only the books know. */
const KINDS = [
  { kind: "new customer, 3 new products", variant: {} },
  { kind: "returning customer, known products", variant: {} },
  {
    kind: "returning customer, known products, first seen by this tenant (ids looked up)",
    variant: { buyer: KNOWN_TO_BOOKS.buyer, skus: KNOWN_TO_BOOKS.skus },
    seed: true,
  },
];
import { randomBytes } from "node:crypto";
import {
  directToken,
  GW,
  json,
  pct,
  quiet,
  realApiSettings,
  sampleRequests,
  SB,
  sleep,
  stats,
} from "./lib.mjs";
import { naiveClient, naiveOrder } from "./orders-baseline.mjs";
import {
  KNOWN_TO_BOOKS,
  TERMINAL,
  byStep,
  orderEvent,
  orderRuns,
  orderTenant,
  seedBooks,
  sendOrder,
  signed,
  stepCalls,
  untilDone,
} from "./orders-shop.mjs";

/** Runs 4–6; answers a function that prints their tables. */
export async function ordersBench(keys) {
  const limit = await realApiSettings();
  const notes = [];
  let uid = 0;
  const newId = () => `b${Date.now().toString(36)}${(uid++).toString(36)}`;

  // 4. Calls per order. One order at a time, nothing else running, counted from the sandbox's
  //    stats.
  if (!(await quiet()))
    notes.push(
      "the sandbox was not quiet before part 4 (leftover runs from an earlier start?); its counts may be high",
    );
  const ours = await orderTenant("calls");
  const perOrder = [];
  for (const { kind, variant, seed } of KINDS) {
    if (seed) await seedBooks(ours);
    await quiet(1000, 10_000);
    const id = newId();
    const s0 = await stats();
    const t0 = Date.now();
    const status = await sendOrder(ours, id, variant);
    const run = await untilDone(ours, id);
    const ms = Date.now() - t0;
    await sleep(300);
    const s1 = await stats();
    if (status !== 202 || run?.state !== "settled")
      notes.push(
        `part 4, ledgergate, ${kind}: webhook ${status}, state ${run?.state}${run?.error ? ` (${run.error.step}: ${run.error.detail})` : ""}`,
      );
    perOrder.push({
      kind,
      sandbox: s1.requests - s0.requests,
      throttled: s1.throttled - s0.throttled,
      steps: stepCalls(run),
      byStep: byStep(run),
      seconds: ms / 1000,
    });
  }
  const naiveTenant = await json("POST", `${SB}/_sandbox/clients`, {
    environment: "demo",
    name: "Naive Nettbutikk AS",
  });
  const naiveToken = await directToken(keys, naiveTenant.clientKey);
  if (!naiveToken) throw new Error("the sandbox refused a token for the baseline of part 4");
  const api = naiveClient(keys, naiveToken);
  for (const row of perOrder) {
    await quiet(1000, 10_000);
    const before = api.calls;
    const s0 = await stats();
    const invoiceNo = await naiveOrder(api, newId());
    const s1 = await stats();
    if (invoiceNo === null)
      notes.push(`part 4, baseline, ${row.kind}: the invoice was not delivered`);
    row.naive = s1.requests - s0.requests;
    row.naiveOwn = api.calls - before;
    row.naiveThrottled = s1.throttled - s0.throttled;
  }
  if (api.errors.length) notes.push(`part 4, baseline calls that failed: ${api.errors.join(", ")}`);
  // The baseline's direct calls spend the key's limit behind the gateway's back: let that second
  // pass.
  await quiet(1500, 10_000);

  // 5. Orders per minute: 20 tenants, all orders sent at once; first one new order each (new
  // customer and products), then 5 each from the same, now returning, customer.
  const tenants = [];
  for (let i = 0; i < 20; i++) tenants.push(await orderTenant(`t${i}`));
  const rounds = [];
  // Part 6's baseline: per tenant, an order of its own that part 5 settled (else any it was sent).
  const baselineOrder = new Map();
  const settledIds = new Set();
  for (const [kind, perTenant, calls] of [
    ["new customer, new products", 1, perOrder[0].sandbox],
    ["returning customer, known products", 5, perOrder[1].sandbox],
  ]) {
    await quiet(1000, 20_000);
    const ids = tenants.map(() => Array.from({ length: perTenant }, newId));
    const s0 = await stats();
    const t0 = Date.now();
    // Where the wall time goes: the sandbox's count every 250 ms shows when the first call came and
    // when the last one did.
    const sampler = sampleRequests();
    const statuses = await Promise.all(
      tenants.flatMap((t, i) => ids[i].map((id) => sendOrder(t, id))),
    );
    const n = statuses.length;
    const wanted = tenants.map((_, i) => new Set(ids[i]));
    let runs = [];
    while (Date.now() - t0 < 240_000) {
      await sleep(2000);
      runs = (
        await Promise.all(
          tenants.map(async (t, i) => (await orderRuns(t)).filter((r) => wanted[i].has(r.orderId))),
        )
      ).flat();
      if (runs.length === n && runs.every((r) => TERMINAL.has(r.state))) break;
    }
    const samples = await sampler.stop();
    const s1 = await stats();
    const settled = runs.filter((r) => r.state === "settled");
    for (const r of settled) settledIds.add(r.orderId);
    for (const [i, t] of tenants.entries()) {
      const id = ids[i].find((x) => settledIds.has(x));
      if (id || !baselineOrder.has(t)) baselineOrder.set(t, id ?? ids[i][0]);
    }
    const end = Math.max(
      t0,
      ...runs.filter((r) => TERMINAL.has(r.state)).map((r) => Date.parse(r.updatedAt)),
    );
    const firstCall = samples.find((x) => x.requests > s0.requests) ?? samples[0];
    const lastCall = samples.find((x) => x.requests >= samples.at(-1).requests) ?? firstCall;
    const phases = {
      start: (firstCall.t - t0) / 1000,
      busy:
        (lastCall.requests - s0.requests) /
        Math.max(0.001, (lastCall.t - firstCall.t) / 1000 + 0.25),
      tail: (end - lastCall.t) / 1000,
    };
    const wall = (end - t0) / 1000;
    // At the calls an order this round made: runs of a tenant on their way together share their
    // delivery read and voucher (docs/design/order-batches.md), so a burst costs less than part 4.
    const measuredCalls = (s1.requests - s0.requests) / n;
    const ceiling = (limit * 60) / Math.min(calls, measuredCalls);
    // What the same orders could reach at most if the tenant looked its ids up every time (part 4,
    // row 3).
    const before = kind.startsWith("returning") ? (limit * 60) / perOrder[2].sandbox : null;
    const perMin = (settled.length / wall) * 60;
    const bad = statuses.filter((s) => s !== 202).length;
    if (bad) notes.push(`part 5, ${kind}: ${bad} of ${n} webhooks not answered 202`);
    const unfinished = runs.filter((r) => !TERMINAL.has(r.state)).length + (n - runs.length);
    if (unfinished)
      notes.push(
        `part 5, ${kind}: ${unfinished} of ${n} orders had not finished after 240 s; the figures cover the finished ones`,
      );
    for (const r of runs.filter((x) => x.state === "failed").slice(0, 3))
      notes.push(
        `part 5, ${kind}: order ${r.orderId} failed in ${r.error?.step}: ${r.error?.detail}`,
      );
    rounds.push({
      kind,
      n,
      perTenant,
      settled: settled.length,
      failed: runs.filter((r) => r.state === "failed").length,
      wall,
      perMin,
      ceiling,
      calls: Number(Math.min(calls, measuredCalls).toFixed(2)),
      before,
      phases,
      upstream: s1.requests - s0.requests,
      throttled: s1.throttled - s0.throttled,
      steps: runs.reduce((a, r) => a + stepCalls(r), 0),
      // Upstream calls spent by the time the last order settled (the counters are read a moment
      // later).
      perSecond: (s1.requests - s0.requests) / wall,
    });
  }

  // 6. Webhook answer time: 50 new orders, each retried 3 times (same webhook-id, signed anew),
  // the retries 10, 20 and 30 deliveries later; each delivery preceded by the baseline read, the
  // same tenant's settled order: an authenticated call through the same object, never rate-limited.
  const plan = [];
  for (let k = 0; k < 50; k++) for (let r = 0; r < 4; r++) plan.push({ k, r, at: k + 10 * r });
  plan.sort((a, b) => a.at - b.at || a.r - b.r);
  const events = Array.from({ length: 50 }, (_, k) => ({
    tenant: tenants[k % tenants.length],
    id: newId(),
    webhookId: `msg_${randomBytes(12).toString("hex")}`,
  }));
  const baseline = [];
  const baselineStatuses = [];
  const unsettledBaseline = tenants.filter((t) => !settledIds.has(baselineOrder.get(t))).length;
  if (unsettledBaseline)
    notes.push(
      `part 6: ${unsettledBaseline} of ${tenants.length} tenants had no settled order from part 5; their baseline reads an unsettled one`,
    );
  const fresh = [];
  const dups = [];
  const unexpected = [];
  await quiet(1000, 20_000);
  const t6 = Date.now();
  for (const { k, r } of plan) {
    const e = events[k];
    let t0 = performance.now();
    const h = await fetch(
      `${GW}/orders/standard/${encodeURIComponent(baselineOrder.get(e.tenant))}`,
      { headers: { authorization: `Bearer ${e.tenant.gatewayKey}` } },
    );
    await h.arrayBuffer();
    baseline.push(performance.now() - t0);
    baselineStatuses.push(h.status);
    // A retry is signed again with a later timestamp (the same one twice is refused as a replay).
    const body = JSON.stringify(orderEvent(e.id));
    const headers = signed(e.tenant.secret, body, e.webhookId, Math.floor(Date.now() / 1000) + r);
    t0 = performance.now();
    const res = await fetch(`${GW}/webhooks/standard/${e.tenant.slug}/demo`, {
      method: "POST",
      headers,
      body,
    });
    await res.arrayBuffer();
    (r === 0 ? fresh : dups).push(performance.now() - t0);
    if (res.status !== (r === 0 ? 202 : 200)) unexpected.push(res.status);
  }
  const sendSeconds = (Date.now() - t6) / 1000;
  const badBaseline = baselineStatuses.filter((s) => s !== 200);
  if (badBaseline.length)
    notes.push(
      `part 6: ${badBaseline.length} of ${baselineStatuses.length} baseline reads did not answer 200 (${[...new Set(badBaseline)].join(", ")}); the baseline is suspect`,
    );
  if (unexpected.length)
    notes.push(
      `part 6: ${unexpected.length} deliveries got an unexpected status (${[...new Set(unexpected)].join(", ")})`,
    );
  // Let the 50 runs finish, so that nothing is left running when the Workers stop.
  let drained = 0;
  const d0 = Date.now();
  while (Date.now() - d0 < 120_000) {
    const all = (await Promise.all(tenants.map(orderRuns)))
      .flat()
      .filter((x) => events.some((e) => e.id === x.orderId));
    drained = all.filter((x) => x.state === "settled").length;
    if (all.length === 50 && all.every((x) => TERMINAL.has(x.state))) break;
    await sleep(1000);
  }
  if (drained < 50)
    notes.push(
      `part 6: ${drained} of the 50 new orders settled within ${Math.round((Date.now() - d0) / 1000)} s after the deliveries`,
    );

  return () => {
    const f = (x) => x.toFixed(1);
    console.log(
      `\n4. Upstream calls per order (one Standard Webhooks order: 2 lines at 25 % and 15 %, shipping, company buyer; counted by the sandbox, token requests and 429s included)\n`,
    );
    console.log(
      "| order | straightforward client (baseline) | ledgergate: sandbox count | ledgergate: Σ steps' upstreamCalls | ratio | ledgergate's calls by step | webhook → settled |\n|---|---|---|---|---|---|---|",
    );
    for (const r of perOrder) {
      console.log(
        `| ${r.kind} | ${r.naive}${r.naiveOwn !== r.naive ? ` (client counted ${r.naiveOwn})` : ""} | ${r.sandbox}${r.throttled ? ` (${r.throttled}×429)` : ""} | ${r.steps} | ${(r.sandbox / r.naive).toFixed(2)} | ${r.byStep} | ${f(r.seconds)} s |`,
      );
    }
    console.log(
      `\n5. Orders per minute, 20 tenants, every order sent at once (sandbox limit ${limit} req/s, shared by all tenants)\n`,
    );
    console.log(
      "| orders | settled / failed | wall time to last settled | orders/min | ceiling: limit × 60 ÷ calls per order (4, or this round's when fewer) | achieved / ceiling (goal ≥ 0.95) | ceiling with the ids looked up (4, row 3) | upstream calls/s | upstream 429s | per order: sandbox count / Σ steps' upstreamCalls |\n|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const r of rounds) {
      const before = r.before === null ? "same" : `${f(r.before)} (at ${perOrder[2].sandbox})`;
      console.log(
        `| ${r.n} (${r.perTenant} per tenant), ${r.kind} | ${r.settled} / ${r.failed} | ${f(r.wall)} s | ${f(r.perMin)} | ${f(r.ceiling)} (at ${r.calls}) | ${(r.perMin / r.ceiling).toFixed(2)} | ${before} | ${f(r.perSecond)} | ${r.throttled} | ${(r.upstream / r.n).toFixed(1)} / ${(r.steps / Math.max(1, r.settled + r.failed)).toFixed(1)} |`,
      );
    }
    console.log("\n5b. Where part 5's wall time goes (the sandbox's count sampled every 250 ms)\n");
    console.log(
      "| orders | webhooks sent → first upstream call | upstream calls/s from the first call to the last | last call → last order settled |\n|---|---|---|---|",
    );
    for (const r of rounds)
      console.log(
        `| ${r.n}, ${r.kind} | ${f(r.phases.start)} s | ${f(r.phases.busy)} | ${f(r.phases.tail)} s |`,
      );
    const all = [...fresh, ...dups];
    console.log(
      `\n6. Webhook answer time, ${all.length} Standard Webhooks deliveries to 20 tenants (${fresh.length} new orders, ${dups.length} retries of them), each after a read of a settled order of the same tenant; ${f(sendSeconds)} s in all, the new orders' runs going on meanwhile (ms)\n`,
    );
    console.log("| request | n | median | p99 |\n|---|---|---|---|");
    console.log(
      `| GET /orders/standard/{id}, a settled order, gateway key (baseline) | ${baseline.length} | ${f(pct(baseline, 50))} | ${f(pct(baseline, 99))} |`,
    );
    console.log(`| webhook, all | ${all.length} | ${f(pct(all, 50))} | ${f(pct(all, 99))} |`);
    console.log(
      `| webhook, new order (202) | ${fresh.length} | ${f(pct(fresh, 50))} | ${f(pct(fresh, 99))} |`,
    );
    console.log(
      `| webhook, duplicate (200) | ${dups.length} | ${f(pct(dups, 50))} | ${f(pct(dups, 99))} |`,
    );
    console.log(
      `| ratio (all ÷ baseline) | | ${(pct(all, 50) / pct(baseline, 50)).toFixed(2)}× | ${(pct(all, 99) / pct(baseline, 99)).toFixed(2)}× |`,
    );
    console.log(
      `\nNotes: part 5's ceiling is the sandbox's limit over part 4's sandbox count; how close to it the orders get is the RateGovernor's pacing (src/upstream/rate-governor.ts). Part 4's third row is the lookups every returning order made before the tenant remembered ids: the same books, a tenant that has not seen them.`,
    );
    for (const n of notes) console.log(`- ${n}`);
  };
}
