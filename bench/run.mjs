#!/usr/bin/env node
// `npm run bench`: starts both Workers locally (as `npm start` does; stop that first), then measures
//   1. the latency the gateway adds against calling the sandbox directly (median, p99, ratio),
//   2. token requests per 1,000 calls: ledgergate against a client that asks for a token per call,
//   3. upstream 429s at offered loads of 5, 10, 50 and 200 req/s, against a client with no limiter,
//   4–6. shop orders (bench/orders.mjs): upstream calls per order, orders per minute through the
//      10 req/s limit with 20 tenants, webhook answer time.
// `npm run bench -- latency` runs 1–3 only, `npm run bench -- orders` 4–6 only; the default is all.
// Every figure comes from this one run, baseline included. Not a test: it asserts nothing.
import { spawn } from "node:child_process";
import { ADMIN, GW, SB, answers, header, json, pct, sleep, stats, up } from "./lib.mjs";
import { ordersBench } from "./orders.mjs";

const PARTS = { all: ["latency", "orders"], latency: ["latency"], orders: ["orders"] };
const mode = process.argv[2] ?? "all";
if (!Object.hasOwn(PARTS, mode)) {
  console.error(`Usage: npm run bench [-- latency|orders]  (not ${mode})`);
  process.exit(2);
}
if ((await answers(`${GW}/healthz`)) || (await answers(`${SB}/_sandbox/keys`))) {
  console.error("Something already answers on :8787 or :8788 (is `npm start` running?). Stop it first: the bench starts its own Workers and resets the sandbox.");
  process.exit(1);
}

const dev = spawn(process.execPath, ["scripts/dev.mjs"], { stdio: "ignore", detached: true });
const stop = () => {
  try {
    process.kill(-dev.pid, "SIGTERM");
  } catch {
    // already gone
  }
};
process.on("exit", stop);

await up(`${SB}/_sandbox/keys`);
await up(`${GW}/healthz`);
await json("POST", `${SB}/_sandbox/reset`);
const keys = (await json("GET", `${SB}/_sandbox/keys`)).demo;

