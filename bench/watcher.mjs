// The watcher part of `npm run bench -- events` (`npm run bench -- watcher` runs only this part),
// with the Workers as `npm start` runs them (the watcher's shortest cycle 5 s; at 20 tenants and
// more the budget, not that floor, sets the cycle):
//   9e. detection delay of changes made elsewhere (a customer created straight in the sandbox with
//       the client's own token) for 20, then 100 watched tenants at the default share, p50 and p95,
//       against the goal of p95 under 60 s for 20; the cycle formula for larger counts;
//   9f. what a cycle costs (upstream calls), and the watchers' share of the upstream calls made;
//   9g. callers' /v2 permit wait (the request log's permitWaitMs), p95, with no tenant watched and
//       with each count watched, the same caller load (4 calls a second) each time; upstream 429s.
// The changes "elsewhere" are another vendor's integration's (the sandbox's `other` keys): its own
// subscription key and so its own rate limit, as on the real API, so they never draw a 429 from the
// gateway's budget nor it from theirs.
// The delay is measured from the change's answer to its event in the tenant's feed, read every
// second for 20 tenants (a second's resolution) and every 5 s for 100. Every tenant the gateway's
// state watches shares the watchers' budget: run it on a fresh state (LEDGERGATE_PERSIST_DIR). The
// 100 take two 200 s cycles after settling: about 20 minutes in all (LEDGERGATE_BENCH_WATCHED=20
// for the 20 alone). Every figure comes from this run. Not a test: it asserts nothing.
import { GW, SB, directToken, json, newTenant, pct, sleep, stats } from "./lib.mjs";

/** Watched tenants measured, in turn (`LEDGERGATE_BENCH_WATCHED`, e.g. `20` for a shorter run). */
const COUNTS = (process.env.LEDGERGATE_BENCH_WATCHED?.trim() || "20,100")
  .split(",")
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0)
  .sort((a, b) => a - b);
/** The API's limit and the watchers' default share (`WATCHER_BUDGET_SHARE`). */
const LIMIT = 10;
const SHARE = 0.2;
/** Polls a cycle of a tenant whose endpoint takes every type. */
const POLLS = 4;
/** Caller load of 9g, calls a second (each run lasts two cycles). */
const CALLER_RATE = 4;
const ADMIN = { authorization: "Bearer local-admin-token" };
const auth = (key) => ({ authorization: `Bearer ${key}` });

/** The active cycle of `n` tenants of `POLLS` polls at the default share, s (docs/events.md). */
const cycleOf = (n, floor = 5) => Math.max(floor, (n * POLLS) / (LIMIT * SHARE));

/** `t`'s request log rows since `since` (epoch ms), newest first, page by page. */
async function loggedSince(t, since) {
  const out = [];
  let before = null;
  for (;;) {
    const q = `limit=200${before ? `&before=${encodeURIComponent(before)}` : ""}`;
    const page = await json("GET", `${GW}/admin/tenants/demo/${t.slug}/requests?${q}`, null, ADMIN);
    const rows = page.requests ?? [];
    out.push(...rows.filter((r) => Date.parse(r.at) >= since));
    if (!page.next || rows.length === 0 || Date.parse(rows.at(-1).at) < since) return out;
    before = page.next;
  }
}

/**
 * 429s the API answered the gateway's own calls among `rows` (request log rows): a row answered
 * 429, or a resend (a GET is sent again after a 429 or 503).
 */
const throttledOf = (rows) =>
  rows.reduce((n, r) => n + (r.apiStatus === 429 ? 1 : 0) + Math.max(0, r.attempts - 1), 0);

/**
 * `CALLER_RATE` calls a second of GET /v2/Customers for `ms`; answers the callers' permit waits
 * and the 429s their calls met.
 */
async function callerLoad(t, ms) {
  const since = Date.now();
  const calls = [];
  while (Date.now() - since < ms) {
    calls.push(
      fetch(`${GW}/v2/Customers?PageSize=1`, { headers: auth(t.gatewayKey) }).then((r) =>
        r.arrayBuffer(),
      ),
    );
    await sleep(1000 / CALLER_RATE);
  }
  await Promise.all(calls);
  const rows = (await loggedSince(t, since)).filter((r) => r.caller.kind === "key");
  return { waits: rows.map((r) => r.permitWaitMs), throttled: throttledOf(rows) };
}

/**
 * The watcher's rows in `t`'s request log from `since` to `until`: its attempts (a row each,
 * refused ones included), the upstream calls they made, and the 429s those met.
 */
