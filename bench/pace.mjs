// Part 14 of `npm run bench` (`-- pace`): orders when their runs share calls
// (docs/design/order-batches.md), all in one run on one key at the API's 10 req/s:
//   14a. the same burst of 100 returning orders (5 for each of 20 tenants) sent at once, on 20
//        tenants whose mapping says `shareCalls: false` (the baseline: every run alone) and on 20
//        that share: calls an order, orders a minute against the ceiling, webhook → settled;
//   14b. a steady stream of 3 orders a second for 60 s over the sharing tenants: webhook → settled;
//   14c. a lone returning order on an idle key, sharing and not (the baseline), 5 each, alternating;
//   14d. a lone new buyer with 3 new products, on a tenant that knows its settlement account.
// Every tenant first settles one order (its token, customer, products and settlement ids known).
// Not a test: it asserts nothing. Needs both Workers up; `run.mjs` starts them.
import { randomBytes } from "node:crypto";
import {
  ADMIN,
  GW,
  json,
  pct,
  quiet,
  realApiSettings,
  sampleRequests,
  sleep,
  stats,
} from "./lib.mjs";
import {
  BUYER,
  TERMINAL,
  orderRuns,
  orderTenant,
  sendOrder,
  stepCalls,
  untilDone,
} from "./orders-shop.mjs";

const TENANTS = 20;
const PER_TENANT = 5;
const STREAM_PER_SECOND = 3;
/** The stream's shops: a sale day of a few busy shops (each then has runs under way together). */
const STREAM_TENANTS = Number(process.env.LEDGERGATE_BENCH_STREAM_TENANTS || 5);
const STREAM_SECONDS = Number(process.env.LEDGERGATE_BENCH_STREAM_SECONDS || 60);
const LONE_REPEATS = 5;

let uid = 0;
const newId = () => `p${Date.now().toString(36)}${(uid++).toString(36)}`;

async function tenants(tag, shareCalls) {
  const all = [];
  for (let i = 0; i < TENANTS; i++) {
    const t = await orderTenant(`${tag}${i}`);
    await json("PUT", `${GW}/admin/tenants/demo/${t.slug}/order-mapping`, { shareCalls }, ADMIN);
    all.push(t);
  }
  return all;
}

/** Sends each `[tenant, id]` at its `at` (ms from now); answers when every run has ended. */
async function drive(plan, limitMs = 300_000) {
  const t0 = Date.now();
  const sent = new Map();
  const statuses = await Promise.all(
    plan.map(async ({ tenant, id, at = 0 }) => {
      const wait = t0 + at - Date.now();
      if (wait > 0) await sleep(wait);
      sent.set(id, Date.now());
      return sendOrder(tenant, id);
    }),
  );
  const byTenant = new Map();
  for (const p of plan) byTenant.set(p.tenant, [...(byTenant.get(p.tenant) ?? []), p.id]);
  // Polled every 2 s, a tenant no more once its orders ended: the bench's reads take the same
  // CPU as the runs, and the times come from each run's own record (`updatedAt`), not the poll.
  const ended = new Map();
  while (Date.now() - t0 < limitMs && ended.size < byTenant.size) {
    await sleep(2000);
    await Promise.all(
      [...byTenant].map(async ([t, ids]) => {
        if (ended.has(t)) return;
        const wanted = new Set(ids);
        const mine = (await orderRuns(t)).filter((r) => wanted.has(r.orderId));
        if (mine.length === ids.length && mine.every((r) => TERMINAL.has(r.state)))
          ended.set(t, mine);
      }),
    );
  }
  const runs = [...ended.values()].flat();
  const settled = runs.filter((r) => r.state === "settled");
  const times = settled.map((r) => (Date.parse(r.updatedAt) - sent.get(r.orderId)) / 1000);
  const end = Math.max(t0, ...settled.map((r) => Date.parse(r.updatedAt)));
  return {
    n: plan.length,
    bad: statuses.filter((s) => s !== 202).length,
    settled: settled.length,
    failed: runs.filter((r) => r.state === "failed"),
    wall: (end - t0) / 1000,
    times,
    steps: settled.reduce((n, r) => n + stepCalls(r), 0),
  };
}

/**
 * `drive`, with the sandbox's count of calls and 429s over it, sampled every 250 ms: when the first
 * call came, and how busy the key was from then to the last settled order.
 */
async function measured(plan) {
  await quiet(1500, 30_000);
  const s0 = await stats();
  const t0 = Date.now();
  const sampler = sampleRequests();
  const r = await drive(plan);
  const samples = await sampler.stop();
  await sleep(300);
  const s1 = await stats();
  const first = samples.find((x) => x.requests > s0.requests) ?? samples[0];
  const upstream = s1.requests - s0.requests;
  return {
    ...r,
    upstream,
    throttled: s1.throttled - s0.throttled,
    firstCall: (first.t - t0) / 1000,
    busy: upstream / Math.max(0.001, r.wall - (first.t - t0) / 1000),
  };
}

const burst = (ts) =>
  ts.flatMap((tenant) => Array.from({ length: PER_TENANT }, () => ({ tenant, id: newId() })));

