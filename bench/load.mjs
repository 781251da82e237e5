// The load part of `npm run bench` (`npm run bench -- load` runs only this part): the shared
// 10 req/s of one subscription key through the RateGovernor, each figure against a baseline
// measured in this run:
//   3.  upstream 429s at 5, 10, 50 and 200 req/s offered for 10 s each; baseline: the same calls
//       straight to the sandbox, with no limiter,
//   3b. upstream use when demand exceeds the quota (the 50 and 200 req/s runs of 3): calls the
//       sandbox served per second over the steady part; baseline: the client with no limiter,
//   3c. fairness: a light tenant's wait at 1 req/s while another floods at 100 req/s (baseline: the
//       light tenant alone), and Jain's index over 5 backlogged tenants offering 4 to 64 req/s
//       (baseline: the same offers with no limiter, where the API serves whoever asks most).
// Everything through ledgergate runs first and the no-limiter baselines last (see loadBench). Not a
// test: it asserts nothing. Needs both Workers up and the sandbox's demo keys; `run.mjs` starts
// them.
import {
  direct,
  directToken,
  jain,
  newTenant,
  openLoop,
  pct,
  quiet,
  servedRate,
  sleep,
  viaGateway,
} from "./lib.mjs";

const RATES = [5, 10, 50, 200];
/** Each offered load lasts this long, s. */
const SECONDS = 10;
/**
 * The steady part of a run, ms from its start: the queue is full after the first second; the last
 * calls are sent at 10 s.
 */
const STEADY = [2000, 10_000];
/** The API's limit, req/s (the sandbox's default). */
const LIMIT = 10;
/**
 * Offered req/s of the 5 backlogged tenants: all above a fair share (10 × 0.95 ÷ 5 = 1.9), and
 * unequal, so a limiter that is not fair shows it.
 */
const BACKLOGGED = [4, 8, 16, 32, 64];

/**
 * A tenant of the gateway, and the same client for the no-limiter baseline. Its token for that is
 * asked for only by `directly`, after every measurement through ledgergate: a direct token request
 * spends the shared key beside the governor, as any other user of the key would.
 */
async function pair(keys) {
  const t = await newTenant();
  let token = null;
  return {
    gateway: () => viaGateway(t.gatewayKey),
    direct: () => direct(keys, token),
    directly: async () => {
      token ??= await directToken(keys, t.clientKey);
      if (!token) throw new Error("the sandbox refused a token for the no-limiter baseline");
    },
  };
}

const count = (calls, status) => calls.filter((c) => c.status === status).length;
const throttled = (run) => run.samples.at(-1).throttled - run.samples[0].throttled;
/** Statuses other than 200 and 503, as "n (k×status, …)". */
function others(calls) {
  const other = calls.filter((c) => c.status !== 200 && c.status !== 503).map((c) => c.status);
  return other.length
    ? `${other.length} (${[...new Set(other)].map((s) => `${other.filter((x) => x === s).length}×${s}`).join(", ")})`
    : "0";
}

/** 200s per tenant answered inside the steady part, when `send(i)` goes to tenant `owner(i)`. */
function steadyCounts(run, owner, tenants) {
  const counts = Array(tenants).fill(0);
  for (const c of run.calls)
    if (c.status === 200 && c.doneAt >= STEADY[0] && c.doneAt < STEADY[1]) counts[owner(c.i)]++;
  return counts;
}

/**
 * Sends the 5 backlogged tenants' offers mixed at random (a seeded draw, the same in every run):
 * a fixed round of calls would lock into phase with the API's rolling second and hand the
 * no-limiter baseline's few free places to the same tenants every second.
 */
async function backlogged(tenants, via) {
  const total = BACKLOGGED.reduce((a, b) => a + b, 0);
  let seed = 12; // mulberry32
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const owners = Array.from({ length: total * SECONDS }, () => {
    let r = random() * total;
    return BACKLOGGED.findIndex((offer) => (r -= offer) < 0);
  });
  const owner = (i) => owners[i];
  const run = await openLoop(total, SECONDS, (i) => tenants[owner(i)][via]());
  return { counts: steadyCounts(run, owner, tenants.length), throttled: throttled(run) };
}

