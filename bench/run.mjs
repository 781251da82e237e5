#!/usr/bin/env node
// `npm run bench`: starts both Workers locally (as `npm start` does; stop that first), then
// measures
//   1. the latency the gateway adds against calling the sandbox directly (median, p99, ratio), and
//      against a bare forwarding Worker (bench/forwarder/, on LEDGERGATE_FORWARDER_PORT, default
//      8789) that pays the same local hop; the baselines on the sandbox's production key, the
//      gateway on the demo key, so neither draws 429s from the other's calls,
//   2. token requests per 1,000 calls: ledgergate against a client that asks for a token per call,
//   3, 3b, 3c. the shared rate limit (bench/load.mjs): upstream 429s at offered loads of 5 to
//      200 req/s against a client with no limiter, upstream use above the quota, fairness,
//   4–6. shop orders (bench/orders.mjs): upstream calls per order, orders per minute through the
//      10 req/s limit with 20 tenants, webhook answer time,
//   7. the reference cache (bench/reference.mjs): upstream calls of 100 orders' lookups and writes,
//      cached against the plain pass-through,
//   8. bursts (bench/bursts.mjs): 1 to 20 parallel calls on an idle key, direct and through
//      ledgergate,
//   9. events out (bench/events.mjs): write → delivery delay, what announcing adds to a write,
//      delivery throughput, and events lost with injected receiver failures, against a receiver on
//      LEDGERGATE_RECEIVER_PORT (default 8790); and the watcher (bench/watcher.mjs): detection
//      delay of changes made elsewhere for 20 watched tenants, what a cycle costs, the watchers'
//      share of upstream calls, callers' permit wait with and without the watcher, 429s,
//   10. the request log (bench/request-log.mjs): a warm call's latency with REQUEST_LOG=calls
//      against REQUEST_LOG=off, and with the request's log line (LOG_LEVEL info) against without,
//      the gateway restarted for each (so it runs last, on its own Workers),
//   11. payouts (bench/payouts.mjs): upstream calls and time per payout of 10, 100 and 1,000 lines,
//      against a voucher per line,
//   12. MCP (bench/mcp.mjs): a `read` tool call against the same GET through /v2, what an
//      assistant's burst costs its tenant's own callers with and without its lane, and an
//      assistant calling all the time: its share of the budget,
//   13. OAuth (bench/oauth.mjs): an MCP tool call under an OAuth grant against the same call under
//      a gateway key.
// `npm run bench -- latency` runs 1–2 only, `-- load` 3–3c only, `-- orders` 4–6 only, `--
// reference` 7 only, `-- bursts` 8 only, `-- events` 9 only (`-- watcher` its watcher part alone),
// `-- log` 10 only, `-- mcp` 12 only, `-- oauth` 13 only; the default is all but 11 (12 and 13 run
// before 10, which restarts the Workers). `npm run bench -- margin` (bench/margin.mjs, not part of
// all) compares pacing margins; `npm run bench -- payouts` (not part of all either: it settles 1,001
// orders first, several minutes at 10 req/s) runs 11; `npm run bench -- soak` (bench/soak.mjs, not
// part of all: it kills its own Workers) runs 15, LEDGERGATE_SOAK_SECONDS long (180 by default). Every figure comes from this one run,
// baseline included, and the run is saved to bench/results/ (`recording` in bench/lib.mjs). Not a
// test: it asserts nothing.
// The gateway runs at LOG_LEVEL warn unless LEDGERGATE_LOG_LEVEL says otherwise: no JSON line per
// request, like the forwarder it is compared with, since under `wrangler dev` each console line
// goes to wrangler through the inspector, a cost of local development that a deployed Worker's
// lines (to Workers Logs) do not have in that form. Part 10 measures what the line adds here.
import { spawn } from "node:child_process";
import { openSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { bin, root, wranglerEnv } from "../scripts/wrangler-env.mjs";
import {
  FW,
  FW_INSPECTOR_PORT,
  FW_PORT,
  GW,
  SB,
  answers,
  direct as directCall,
  directToken,
  header,
  json,
  newTenant,
  newestSource,
  pct,
  recording,
  sleep,
  stats,
  up,
  viaForwarder,
  viaGateway,
} from "./lib.mjs";
import { burstsBench } from "./bursts.mjs";
import { loadBench } from "./load.mjs";
import { marginBench } from "./margin.mjs";
import { mcpBench } from "./mcp.mjs";
import { BENCH_RETRY_SCHEDULE, eventsBench } from "./events.mjs";
import { oauthBench } from "./oauth.mjs";
import { ordersBench } from "./orders.mjs";
import { paceBench } from "./pace.mjs";
import { payoutsBench } from "./payouts.mjs";
import { referenceBench } from "./reference.mjs";
import { soakBench } from "./soak.mjs";
import { requestLogBench } from "./request-log.mjs";
import { watcherBench } from "./watcher.mjs";
import { down } from "./workers.mjs";

const PARTS = {
  all: [
    "latency",
    "load",
    "orders",
    "pace",
    "reference",
    "bursts",
    "events",
    "mcp",
    "oauth",
    "log",
  ],
  latency: ["latency"],
  load: ["load"],
  orders: ["orders"],
  pace: ["pace"],
  reference: ["reference"],
  bursts: ["bursts"],
  events: ["events", "watcher"],
  watcher: ["watcher"],
  log: ["log"],
  oauth: ["oauth"],
  mcp: ["mcp"],
  margin: ["margin"],
  payouts: ["payouts"],
  soak: ["soak"],
};
const mode = process.argv[2] ?? "all";
/** The gateway's LOG_LEVEL for the shared Workers (see above). */
const LOG_LEVEL = process.env.LEDGERGATE_LOG_LEVEL || "warn";
if (!Object.hasOwn(PARTS, mode)) {
  console.error(
    `Usage: npm run bench [-- latency|load|orders|pace|reference|bursts|events|watcher|log|mcp|oauth|margin|payouts|soak] (not ${mode})`,
  );
  process.exit(2);
}
if ((await answers(`${GW}/healthz`)) || (await answers(`${SB}/_sandbox/keys`))) {
  console.error(
    `Something already answers on ${GW} or ${SB} (is \`npm start\` running?). Stop it first, or set LEDGERGATE_GATEWAY_PORT and LEDGERGATE_SANDBOX_PORT: the bench starts its own Workers and resets the sandbox.`,
  );
  process.exit(1);
}
if (PARTS[mode].includes("latency") && (await answers(`${FW}/v2/`))) {
  console.error(
    `Something already answers on ${FW} (another bench?). The latency part starts its own forwarder there; set LEDGERGATE_FORWARDER_PORT for another port.`,
  );
  process.exit(1);
}

const save = recording(mode);

// These start their Workers themselves: the margin restarts the gateway once per margin, the soak
// kills and restarts its own pair on its own state.
if (mode === "margin" || mode === "soak") {
  const print = await (mode === "soak" ? soakBench() : marginBench());
  console.log(header());
  print();
  save();
  process.exit(0);
}

const sourcesAtStart = newestSource();
// The Workers' own output goes to a file, for when a run fails (a Worker that exits stops both).
const devLog = join(os.tmpdir(), `ledgergate-bench-dev-${process.pid}.log`);
const devOut = openSync(devLog, "w");
// Part 10 alone starts its own Workers: the shared pair is started only for the other parts.
// Webhook retries of part 9 come within seconds, so its injected failures are retried inside the run.
const shared = PARTS[mode].some((part) => part !== "log");
const dev = shared
  ? spawn(process.execPath, ["scripts/dev.mjs"], {
      stdio: ["ignore", devOut, devOut],
      detached: true,
      env: {
        ...process.env,
        LEDGERGATE_EVENT_RETRY_SCHEDULE:
          process.env.LEDGERGATE_EVENT_RETRY_SCHEDULE ?? BENCH_RETRY_SCHEDULE,
        LEDGERGATE_LOG_LEVEL: LOG_LEVEL,
      },
    })
  : null;
console.error(`Workers starting; their output: ${devLog}`);
/** Stops a detached child and whatever it started (wrangler's workerd). */
const kill = (child) => {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
};
const stop = () => dev && kill(dev);
process.on("exit", stop);
/** Stops the shared pair and waits until both ports are free (part 10 starts its own Workers). */
const stopShared = async () => {
  if (!dev) return;
  stop();
  await down(`${GW}/healthz`);
  await down(`${SB}/_sandbox/keys`);
};

let keys = null;
let allKeys = null;
if (shared) {
  await up(`${SB}/_sandbox/keys`);
  await up(`${GW}/healthz`);
  await json("POST", `${SB}/_sandbox/reset`);
  allKeys = await json("GET", `${SB}/_sandbox/keys`);
  keys = allKeys.demo;
}
const direct = (token) => directCall(keys, token);
async function timed(fn) {
  const t0 = performance.now();
  const res = await fn();
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}

/**
 * The bare forwarder (bench/forwarder/) on FW_PORT, started as scripts/dev.mjs starts the Workers
 * (the project's wrangler and Node), its output in the same log. Only the latency part needs it.
 */
async function startForwarder() {
  const args = [
    "dev",
    "--config",
    "bench/forwarder/wrangler.toml",
    "--ip",
    "127.0.0.1",
    "--port",
    FW_PORT,
    "--inspector-port",
    FW_INSPECTOR_PORT,
  ];
  const child = spawn(join(bin, "wrangler"), args, {
    cwd: root,
    env: wranglerEnv(),
    stdio: ["ignore", devOut, devOut],
    detached: true,
  });
  const stopIt = () => kill(child);
  process.on("exit", stopIt);
  // Through the binding, not just the Worker: the dev registry may find the sandbox a moment later.
  await up(`${FW}/_sandbox/keys`);
  return () => {
    process.off("exit", stopIt);
    stopIt();
  };
}

/** Parts 1–2; answers a function that prints their tables. */
async function latencyBench() {
  // 1. Added latency. Each round times the three paths in turn, 350 ms apart, so none waits on a
  // rate limit; 40 warm-up rounds are dropped, 200 are kept. The two baselines (direct, and the
  // forwarder, which sends to the production root) call with a production client's token on the
  // production subscription key; the gateway's tenant is on demo. The sandbox counts each key's
  // 10 req/s apart, as the API does, so the baselines' calls never take room from the gateway's
  // governed ones or the other way round: a 429 in either column is that path's own.
  const stopForwarder = await startForwarder();
  const t = await newTenant();
  const prod = allKeys.production;
  const client = await json("POST", `${SB}/_sandbox/clients`, {
    environment: "production",
    name: "Bench latency baseline AS",
  });
  const token = await directToken(prod, client.clientKey, "production");
  const d = [];
  const w = [];
  const g = [];
  let latencyStatuses = 0;
  const l0 = await stats();
  for (let i = 0; i < 240; i++) {
    const a = await timed(() => directCall(prod, token, "production"));
    const b = await timed(() => viaForwarder(prod, token));
    const c = await timed(() => viaGateway(t.gatewayKey));
    if (a.status !== 200 || b.status !== 200 || c.status !== 200) latencyStatuses++;
    if (i >= 40) {
      d.push(a.ms);
      w.push(b.ms);
      g.push(c.ms);
    }
    await sleep(350);
  }
  const l1 = await stats();
  const throttledIn = (s, e) => s.environments[e].throttled;
  const latencyThrottled = {
    baselines: throttledIn(l1, "production") - throttledIn(l0, "production"),
    gateway: throttledIn(l1, "demo") - throttledIn(l0, "demo"),
  };
  stopForwarder();

  // 2. Token requests per 1,000 calls. Ours: 1,000 calls through the gateway. Baseline: a client
  //    that
  // asks for a token before each call, measured over 100 calls and counted from the sandbox's
  // stats. Counted from before registration: the token that checked the key is the one the calls
  // reuse.
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
  const oursPer1000 =
    ((s1.tokenRequests.byClient[t2.clientId] ?? 0) -
      (s0.tokenRequests.byClient[t2.clientId] ?? 0)) *
    (1000 / CALLS);
  const t3 = await newTenant();
  s0 = await stats();
  for (let i = 0; i < 100; i++) {
    const tok = await directToken(keys, t3.clientKey);
    await (await direct(tok)).arrayBuffer();
    await sleep(220);
  }
  s1 = await stats();
  const naivePer1000 =
    ((s1.tokenRequests.byClient[t3.clientId] ?? 0) -
      (s0.tokenRequests.byClient[t3.clientId] ?? 0)) *
    10;

  return () => {
    const f = (x) => x.toFixed(1);
    const ratio = (a, b) =>
      `${(pct(a, 50) / pct(b, 50)).toFixed(2)}× | ${(pct(a, 99) / pct(b, 99)).toFixed(2)}× |`;
    console.log(
      `\n1. Latency, GET /v2/ClientIntegrationInformation, ${d.length} calls each, all Workers local (ms; rounds with a non-200: ${latencyStatuses}; sandbox 429s: ${latencyThrottled.baselines} on the baselines' production key, ${latencyThrottled.gateway} on the gateway's demo key)\n`,
    );
    console.log("| path | median | p99 |\n|---|---|---|");
    console.log(`| sandbox directly (baseline) | ${f(pct(d, 50))} | ${f(pct(d, 99))} |`);
    console.log(
      `| through a bare forwarding Worker (second baseline) | ${f(pct(w, 50))} | ${f(pct(w, 99))} |`,
    );
    console.log(`| through ledgergate | ${f(pct(g, 50))} | ${f(pct(g, 99))} |`);
    console.log(`| ratio: ledgergate ÷ direct | ${ratio(g, d)}`);
    console.log(
      `| ratio: forwarder ÷ direct (any Worker in front of the sandbox, here) | ${ratio(w, d)}`,
    );
    console.log(`| ratio: ledgergate ÷ forwarder (what ledgergate itself adds) | ${ratio(g, w)}`);
    console.log(
      `| ledgergate − forwarder, ms (goal at the median: 1.5) | ${f(pct(g, 50) - pct(w, 50))} | ${f(pct(g, 99) - pct(w, 99))} |`,
    );
    console.log("\n2. Token requests per 1,000 calls\n");
    console.log("| client | token requests |\n|---|---|");
    console.log(`| a token per call (baseline, 100 calls) | ${naivePer1000} |`);
    console.log(`| ledgergate (1,000 calls) | ${oursPer1000} |`);
    console.log(`| ratio | ${(oursPer1000 / naivePer1000).toFixed(4)} |`);
  };
}

const printers = [];
const BENCHES = {
  latency: latencyBench,
  load: () => loadBench(keys),
  orders: () => ordersBench(keys),
  pace: () => paceBench(),
  reference: referenceBench,
  bursts: burstsBench,
  events: () => eventsBench(keys),
  oauth: oauthBench,
  watcher: () => watcherBench(keys),
  log: async () => {
    await stopShared();
    return requestLogBench(devOut);
  },
  payouts: () => payoutsBench(keys),
  mcp: mcpBench,
};
for (const part of PARTS[mode]) printers.push(await BENCHES[part]());
stop();
console.log(header());
console.log(
  `gateway LOG_LEVEL ${LOG_LEVEL}${LOG_LEVEL === "warn" ? " (no line per request, as the forwarder; part 10 measures the line)" : ""}`,
);
if (newestSource() !== sourcesAtStart)
  console.log(
    "\nNOTE: sources under src/, shared/ or sandbox/src/ changed during this run, so wrangler reloaded a Worker mid-run (dropped connections, a fresh RateGovernor); its figures are suspect.",
  );
for (const print of printers) print();
save();
process.exit(0);
