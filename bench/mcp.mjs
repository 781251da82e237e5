// Part 12 of `npm run bench` (`-- mcp`): what an assistant's MCP tool calls cost (issue 27).
//   12a. A `read` tool call's latency against the same GET through /v2 (the baseline), in turns.
//   12b. What an assistant's burst costs its tenant's own callers, with and without its lane: tenant
//        A's callers and tenant B's send a steady GET each every 500 ms; every 5 s a burst of 20
//        parallel calls comes: 20 `read` tool calls of A's assistant (its own lane, `A#assistant`),
//        or the same 20 GETs on A's own key through /v2 (one queue with A's callers: what the
//        assistant got before its lane), or on a third tenant's key through /v2 (a caller's burst,
//        the yardstick of the issue), or none (the baseline). The settings alternate, so a drift or
//        a stall of the machine falls on one repetition of one setting; each figure is the median
//        over the repetitions of that repetition's percentile.
//   12c. An assistant calling all the time (four tool calls always in flight) alone, beside its
//        tenant's callers (four /v2 calls always in flight), and beside those and another tenant's:
//        its share of the calls served (the rule: 1/N of what is queued among N busy lanes).
//   12d. A run of 100 orders of 20 shop tenants with and without 20 tool calls of another
//        tenant's assistant (bench/mcp-orders.mjs).
// All calls are GET /ClientIntegrationInformation (the tool: `read { path }`), which the reference
// cache never answers, so each costs one permit. Every figure comes from this one run. Not a test:
// it asserts nothing.
import { mcpTool, newTenant, pct, sleep, stats, viaGateway } from "./lib.mjs";
import { ordersBesideBurst, printOrdersBesideBurst } from "./mcp-orders.mjs";

const PATH = "/ClientIntegrationInformation";
/** 12a: rounds dropped at the start, rounds kept, and the pause between rounds, ms. */
const WARM_UP = 10;
const KEPT = 80;
const PAUSE_MS = 300;
/** 12b: how long each setting runs, the callers' period, the bursts' period and size. */
const RUN_MS = 20_000;
const CALLER_EVERY_MS = 500;
const BURST_EVERY_MS = 5000;
const BURST = 20;
/** 12b: each setting's repetitions (alternating). */
const REPETITIONS = 3;
/** 12c: calls each group keeps in flight, how long each setting runs, and the part measured. */
const IN_FLIGHT = 6;
const FLOOD_MS = 14_000;
const MEASURED = [2000, 12_000];

/**
 * One MCP `tools/call` of `read` as a stateless 2025-era POST (what an assistant's SDK client sends
 * once connected); answers `{ status }`: 200 for a result, 599 and its text for a tool error.
 */
async function toolRead(key) {
  const { status, result } = await mcpTool(key, "read", { path: PATH });
  if (status === 200 && result && !result.isError) return { status: 200 };
  // A tool error (a refused permit's "Try again in N seconds", say) is a failed call: 599.
  return { status: status === 200 ? 599 : status, error: result?.content?.[0]?.text };
}

/** A /v2 GET of `PATH` on `key`, its body read. */
async function v2Read(key) {
  const res = await viaGateway(key);
  await res.arrayBuffer();
  return { status: res.status };
}

/** `fn()` timed: its status and ms. */
async function timed(fn) {
  const t0 = performance.now();
  const { status } = await fn().catch(() => ({ status: 0 }));
  return { ms: performance.now() - t0, status };
}

const throttled = async () => (await stats()).environments.demo.throttled;

/** 12a. */
async function latency(t) {
  const v2 = [];
  const tool = [];
  let failed = 0;
  for (let i = 0; i < WARM_UP + KEPT; i++) {
    const a = await timed(() => v2Read(t.gatewayKey));
    const b = await timed(() => toolRead(t.gatewayKey));
    if (a.status !== 200 || b.status !== 200) failed++;
    if (i >= WARM_UP) {
      v2.push(a.ms);
      tool.push(b.ms);
    }
    await sleep(PAUSE_MS);
  }
  return { v2, tool, failed };
}

/**
 * 12b, one setting: A's and B's steady callers for `RUN_MS`, with a burst of `BURST` calls of A
 * every `BURST_EVERY_MS` sent by `burst` (none: the baseline). Each call's time and status.
 */