/** Runs part 3, 3b and 3c; answers a function that prints their tables. */
export async function loadBench(keys) {
  // Every tenant first: registering one takes a token request, which should not meet a busy key.
  const t = await pair(keys);
  const light = await pair(keys);
  const flood = await pair(keys);
  const five = [];
  for (let k = 0; k < BACKLOGGED.length; k++) five.push(await pair(keys));
  const step = async (what) => {
    await quiet(1500);
    console.error(`load: ${what}`);
  };

  // Everything through ledgergate first, the no-limiter baselines last: a baseline saturates the
  // key that ledgergate shares, and any 429 ledgergate meets meanwhile (a token renewal, say)
  // rightly slows its governor, which would then carry into the next measurement.
  const loads = RATES.map((rate) => ({ rate }));
  for (const row of loads) {
    await step(`${row.rate} req/s for ${SECONDS} s through ledgergate`);
    row.gateway = await openLoop(row.rate, SECONDS, () => t.gateway());
  }
  // 3c. A light tenant at 1 req/s: alone, then while another tenant floods at 100 req/s (it starts
  // 2 s into the flood, when the flood's queue is long).
  await step("a light tenant alone");
  const alone = await openLoop(1, SECONDS, () => light.gateway());
  await step("the light tenant beside a flood");
  const [flooded, beside] = await Promise.all([
    openLoop(100, 20, () => flood.gateway()),
    sleep(2000).then(() => openLoop(1, 15, () => light.gateway())),
  ]);
  const waits = (run) => run.calls.filter((c) => c.status === 200).map((c) => c.doneAt - c.sentAt);
  await step("5 backlogged tenants through ledgergate");
  const fairGateway = await backlogged(five, "gateway");

  await step("tokens for the no-limiter client");
  for (const p of [t, ...five]) await p.directly();
  for (const row of loads) {
    await step(`${row.rate} req/s for ${SECONDS} s with no limiter`);
    row.direct = await openLoop(row.rate, SECONDS, () => t.direct());
  }
  await step("5 backlogged tenants with no limiter");
  const fairDirect = await backlogged(five, "direct");

  return () => {
    const f = (x) => x.toFixed(1);
    console.log(`\n3. Upstream 429s at offered loads (${SECONDS} s each; limit ${LIMIT} req/s)\n`);
    console.log(
      "| offered req/s | no limiter (baseline): 429s of calls | ledgergate: upstream 429s | ledgergate: 200 / 503 refused for deadline / other |\n|---|---|---|---|",
    );
    for (const r of loads)
      console.log(
        `| ${r.rate} | ${throttled(r.direct)} of ${r.direct.calls.length} | ${throttled(r.gateway)} | ${count(r.gateway.calls, 200)} / ${count(r.gateway.calls, 503)} / ${others(r.gateway.calls)} |`,
      );
    console.log(
      `\n3b. Upstream use when demand exceeds the quota: calls the sandbox served per second from ${STEADY[0] / 1000} s to ${STEADY[1] / 1000} s of each run of 3\n`,
    );
    console.log(
      `| offered req/s | no limiter (baseline): served/s | ledgergate: served/s | ledgergate: of ${LIMIT} req/s | ledgergate ÷ baseline |\n|---|---|---|---|---|`,
    );
    for (const r of loads.filter((l) => l.rate > LIMIT)) {
      const [d, g] = [
        servedRate(r.direct.samples, ...STEADY),
        servedRate(r.gateway.samples, ...STEADY),
      ];
      console.log(
        `| ${r.rate} | ${d.toFixed(2)} | ${g.toFixed(2)} | ${((100 * g) / LIMIT).toFixed(1)} % | ${(g / d).toFixed(3)} |`,
      );
    }
    console.log("\n3c. Fairness\n");
    console.log(
      "| light tenant, 1 req/s, through ledgergate (ms from send to answer) | calls | median | p95 | max |\n|---|---|---|---|---|",
    );
    for (const [name, run] of [
      ["alone (baseline)", alone],
      ["while another tenant floods at 100 req/s", beside],
    ]) {
      const w = waits(run);
      console.log(
        `| ${name} | ${w.length} of ${run.calls.length} answered 200 | ${f(pct(w, 50))} | ${f(pct(w, 95))} | ${f(Math.max(...w))} |`,
      );
    }
    const fw = waits(flooded);
    console.log(
      `| the flooding tenant itself (for scale) | ${fw.length} of ${flooded.calls.length} answered 200, ${count(flooded.calls, 503)} refused 503 | ${f(pct(fw, 50))} | ${f(pct(fw, 95))} | ${f(Math.max(...fw))} |`,
    );
    console.log(
      `\n| 5 backlogged tenants offering ${BACKLOGGED.join(", ")} req/s for ${SECONDS} s | 200s per tenant from ${STEADY[0] / 1000} s to ${STEADY[1] / 1000} s | Jain's index | upstream 429s |\n|---|---|---|---|`,
    );
    for (const [name, r] of [
      ["no limiter (baseline)", fairDirect],
      ["ledgergate", fairGateway],
    ])
      console.log(
        `| ${name} | ${r.counts.join(" · ")} | ${jain(r.counts).toFixed(3)} | ${r.throttled} |`,
      );
    console.log(`\nUpstream 429s through ledgergate during the flood: ${throttled(flooded)}.`);
  };
}