async function newTenant() {
  const client = await json("POST", `${SB}/_sandbox/clients`, { environment: "demo", name: "Bench AS" });
  const slug = `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const t = await json("POST", `${GW}/admin/tenants`, { client: slug, environment: "demo", clientKey: client.clientKey }, ADMIN);
  return { ...client, gatewayKey: t.gatewayKey };
}
async function directToken(clientKey) {
  const res = await fetch(`${SB}/Demo/OAuth/Token`, {
    method: "POST",
    headers: { authorization: `Basic ${btoa(`${keys.applicationKey}:${clientKey}`)}`, "ocp-apim-subscription-key": keys.subscriptionKey, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  });
  return res.ok ? (await res.json()).access_token : null;
}
const direct = (token) => fetch(`${SB}/Demo/v2/ClientIntegrationInformation`, { headers: { authorization: `Bearer ${token}`, "ocp-apim-subscription-key": keys.subscriptionKey } });
const viaGateway = (key) => fetch(`${GW}/v2/ClientIntegrationInformation`, { headers: { authorization: `Bearer ${key}` } });
async function timed(fn) {
  const t0 = performance.now();
  const res = await fn();
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}

/** Parts 1–3; answers a function that prints their tables. */
async function latencyBench() {
  // 1. Added latency. Calls alternate, paced under the shared limit (under 8 req/s in all) so neither
  // waits on the rate limit; 40 warm-up pairs are dropped, 200 pairs are kept.
  const t = await newTenant();
  const token = await directToken(t.clientKey);
  const d = [];
  const g = [];
  let latencyStatuses = 0;
  for (let i = 0; i < 240; i++) {
    const a = await timed(() => direct(token));
    const b = await timed(() => viaGateway(t.gatewayKey));
    if (a.status !== 200 || b.status !== 200) latencyStatuses++;
    if (i >= 40) {
      d.push(a.ms);
      g.push(b.ms);
    }
    await sleep(220);
  }

  // 2. Token requests per 1,000 calls. Ours: 1,000 calls through the gateway. Baseline: a client that
  // asks for a token before each call, measured over 100 calls and counted from the sandbox's stats.
  // Counted from before registration: the token that checked the key is the one the calls reuse.
  let s0 = await stats();
  const t2 = await newTenant();
  const CALLS = 1000;
  const batch = [];
  for (let i = 0; i < CALLS; i++) {
    batch.push(viaGateway(t2.gatewayKey).then((r) => r.arrayBuffer()));
    await sleep(100);
  }
  await Promise.all(batch);
  let s1 = await stats();
  const oursPer1000 = ((s1.tokenRequests.byClient[t2.clientId] ?? 0) - (s0.tokenRequests.byClient[t2.clientId] ?? 0)) * (1000 / CALLS);
  const t3 = await newTenant();
  s0 = await stats();
  for (let i = 0; i < 100; i++) {
    const tok = await directToken(t3.clientKey);
    await (await direct(tok)).arrayBuffer();
    await sleep(220);
  }
  s1 = await stats();
  const naivePer1000 = ((s1.tokenRequests.byClient[t3.clientId] ?? 0) - (s0.tokenRequests.byClient[t3.clientId] ?? 0)) * 10;

  // 3. Upstream 429s at offered loads: open loop for 3 s each, through the gateway and directly.
  const loads = [];
  for (const rate of [5, 10, 50, 200]) {
    const row = { rate };
    for (const [name, send] of [["gateway", () => viaGateway(t.gatewayKey)], ["direct", () => direct(token)]]) {
      await sleep(1500);
      const before = await stats();
      const pending = [];
      const n = rate * 3;
      for (let i = 0; i < n; i++) {
        pending.push(send().then(async (r) => (await r.arrayBuffer(), r.status)));
        await sleep(1000 / rate);
      }
      const statuses = await Promise.all(pending);
      const after = await stats();
      const ok = statuses.filter((s) => s === 200).length;
      const refused503 = statuses.filter((s) => s === 503).length;
      const other = statuses.filter((s) => s !== 200 && s !== 503);
      const byStatus = [...new Set(other)].map((s) => `${other.filter((x) => x === s).length}×${s}`).join(", ");
      row[name] = { offered: n, ok, refused503, other: other.length ? `${other.length} (${byStatus})` : "0", upstream429: after.throttled - before.throttled };
    }
    loads.push(row);
  }
  return () => {
    const f = (x) => x.toFixed(1);
    console.log(`\n1. Latency, GET /v2/ClientIntegrationInformation, ${d.length} calls each, both Workers local (ms; pairs with a non-200: ${latencyStatuses})\n`);
    console.log("| path | median | p99 |\n|---|---|---|");
    console.log(`| sandbox directly (baseline) | ${f(pct(d, 50))} | ${f(pct(d, 99))} |`);
    console.log(`| through ledgergate | ${f(pct(g, 50))} | ${f(pct(g, 99))} |`);
    console.log(`| ratio | ${(pct(g, 50) / pct(d, 50)).toFixed(2)}× | ${(pct(g, 99) / pct(d, 99)).toFixed(2)}× |`);
    console.log("\n2. Token requests per 1,000 calls\n");
    console.log("| client | token requests |\n|---|---|");
    console.log(`| a token per call (baseline, 100 calls) | ${naivePer1000} |`);
    console.log(`| ledgergate (1,000 calls) | ${oursPer1000} |`);
    console.log(`| ratio | ${(oursPer1000 / naivePer1000).toFixed(4)} |`);
    console.log("\n3. Upstream 429s at offered loads (3 s each; limit 10 req/s)\n");
    console.log("| offered req/s | direct: 429s of calls | ledgergate: upstream 429s | ledgergate: 200 / 503 refused for deadline / other |\n|---|---|---|---|");
    for (const r of loads) console.log(`| ${r.rate} | ${r.direct.upstream429} of ${r.direct.offered} | ${r.gateway.upstream429} | ${r.gateway.ok} / ${r.gateway.refused503} / ${r.gateway.other} |`);
  };
}

const printers = [];
for (const part of PARTS[mode]) printers.push(part === "latency" ? await latencyBench() : await ordersBench(keys));
stop();
console.log(header());
for (const print of printers) print();
process.exit(0);
