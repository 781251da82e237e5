// `npm run bench -- log` (part 10, last of `all`): what the request log and the request's log line
// add to a warm /v2 call. The gateway is started once per block with REQUEST_LOG=off and LOG_LEVEL
// warn (no row, no line: the baseline), REQUEST_LOG=calls (the default: a row per call, written
// after the answer left) and LOG_LEVEL warn, or both defaults (a row, and a JSON line per request
// at info), alternating the three, three times, so a drift of the shared machine over the run falls
// on each. The line's figure is `wrangler dev`'s: there each console line goes to wrangler through
// the inspector; a deployed Worker's lines go to Workers Logs, which this cannot measure. In each
// block a new tenant is warmed up, then each round times one call straight to the sandbox and one
// through the gateway: the difference within a round (what the gateway takes beyond the sandbox's
// own time) is the figure least moved by the machine's load. Every figure comes from this one run.
import {
  ADMIN,
  GW,
  SB,
  direct,
  directToken,
  json,
  newTenant,
  pct,
  sleep,
  up,
  viaGateway,
} from "./lib.mjs";
import { WORKERS, startWorker } from "./workers.mjs";

/** The gateway's vars in each kind of block. */
const MODES = {
  off: ["REQUEST_LOG:off", "LOG_LEVEL:warn"],
  calls: ["REQUEST_LOG:calls", "LOG_LEVEL:warn"],
  line: ["REQUEST_LOG:calls", "LOG_LEVEL:info"],
};
const BLOCKS = ["calls", "off", "line", "calls", "off", "line", "calls", "off", "line"];
/** Rounds dropped at the start of a block (a new tenant's cold object, the isolate's first calls). */
const WARM_UP = 20;
/** Rounds kept per block. */
const KEPT = 100;
/** Between rounds, ms: two calls a round stay well under the sandbox's 10 req/s. */
const PAUSE_MS = 250;

async function timed(fn) {
  const t0 = performance.now();
  const res = await fn();
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}

const samples = () => ({ g: [], d: [], x: [] });

/** One block: a gateway started with `MODES[mode]`, a new tenant, its timed rounds. */
async function block(mode, keys, out) {
  console.error(`request log: a block with ${MODES[mode].join(", ")}`);
  const stopGateway = startWorker(WORKERS.gateway, MODES[mode], out);
  await up(`${GW}/healthz`);
  const t = await newTenant("Bench AS", `log-${mode}`);
  const token = await directToken(keys, t.clientKey);
  // Both token requests share the sandbox's one-second window: let them leave it first.
  await sleep(1000);
  const b = { mode, ...samples(), bad: 0 };
  for (let i = 0; i < WARM_UP + KEPT; i++) {
    const a = await timed(() => direct(keys, token));
    const g = await timed(() => viaGateway(t.gatewayKey));
    if (a.status !== 200 || g.status !== 200) b.bad++;
    if (i >= WARM_UP) {
      b.d.push(a.ms);
      b.g.push(g.ms);
      b.x.push(g.ms - a.ms);
    }
    await sleep(PAUSE_MS);
  }
  // What the block wrote: the rows of its key's calls (each written after its answer left, so the
  // last ones are given a moment to land).
  await sleep(500);
  const page = await json(
    "GET",
    `${GW}/admin/tenants/demo/${t.slug}/requests?limit=200`,
    undefined,
    ADMIN,
  );
  b.rows = page.requests.filter((r) => r.caller.kind === "key").length;
  b.calls = WARM_UP + KEPT;
  await stopGateway();
  return b;
}

/**
 * Runs the blocks with nothing else on the ports (it starts its own sandbox and gateways; `out` is
 * the file descriptor their output goes to); answers a function that prints the table.
 */
export async function requestLogBench(out) {
  const stopSandbox = startWorker(WORKERS.sandbox, [], out);
  await up(`${SB}/_sandbox/keys`);
  await json("POST", `${SB}/_sandbox/reset`);
  const keys = (await json("GET", `${SB}/_sandbox/keys`)).demo;
  const blocks = [];
  for (const mode of BLOCKS) blocks.push(await block(mode, keys, out));
  await stopSandbox();
  const pooled = (mode) => {
    const of = blocks.filter((b) => b.mode === mode);
    const sum = (k) => of.reduce((n, b) => n + b[k], 0);
    return {
      g: of.flatMap((b) => b.g),
      d: of.flatMap((b) => b.d),
      x: of.flatMap((b) => b.x),
      rows: sum("rows"),
      calls: sum("calls"),
      bad: sum("bad"),
    };
  };
  const on = pooled("calls");
  const off = pooled("off");
  const lined = pooled("line");
  return () => {
    const f = (x) => x.toFixed(1);
    const r = (a, b) => `${(a / b).toFixed(2)}×`;
    console.log(
      `\n10. What the request log and the request's log line add to a warm call: GET /v2/ClientIntegrationInformation, ${BLOCKS.length} blocks alternating the three settings (one gateway start each), ${KEPT} calls kept per block, all Workers local under wrangler dev (ms; rounds with a non-200: ${on.bad + off.bad + lined.bad})\n`,
    );
    console.log(
      "| gateway | median | p99 | sandbox directly, same rounds: median | gateway − direct, same round: median | p99 | rows written / calls |\n|---|---|---|---|---|---|---|",
    );
    const line = (name, m, rows = "") =>
      `| ${name} | ${f(pct(m.g, 50))} | ${f(pct(m.g, 99))} | ${f(pct(m.d, 50))} | ${f(pct(m.x, 50))} | ${f(pct(m.x, 99))} | ${rows} |`;
    const ratio = (name, a, b) =>
      `| ${name} | ${r(pct(a.g, 50), pct(b.g, 50))} | ${r(pct(a.g, 99), pct(b.g, 99))} | ${r(pct(a.d, 50), pct(b.d, 50))} | ${r(pct(a.x, 50), pct(b.x, 50))} | ${r(pct(a.x, 99), pct(b.x, 99))} | |`;
    const added = (name, a, b) =>
      `| ${name} | ${f(pct(a.g, 50) - pct(b.g, 50))} | | | ${f(pct(a.x, 50) - pct(b.x, 50))} | | |`;
    console.log(
      line(
        "no row, no line (REQUEST_LOG=off, LOG_LEVEL=warn; baseline)",
        off,
        `${off.rows} / ${off.calls}`,
      ),
    );
    console.log(line("a row (REQUEST_LOG=calls, LOG_LEVEL=warn)", on, `${on.rows} / ${on.calls}`));
    console.log(line("a row and a line (both defaults)", lined, `${lined.rows} / ${lined.calls}`));
    console.log(ratio("ratio: row ÷ baseline", on, off));
    console.log(ratio("ratio: row and line ÷ row", lined, on));
    console.log(added("the row adds, ms (medians)", on, off));
    console.log(added("the line adds, ms (medians)", lined, on));
    for (const [i, b] of blocks.entries())
      console.log(line(`block ${i + 1}: ${MODES[b.mode].join(", ")}`, b, `${b.rows} / ${b.calls}`));
  };
}
