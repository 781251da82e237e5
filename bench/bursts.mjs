// Part 8 of `npm run bench` (`-- bursts`): how long a burst of parallel calls takes on an idle key,
// directly and through ledgergate (issue 26: the governor grants a burst into a free second at
// once instead of spacing every call 104 ms apart). For 1, 3, 5, 8 and 20 calls sent at once, the
// wall time from the first send to the last answer, median of five repetitions 1.5 s apart (so
// each starts with the last second's window empty), with the 429s counted.
// The direct baseline runs on the sandbox's production environment, its own subscription key and
// so its own 10 req/s: its calls never share a limit with the gateway's (demo) calls. Not a test:
// it asserts nothing.
import { SB, direct, directToken, json, newTenant, pct, sleep, viaGateway } from "./lib.mjs";

const SIZES = [1, 3, 5, 8, 20];
const REPETITIONS = 5;
/** Between repetitions, ms: longer than the governor's window (1036.7 ms) and the sandbox's. */
const GAP_MS = 1500;

/** A production client of the sandbox with its token: the direct baseline's own key. */
async function directClient(keys) {
  const client = await json("POST", `${SB}/_sandbox/clients`, {
    environment: "production",
    name: "Bench bursts direct AS",
  });
  const token = await directToken(keys, client.clientKey, "production");
  if (!token) throw new Error("the sandbox refused a production token");
  return () => direct(keys, token, "production");
}

/**
 * Answers within this long of the first answer count as sent at once, ms: less than the governor's
 * spacing (104.2 ms), so a paced call never counts, however fast the answers.
 */
const AT_ONCE_MS = 100;

/**
 * `n` calls at once; the wall time to the last answer (ms), the count of 429s, and how many were
 * answered within `AT_ONCE_MS` of the first answer.
 */
async function burst(n, send) {
  const t0 = performance.now();
  const answers = await Promise.all(
    Array.from({ length: n }, () =>
      send().then(async (r) => {
        await r.arrayBuffer();
        return { status: r.status, at: performance.now() - t0 };
      }),
    ),
  );
  const first = Math.min(...answers.map((a) => a.at));
  return {
    ms: Math.max(...answers.map((a) => a.at)),
    throttled: answers.filter((a) => a.status === 429).length,
    atOnce: answers.filter((a) => a.at - first < AT_ONCE_MS).length,
  };
}

/** Runs part 8; answers a function that prints its table. */
export async function burstsBench() {
  const keys = await json("GET", `${SB}/_sandbox/keys`);
  const direct = await directClient(keys.production);
  const t = await newTenant("Bench bursts AS", "bursts");
  const gateway = () => viaGateway(t.gatewayKey);
  // One call each first: the gateway's token is issued, and both paths are warm.
  await (await direct()).arrayBuffer();
  await (await gateway()).arrayBuffer();
  const s0 = await json("GET", `${SB}/_sandbox/stats`);
  const rows = [];
  for (const n of SIZES) {
    const d = [];
    const g = [];
    const gAtOnce = [];
    let dThrottled = 0;
    let gThrottled = 0;
    for (let i = 0; i < REPETITIONS; i++) {
      await sleep(GAP_MS);
      const a = await burst(n, direct);
      await sleep(GAP_MS);
      const b = await burst(n, gateway);
      d.push(a.ms);
      g.push(b.ms);
      gAtOnce.push(b.atOnce);
      dThrottled += a.throttled;
      gThrottled += b.throttled;
    }
    rows.push({
      n,
      d: pct(d, 50),
      g: pct(g, 50),
      gAtOnce: pct(gAtOnce, 50),
      dThrottled,
      gThrottled,
    });
  }
  const s1 = await json("GET", `${SB}/_sandbox/stats`);
  return () => {
    const f = (x) => x.toFixed(1);
    console.log(
      `\n8. Bursts on an idle key: n parallel GET /v2/ClientIntegrationInformation, wall time to the last answer, median of ${REPETITIONS} repetitions ${GAP_MS / 1000} s apart (ms; direct on its own key; sandbox 429s in all: ${s1.throttled - s0.throttled})\n`,
    );
    console.log(
      `| calls at once | direct (baseline) | through ledgergate | ratio | ledgergate: answered within ${AT_ONCE_MS} ms of the first (median) | direct: 429s (answered to the caller) | ledgergate: 429s answered to the caller |\n|---|---|---|---|---|---|---|`,
    );
    for (const r of rows)
      console.log(
        `| ${r.n} | ${f(r.d)} | ${f(r.g)} | ${(r.g / r.d).toFixed(2)}× | ${r.gAtOnce} of ${r.n} | ${r.dThrottled} | ${r.gThrottled} |`,
      );
  };
}