export async function paceBench() {
  const limit = await realApiSettings();
  const notes = [];
  const alone = await tenants("a", false);
  const sharing = await tenants("s", true);
  // Every tenant's first order: its customer, products and settlement account become known.
  const warm = await measured([...alone, ...sharing].map((tenant) => ({ tenant, id: newId() })));
  if (warm.settled !== warm.n) notes.push(`warm-up: ${warm.settled} of ${warm.n} settled`);

  const bursts = { alone: await measured(burst(alone)), sharing: await measured(burst(sharing)) };
  const stream = await measured(
    Array.from({ length: STREAM_PER_SECOND * STREAM_SECONDS }, (_, i) => ({
      tenant: sharing[i % STREAM_TENANTS],
      id: newId(),
      at: (i * 1000) / STREAM_PER_SECOND,
    })),
  );
  const lone = { alone: [], sharing: [] };
  for (let k = 0; k < LONE_REPEATS; k++)
    for (const [kind, ts] of [
      ["alone", alone],
      ["sharing", sharing],
    ]) {
      await quiet(1500, 30_000);
      const id = newId();
      const t0 = Date.now();
      await sendOrder(ts[k % TENANTS], id);
      const run = await untilDone(ts[k % TENANTS], id);
      if (run?.state === "settled") lone[kind].push((Date.parse(run.updatedAt) - t0) / 1000);
      else notes.push(`14c, ${kind}: an order ended ${run?.state}`);
    }
  // 14d: a new buyer with three new products (two SKUs and a shipping product the mapping names
  // now), on a tenant that settled an order before, so its settlement account's ids are known.
  await quiet(1500, 30_000);
  const nb = sharing[0];
  const tag = randomBytes(3).toString("hex");
  await json(
    "PUT",
    `${GW}/admin/tenants/demo/${nb.slug}/order-mapping`,
    { shareCalls: true, vat: { 25: { shippingProduct: `FRAKT-NY-${tag}` } } },
    ADMIN,
  );
  const newBuyer = {
    buyer: {
      ...BUYER,
      id: `cust_${tag}`,
      email: `ny-${tag}@example.no`,
      company: null,
      organizationNumber: null,
    },
    skus: { pledd: `PLEDD-NY-${tag}`, kaffe: `KAFFE-NY-${tag}` },
  };
  const s0 = await stats();
  const id = newId();
  await sendOrder(nb, id, newBuyer);
  const nbRun = await untilDone(nb, id);
  await sleep(300);
  const s1 = await stats();
  if (nbRun?.state !== "settled")
    notes.push(`14d: the order ended ${nbRun?.state}: ${JSON.stringify(nbRun?.error)}`);

  return () => {
    const f = (x, d = 1) => x.toFixed(d);
    console.log(
      `\n14a. A burst of ${TENANTS * PER_TENANT} returning orders (${PER_TENANT} for each of ${TENANTS} tenants) sent at once, every run alone (baseline) and sharing (sandbox limit ${limit} req/s; calls counted by the sandbox, token requests and 429s included)\n`,
    );
    console.log(
      "| runs | settled / failed | calls an order | wall time to last settled | orders/min | ceiling at those calls | achieved / ceiling | ÷ baseline orders/min | webhook → settled p50 | p95 | upstream 429s | first call after | calls/s from the first call |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const [kind, r] of Object.entries(bursts)) {
      const calls = r.upstream / r.n;
      const perMin = (r.settled / r.wall) * 60;
      const ceiling = (limit * 60) / calls;
      const base = (bursts.alone.settled / bursts.alone.wall) * 60;
      console.log(
        `| ${kind} | ${r.settled} / ${r.failed.length} | ${f(calls, 2)} | ${f(r.wall)} s | ${f(perMin)} | ${f(ceiling)} | ${f(perMin / ceiling, 2)} | ${f(perMin / base, 2)}× | ${f(pct(r.times, 50))} s | ${f(pct(r.times, 95))} s | ${r.throttled} | ${f(r.firstCall)} s | ${f(r.busy)} |`,
      );
    }
    console.log(
      `\n14b. A steady stream: ${STREAM_PER_SECOND} orders a second for ${STREAM_SECONDS} s over ${STREAM_TENANTS} of the sharing tenants, in turn\n`,
    );
    console.log(
      "| orders | settled / failed | calls an order | webhook → settled p50 | p95 | max | upstream 429s |\n|---|---|---|---|---|---|---|",
    );
    console.log(
      `| ${stream.n} | ${stream.settled} / ${stream.failed.length} | ${f(stream.upstream / stream.n, 2)} | ${f(pct(stream.times, 50))} s | ${f(pct(stream.times, 95))} s | ${f(Math.max(...stream.times))} s | ${stream.throttled} |`,
    );
    console.log(
      `\n14c. A lone returning order on an idle key, webhook → settled (${LONE_REPEATS} each, alternating)\n`,
    );
    console.log("| runs | median | ÷ baseline |\n|---|---|---|");
    for (const kind of ["alone", "sharing"])
      console.log(
        `| ${kind === "alone" ? "alone (baseline)" : "sharing"} | ${f(pct(lone[kind], 50), 2)} s | ${f(pct(lone[kind], 50) / pct(lone.alone, 50), 2)}× |`,
      );
    console.log(
      `\n14d. A lone new buyer with 3 new products, the tenant's settlement account known: ${s1.requests - s0.requests} calls (the sandbox's count); by step: ${(nbRun?.steps ?? []).map((s) => `${s.name} ${s.result?.upstreamCalls ?? 0}`).join(" · ")}`,
    );
    for (const [kind, r] of [...Object.entries(bursts), ["stream", stream]])
      for (const x of r.failed.slice(0, 3))
        notes.push(`${kind}: order ${x.orderId} failed in ${x.error?.step}: ${x.error?.detail}`);
    for (const n of notes) console.log(`- ${n}`);
  };
}