async function steadyWithBursts(a, b, burst) {
  const t0 = performance.now();
  const calls = { a: [], b: [], burst: [] };
  const pending = [];
  const at = (ms) => sleep(Math.max(0, ms - (performance.now() - t0)));
  const schedule = [];
  for (let ms = 0; ms < RUN_MS; ms += CALLER_EVERY_MS) {
    schedule.push({ ms, who: "a", send: () => v2Read(a.gatewayKey) });
    schedule.push({ ms: ms + CALLER_EVERY_MS / 2, who: "b", send: () => v2Read(b.gatewayKey) });
  }
  if (burst)
    for (let ms = BURST_EVERY_MS / 2; ms < RUN_MS; ms += BURST_EVERY_MS)
      for (let k = 0; k < BURST; k++) schedule.push({ ms, who: "burst", send: burst });
  schedule.sort((x, y) => x.ms - y.ms);
  for (const s of schedule) {
    await at(s.ms);
    pending.push(timed(s.send).then((r) => calls[s.who].push(r)));
  }
  await Promise.all(pending);
  return calls;
}

/** 12c, one setting: each group in `groups` keeps `IN_FLIGHT` calls in flight for `FLOOD_MS`. */
async function flood(groups) {
  const t0 = performance.now();
  const served = Object.fromEntries(groups.map(([name]) => [name, 0]));
  let failed = 0;
  const loop = async (name, send) => {
    while (performance.now() - t0 < FLOOD_MS) {
      const { status } = await send().catch(() => ({ status: 0 }));
      const doneAt = performance.now() - t0;
      if (status !== 200) failed++;
      else if (doneAt >= MEASURED[0] && doneAt < MEASURED[1]) served[name]++;
    }
  };
  await Promise.all(
    groups.flatMap(([name, send]) => Array.from({ length: IN_FLIGHT }, () => loop(name, send))),
  );
  return { served, failed };
}

