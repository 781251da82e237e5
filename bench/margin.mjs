// `npm run bench -- margin` (not part of `all`): how much of the limit the RateGovernor must leave
// unused, measured. It starts the sandbox once and the gateway once per margin, with
// RATE_PACING_MARGIN set (src/upstream/rate-governor.ts reads it), offers 50 and then 200 req/s for
// 10 s each through one tenant, and counts the sandbox's 429s and the calls it served per second
// over the steady part. The smallest margin with no 429s, plus headroom, is PACING_MARGIN.
// Not a test: it asserts nothing.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { bin, root, wranglerEnv } from "../scripts/wrangler-env.mjs";
import {
  GW,
  SB,
  answers,
  json,
  newTenant,
  openLoop,
  quiet,
  servedRate,
  sleep,
  up,
  viaGateway,
} from "./lib.mjs";

const MARGINS = [0.02, 0.03, 0.04, 0.05, 0.07, 0.1];
const RATES = [50, 200];
const SECONDS = 10;
/** The steady part of a run, ms from its start (as in load.mjs). */
const STEADY = [2000, 10_000];

// As scripts/dev.mjs starts them: the project's own Node runs wrangler, with no telemetry.
const env = wranglerEnv();

/**
 * Starts one Worker with `wrangler dev`; answers a function that stops it (its whole process
 * group).
 */
function start(config, port, inspector, vars) {
  const args = [
    "dev",
    "--config",
    config,
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspector),
    ...vars.flatMap((v) => ["--var", v]),
  ];
  const child = spawn(join(bin, "wrangler"), args, {
    cwd: root,
    env,
    stdio: "ignore",
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  process.on("exit", stop);
  return stop;
}

/** Waits until `url` no longer answers (a stopped Worker has let its port go). */
async function down(url) {
  for (let i = 0; i < 120 && (await answers(url)); i++) await sleep(500);
}

/** Measures every margin; answers a function that prints the table. */
export async function marginBench() {
  const stopSandbox = start("sandbox/wrangler.toml", 8788, 9230, ["SANDBOX_CONTROL:true"]);
  await up(`${SB}/_sandbox/keys`);
  await json("POST", `${SB}/_sandbox/reset`);
  const rows = [];
  for (const margin of MARGINS) {
    const stopGateway = start("wrangler.toml", 8787, 9229, [`RATE_PACING_MARGIN:${margin}`]);
    await up(`${GW}/healthz`);
    const t = await newTenant();
    const row = { margin };
    for (const rate of RATES) {
      await quiet(1500);
      console.error(`margin ${margin}: ${rate} req/s for ${SECONDS} s`);
      const run = await openLoop(rate, SECONDS, () => viaGateway(t.gatewayKey));
      row[rate] = {
        throttled: run.samples.at(-1).throttled - run.samples[0].throttled,
        served: servedRate(run.samples, ...STEADY),
      };
    }
    rows.push(row);
    stopGateway();
    await down(`${GW}/healthz`);
  }
  stopSandbox();
  return () => {
    console.log(
      `\nPacing margin: upstream 429s and calls served per second (${STEADY[0] / 1000}–${STEADY[1] / 1000} s) at offered loads of ${SECONDS} s through ledgergate, one gateway start per margin\n`,
    );
    console.log(
      `| margin | spacing (ms) | ${RATES.map((r) => `${r} req/s: 429s | ${r} req/s: served/s`).join(" | ")} |\n|---|---|${RATES.map(() => "---|---|").join("")}`,
    );
    for (const r of rows)
      console.log(
        `| ${(r.margin * 100).toFixed(0)} % | ${(100 / (1 - r.margin)).toFixed(1)} | ${RATES.map((x) => `${r[x].throttled} | ${r[x].served.toFixed(2)}`).join(" | ")} |`,
      );
  };
}