async function watcherCalls(t, since, until) {
  const rows = (await loggedSince(t, since)).filter(
    (r) => r.caller.kind === "watcher" && Date.parse(r.at) < until,
  );
  return {
    rows: rows.length,
    calls: rows.reduce((n, r) => n + r.attempts, 0),
    throttled: throttledOf(rows),
  };
}

/**
 * `t`'s token straight from the sandbox, as another integration holds it (its application's keys,
 * `keys.other`; renewed after 10 min).
 */
async function tokenOf(t, keys) {
  if (!t.token || Date.now() - t.tokenAt > 600_000) {
    t.token = await directToken(keys.other, t.clientKey);
    t.tokenAt = Date.now();
  }
  return t.token;
}

/**
 * Two customers a tenant created straight in the sandbox with its own token, at random moments over
 * `windowMs`; with `everyMs`, each followed in the tenant's feed read every `everyMs`, and its delay
 * (s) answered.
 */
function outsideChanges(tenants, keys, windowMs, everyMs) {
  return tenants.flatMap((t) =>
    [0, 1].map(async () => {
      await sleep(Math.random() * windowMs);
      const made = await fetch(`${SB}/Demo/v2/Customers`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${await tokenOf(t, keys)}`,
          "ocp-apim-subscription-key": keys.other.subscriptionKey,
          "content-type": "application/json",
        },
        body: JSON.stringify({ Name: `Elsewhere ${Math.random()}` }),
      }).then((r) => r.json());
      if (!everyMs) return null;
      const t0 = Date.now();
      while (Date.now() - t0 < 2 * windowMs) {
        const feed = await json(
          "GET",
          `${GW}/events?types=customer.created&limit=100`,
          null,
          auth(t.gatewayKey),
        );
        if ((feed.events ?? []).some((e) => e.data.Id === made.Id)) return (Date.now() - t0) / 1000;
        await sleep(everyMs);
      }
      return Infinity;
    }),
  );
}
/**
 * Runs 9e–9g: the baseline, then each count of `COUNTS` watched in turn (the tenants of the
 * smaller count stay watched); answers the printer.
 */
export async function watcherBench(keys) {
  const caller = await newTenant("Caller AS", "caller");
  const tenants = [];
  const grow = async (n) => {
    while (tenants.length < n)
      tenants.push(await newTenant(`Watched ${tenants.length} AS`, "watched"));
  };
  await grow(COUNTS[0]);
  const baseMs = 2 * cycleOf(COUNTS[0]) * 1000;
  // The baseline: the same callers and the same changes made elsewhere, no tenant watched yet.
  const b0 = await stats();
  const [quiet] = await Promise.all([
    callerLoad(caller, baseMs),
    ...outsideChanges(tenants, keys, baseMs, 0),
  ]);
  const b1 = await stats();
  const baseline = {
    waits: quiet.waits,
    gatewayThrottled: quiet.throttled,
    throttled: b1.throttled - b0.throttled,
    ms: baseMs,
  };

  const phases = [];
  for (const n of COUNTS) {
    const fresh = tenants.length;
    await grow(n);
    for (const t of tenants.slice(n === COUNTS[0] ? 0 : fresh))
      await json(
        "POST",
        `${GW}/events/endpoints`,
        { url: "http://127.0.0.1:9/none", types: ["*"] },
        auth(t.gatewayKey),
      );
    phases.push(await measurePhase(caller, tenants, keys, n));
  }
  return () => printWatcher(baseline, phases);
}

/**
 * One count's run: waits until every watcher runs at the cadence of all `n` (each reports after
 * each cycle), then two cycles of caller load and changes made elsewhere, each followed in its
 * tenant's feed.
 */
async function measurePhase(caller, tenants, keys, n) {
  const want = cycleOf(n);
  const windowMs = 2 * want * 1000;
  const settled = Date.now();
  while (Date.now() - settled < 3 * want * 1000) {
    const views = await Promise.all(
      tenants.map((t) => json("GET", `${GW}/events/endpoints`, null, auth(t.gatewayKey))),
    );
    if (views.every((v) => v.watcher.cycleSeconds >= want)) break;
    await sleep(2000);
  }
  // Feeds read every second for 20 tenants; for more, every n/20 s, so the bench's own reads
  // stay at 40 a second (a delay's resolution is that interval).
  const everyMs = Math.max(1000, (n / 20) * 1000);
  const s0 = await stats();
  const since = Date.now();
  const [callers, ...delays] = await Promise.all([
    callerLoad(caller, windowMs),
    ...outsideChanges(tenants, keys, windowMs, everyMs),
  ]);
  const s1 = await stats();
  const until = Date.now();
  const views = await Promise.all(
    tenants.map((t) => json("GET", `${GW}/events/endpoints`, null, auth(t.gatewayKey))),
  );
  const outcomes = {};
  for (const v of views) {
    const o = v.watcher.lastCycle?.outcome ?? "none";
    outcomes[o] = (outcomes[o] ?? 0) + 1;
  }
  const watched = await Promise.all(tenants.map((t) => watcherCalls(t, since, until)));
  const sum = (k) => watched.reduce((n, w) => n + w[k], 0);
  return {
    n,
    everyMs,
    windowMs,
    delays,
    waits: callers.waits,
    cycleSeconds: views[0]?.watcher.cycleSeconds,
    cap: views[0]?.watcher.maxCallsPerCycle,
    cycleCalls: views.map((v) => v.watcher.lastCycle?.calls ?? 0),
    outcomes,
    attempts: sum("rows"),
    polled: sum("calls"),
    windowS: (until - since) / 1000,
    upstream: s1.requests - s0.requests,
    throttled: s1.throttled - s0.throttled,
    gatewayThrottled: callers.throttled + sum("throttled"),
  };
}

/** Prints 9e–9g of the baseline and the measured counts. */
function printWatcher(baseline, phases) {
  const f = (x) => (Number.isFinite(x) ? x.toFixed(1) : "not seen");
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  console.log(
    `\n9e. Detection delay of changes made elsewhere (watched tenants at the default share ${SHARE}; each tenant's feed read every second for 20, every N/20 s for N)\n`,
  );
  console.log(
    "| tenants | cycle, s | changes | seen | feed read every, s | p50, s | p95, s | goal (p95) |\n|---|---|---|---|---|---|---|---|",
  );
  for (const p of phases)
    console.log(
      `| ${p.n} (measured) | ${p.cycleSeconds} | ${p.delays.length} | ${p.delays.filter(Number.isFinite).length} | ${p.everyMs / 1000} | ${f(pct(p.delays, 50))} | ${f(pct(p.delays, 95))} | ${p.n <= 20 ? "under 60 s" : "–"} |`,
    );
  for (const n of [150, 500])
    console.log(
      `| ${n} (formula) | ${cycleOf(n, 30)} | – | – | – | ≈ ${cycleOf(n, 30) / 2} | ≈ ${(0.95 * cycleOf(n, 30)).toFixed(0)} | – |`,
    );
  console.log(
    `\ncycle = max(WATCHER_CYCLE_SECONDS, polls of all active tenants ÷ (${LIMIT} × WATCHER_BUDGET_SHARE)) = 2·N s for N active tenants of ${POLLS} polls at 0.2; idle tenants 4× less often. This run's floor was 5 s (npm start's); deployed it is 30 s.`,
  );
  console.log("\n9f. What the watcher costs\n");
  console.log(
    "| tenants | calls of a tenant's last cycle (mean; 4 polls) | cap of a cycle's calls | last cycle outcomes | watcher attempts (rows, refused included) | watcher upstream calls a second (budget 2) | watcher calls / all upstream calls |\n|---|---|---|---|---|---|---|",
  );
  for (const p of phases)
    console.log(
      `| ${p.n} | ${mean(p.cycleCalls).toFixed(2)} | ${p.cap} | ${JSON.stringify(p.outcomes)} | ${p.attempts} | ${(p.polled / p.windowS).toFixed(2)} | ${p.polled} / ${p.upstream} = ${(p.polled / Math.max(1, p.upstream)).toFixed(3)} |`,
    );
  console.log(
    `\n9g. Callers' permit wait (${CALLER_RATE} calls/s for two cycles of each run), with and without the watcher\n`,
  );
  console.log(
    "| run | calls | p50 wait, ms | p95 wait, ms | upstream 429s: all / to the gateway's calls |\n|---|---|---|---|---|",
  );
  console.log(
    `| no tenant watched (baseline, ${baseline.ms / 1000} s) | ${baseline.waits.length} | ${pct(baseline.waits, 50)} | ${pct(baseline.waits, 95)} | ${baseline.throttled} / ${baseline.gatewayThrottled} |`,
  );
  for (const p of phases)
    console.log(
      `| ${p.n} tenants watched (${p.windowMs / 1000} s) | ${p.waits.length} | ${pct(p.waits, 50)} | ${pct(p.waits, 95)} | ${p.throttled} / ${p.gatewayThrottled} |`,
    );
}