/** Runs part 12; answers a function that prints its tables. */
export async function mcpBench() {
  const a = await newTenant("Bench MCP A AS", "mcp-a");
  const b = await newTenant("Bench MCP B AS", "mcp-b");
  const c = await newTenant("Bench MCP C AS", "mcp-c");
  // Warm: each tenant's token, the MCP route's first isolate work.
  for (const t of [a, b, c]) {
    await v2Read(t.gatewayKey);
    await toolRead(t.gatewayKey);
  }

  const th0 = await throttled();
  const lat = await latency(a);
  const th1 = await throttled();

  const settings = {
    none: null,
    assistant: () => toolRead(a.gatewayKey),
    caller: () => v2Read(a.gatewayKey),
    other: () => v2Read(c.gatewayKey),
  };
  const runs = Object.fromEntries(Object.keys(settings).map((name) => [name, []]));
  const throttledIn = Object.fromEntries(Object.keys(settings).map((name) => [name, 0]));
  for (let r = 0; r < REPETITIONS; r++)
    for (const [name, burst] of Object.entries(settings)) {
      await sleep(2000); // the window and any queue empty
      const before = await throttled();
      runs[name].push(await steadyWithBursts(a, b, burst));
      throttledIn[name] += (await throttled()) - before;
    }
  const th2 = await throttled();

  const floods = [];
  for (const [label, groups] of [
    ["alone", [["assistant", () => toolRead(a.gatewayKey)]]],
    [
      "beside its tenant's callers",
      [
        ["assistant", () => toolRead(a.gatewayKey)],
        ["A's callers", () => v2Read(a.gatewayKey)],
      ],
    ],
    [
      "beside its tenant's and another tenant's callers",
      [
        ["assistant", () => toolRead(a.gatewayKey)],
        ["A's callers", () => v2Read(a.gatewayKey)],
        ["B's callers", () => v2Read(b.gatewayKey)],
      ],
    ],
  ]) {
    await sleep(2000);
    floods.push({ label, lanes: groups.length, ...(await flood(groups)) });
  }
  const th3 = await throttled();
  const orders = await ordersBesideBurst(b, toolRead);

  return () => {
    const f = (x) => x.toFixed(1);
    const r = (x, y) => `${(x / y).toFixed(2)}×`;
    console.log(
      `\n12a. MCP read tool against the same GET through /v2 (${PATH}), ${KEPT} calls each in turns, ${PAUSE_MS} ms apart (ms; non-200 or tool errors: ${lat.failed}; sandbox 429s: ${th1 - th0})\n`,
    );
    console.log("| path | median | p95 |\n|---|---|---|");
    console.log(`| GET through /v2 (baseline) | ${f(pct(lat.v2, 50))} | ${f(pct(lat.v2, 95))} |`);
    console.log(
      `| \`read\` tool through /mcp | ${f(pct(lat.tool, 50))} | ${f(pct(lat.tool, 95))} |`,
    );
    console.log(
      `| ratio | ${r(pct(lat.tool, 50), pct(lat.v2, 50))} | ${r(pct(lat.tool, 95), pct(lat.v2, 95))} |`,
    );

    const bad = (name) =>
      runs[name].flatMap((c) => [...c.a, ...c.b, ...c.burst]).filter((c) => c.status !== 200)
        .length;
    // The median over the repetitions of each repetition's `p`th percentile.
    const ms = (name, who, p) =>
      pct(
        runs[name].map((c) =>
          pct(
            c[who].map((x) => x.ms),
            p,
          ),
        ),
        50,
      );
    console.log(
      `\n12b. An assistant's burst and its tenant's own callers: A's and B's callers a GET each every ${CALLER_EVERY_MS} ms, a burst of ${BURST} calls every ${BURST_EVERY_MS / 1000} s, ${RUN_MS / 1000} s a setting, ${REPETITIONS} repetitions alternating (ms from send to answer, the median of the repetitions' percentiles; sandbox 429s in all: ${th2 - th1})\n`,
    );
    console.log(
      "| burst | A's callers p50 | ÷ no burst | A's callers p95 | ÷ no burst | B's callers p95 | ÷ no burst | burst calls p50 | burst calls p95 | failed calls | 429s |\n|---|---|---|---|---|---|---|---|---|---|---|",
    );
    const label = {
      none: "none (baseline)",
      assistant: `${BURST} \`read\` tool calls of A's assistant (its lane)`,
      caller: `the same ${BURST} GETs on A's key via /v2 (no lane: one queue with A's callers)`,
      other: `the same ${BURST} GETs on tenant C's key via /v2 (another caller's burst)`,
    };
    for (const name of Object.keys(label)) {
      const burst =
        name === "none" ? ["–", "–"] : [f(ms(name, "burst", 50)), f(ms(name, "burst", 95))];
      const vs = (who, p) => r(ms(name, who, p), ms("none", who, p));
      console.log(
        `| ${label[name]} | ${f(ms(name, "a", 50))} | ${vs("a", 50)} | ${f(ms(name, "a", 95))} | ${vs("a", 95)} | ${f(ms(name, "b", 95))} | ${vs("b", 95)} | ${burst[0]} | ${burst[1]} | ${bad(name)} | ${throttledIn[name]} |`,
      );
    }
    console.log(
      `\n12c. An assistant calling all the time: each group keeps ${IN_FLIGHT} calls in flight; calls served between ${MEASURED[0] / 1000} and ${MEASURED[1] / 1000} s (sandbox 429s in all: ${th3 - th2})\n`,
    );
    console.log(
      "| assistant | busy lanes | assistant's calls | others' calls | assistant's share | the rule (1/N) | served a second | failed calls |\n|---|---|---|---|---|---|---|---|",
    );
    for (const fl of floods) {
      const mine = fl.served.assistant;
      const total = Object.values(fl.served).reduce((x, y) => x + y, 0);
      const others = Object.entries(fl.served)
        .filter(([k]) => k !== "assistant")
        .map(([k, v]) => `${k}: ${v}`)
        .join(", ");
      console.log(
        `| ${fl.label} | ${fl.lanes} | ${mine} | ${others || "–"} | ${((100 * mine) / total).toFixed(0)} % | ${(100 / fl.lanes).toFixed(0)} % | ${f((total * 1000) / (MEASURED[1] - MEASURED[0]))} | ${fl.failed} |`,
      );
    }
    printOrdersBesideBurst(orders);
  };
}
