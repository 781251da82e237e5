// The events part of `npm run bench` (`npm run bench -- events` runs only this part), against a
// receiver on this machine (scripts/webhook-receiver.mjs, on LEDGERGATE_RECEIVER_PORT, default
// 8790), the gateway started with a short retry schedule (run.mjs sets EVENT_RETRY_SCHEDULE):
//   9a. the delay from a write through ledgergate (its answer) to the event's arrival: median, p90,
//       max, against the goal of 2 s at the median;
//   9b. what announcing adds to a write: the time the gateway adds to POST /Customers (announced)
//       against what it adds to POST /Suppliers (the same kind of write, not announced), each
//       against the same call sent straight to the sandbox, all four alternating;
//   9c. delivery throughput: a replay of 50 events to 10 endpoints (500 deliveries) against the same
//       number of POSTs sent straight to the receiver from here, 10 at a time;
//   9d. events lost with injected receiver failures: each event's first 0–3 attempts fail (500, or a
//       dropped connection); every event recorded must arrive.
// Every figure comes from this run. Not a test: it asserts nothing. Needs both Workers up.
import { startReceiver, receiverPort } from "../scripts/webhook-receiver.mjs";
import { GW, SB, directToken, json, newTenant, pct, sleep } from "./lib.mjs";

/** The retry schedule run.mjs starts the gateway with for this part (unless the caller set one). */
export const BENCH_RETRY_SCHEDULE = "1s 1s 2s 3s 5s";

/** Writes per second in 9a–9d: under the shared 10 a second, so no write waits for a permit. */
const PACE_MS = 250;

const auth = (key) => ({ authorization: `Bearer ${key}` });
const hash = (text) => [...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);

/** POST /v2{path} for `key`; answers the status and when the answer came (ms since the epoch). */
async function write(key, path, body) {
  const t0 = performance.now();
  const res = await fetch(`${GW}/v2${path}`, {
    method: "POST",
    headers: { ...auth(key), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0, answeredAt: Date.now() };
}

/** POST {path} straight to the sandbox with `token`; answers the status and the time. */
async function direct(keys, token, path, body) {
  const t0 = performance.now();
  const res = await fetch(`${SB}/Demo/v2${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "ocp-apim-subscription-key": keys.subscriptionKey,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}

/** Adds an endpoint for the tenant of `key`. */
async function endpoint(key, url, types = ["*"]) {
  const made = await json("POST", `${GW}/events/endpoints`, { url, types }, auth(key));
  if (!made?.id) throw new Error(`endpoint refused: ${JSON.stringify(made)}`);
  return made;
}

/** The tenant's whole feed. */
async function feedOf(key) {
  const all = [];
  let after = "";
  for (;;) {
    const page = await json(
      "GET",
      `${GW}/events?limit=500${after ? `&after=${after}` : ""}`,
      undefined,
      auth(key),
    );
    all.push(...page.events);
    if (!page.hasMore) return all;
    after = page.events.at(-1).id;
  }
}

/** Waits until `done()` (polled every 100 ms), at most `maxMs`; whether it came true. */
async function until(done, maxMs) {
  const t0 = Date.now();
  while (Date.now() - t0 < maxMs) {
    if (done()) return true;
    await sleep(100);
  }
  return done();
}

export async function eventsBench(keys) {
  const port = receiverPort();
  const arrivals = [];
  const receiver = await startReceiver({
    port,
    // /flaky/…: each event fails its first 0–3 attempts (by its id), alternately 500 and a drop.
    answer: ({ path, headers, attempt }) => {
      const id = String(headers["webhook-id"] ?? "");
      if (!path.startsWith("/flaky/") || attempt > hash(id) % 4) return 200;
      return attempt % 2 === 1 ? 500 : "drop";
    },
    onEvent: (e) => arrivals.push(e),
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    // 9a. Delay.
    const a = await newTenant("Events Delay AS", "ev-delay");
    await endpoint(a.gatewayKey, `${base}/delay/${a.slug}`, ["customer.created"]);
    const sent = new Map();
    for (let i = 0; i < 60; i++) {
      const name = `Delay ${i} ${a.slug}`;
      const w = await write(a.gatewayKey, "/Customers", { Name: name });
      if (w.status === 201) sent.set(name, w.answeredAt);
      await sleep(PACE_MS);
    }
    const byName = () =>
      new Map(
        arrivals
          .filter((e) => e.path.startsWith(`/delay/${a.slug}`))
          .map((e) => [e.event?.data?.Name, e.at]),
      );
    await until(() => byName().size >= sent.size, 30_000);
    const got = byName();
    const delays = [...sent].filter(([n]) => got.has(n)).map(([n, t]) => got.get(n) - t);

    // 9b. What announcing adds to a write.
    const b = await newTenant("Events Cost AS", "ev-cost");
    await endpoint(b.gatewayKey, `${base}/cost/${b.slug}`);
    const token = await directToken(keys, b.clientKey);
    const cost = { gwCustomers: [], gwSuppliers: [], sbCustomers: [], sbSuppliers: [] };
    for (let i = 0; i < 90; i++) {
      const round = [
        ["gwCustomers", () => write(b.gatewayKey, "/Customers", { Name: `Cost ${i}` })],
        ["gwSuppliers", () => write(b.gatewayKey, "/Suppliers", { Name: `Cost ${i}` })],
        ["sbCustomers", () => direct(keys, token, "/Customers", { Name: `Direct ${i}` })],
        ["sbSuppliers", () => direct(keys, token, "/Suppliers", { Name: `Direct ${i}` })],
      ];
      for (const [name, call] of round) {
        const r = await call();
        if (i >= 10 && r.status === 201) cost[name].push(r.ms);
        await sleep(PACE_MS);
      }
    }
    const added = (gw, sb, p) => pct(cost[gw], p) - pct(cost[sb], p);

    // 9c. Throughput.
    const c = await newTenant("Events Throughput AS", "ev-put");
    for (let i = 0; i < 50; i++) {
      await write(c.gatewayKey, "/Customers", { Name: `Put ${i}` });
      await sleep(120);
    }
    const eps = [];
    for (let i = 0; i < 10; i++)
      eps.push(await endpoint(c.gatewayKey, `${base}/put/${c.slug}/${i}`));
    const sample = (await feedOf(c.gatewayKey))[0];
    const putStart = Date.now();
    const since = new Date(Date.now() - 3600_000).toISOString();
    const queued = await Promise.all(
      eps.map((e) =>
        json("POST", `${GW}/events/endpoints/${e.id}/replay`, { since }, auth(c.gatewayKey)),
      ),
    );
    const expected = queued.reduce((n, q) => n + (q.queued ?? 0), 0);
    const putArrivals = () =>
      arrivals.filter((e) => e.path.startsWith(`/put/${c.slug}/`) && e.at >= putStart);
    await until(() => putArrivals().length >= expected, 60_000);
    const putWall = Math.max(...putArrivals().map((e) => e.at)) - putStart;
    // Baseline: the same number of POSTs of an event's size straight to the receiver, 10 at a time.
    const body = JSON.stringify(sample);
    const directStart = Date.now();
    for (let i = 0; i < expected; i += 10)
      await Promise.all(
        Array.from({ length: Math.min(10, expected - i) }, () =>
          fetch(`${base}/direct/`, { method: "POST", body }).then((r) => r.arrayBuffer()),
        ),
      );
    const directWall = Date.now() - directStart;

    // 9d. Losses with injected failures.
    const d = await newTenant("Events Flaky AS", "ev-flaky");
    await endpoint(d.gatewayKey, `${base}/flaky/${d.slug}`);
    for (let i = 0; i < 100; i++) {
      await write(d.gatewayKey, "/Customers", { Name: `Flaky ${i}` });
      await sleep(PACE_MS);
    }
    const recorded = await feedOf(d.gatewayKey);
    const delivered = () =>
      new Set(
        arrivals
          .filter((e) => e.path.startsWith(`/flaky/${d.slug}`) && e.status === 200)
          .map((e) => e.headers["webhook-id"]),
      );
    await until(() => recorded.every((e) => delivered().has(e.id)), 120_000);
    const flakyArrivals = arrivals.filter((e) => e.path.startsWith(`/flaky/${d.slug}`));
    const failedAttempts = flakyArrivals.filter((e) => e.status !== 200).length;
    const ok = flakyArrivals.filter((e) => e.status === 200).length;
    const lost = recorded.filter((e) => !delivered().has(e.id)).length;

    return () => {
      const f = (x) => x.toFixed(1);
      console.log(
        `\n8. Events out (docs/events.md): receiver on 127.0.0.1:${port}, retry schedule ${process.env.LEDGERGATE_EVENT_RETRY_SCHEDULE ?? BENCH_RETRY_SCHEDULE}\n`,
      );
      console.log("| figure | value | baseline | ratio |\n|---|---|---|---|");
      console.log(
        `| 9a. write → delivery, median / p90 / max (${delays.length} of ${sent.size} writes) | ${f(pct(delays, 50))} / ${f(pct(delays, 90))} / ${f(Math.max(...delays))} ms | goal: 2000 ms at the median | ${(pct(delays, 50) / 2000).toFixed(2)} of the goal |`,
      );
      console.log(
        `| 9b. what the gateway adds to POST /Customers, announced: median / p99 (${cost.gwCustomers.length} writes; ${f(pct(cost.gwCustomers, 50))} ms through it, ${f(pct(cost.sbCustomers, 50))} ms straight) | ${f(added("gwCustomers", "sbCustomers", 50))} / ${f(added("gwCustomers", "sbCustomers", 99))} ms | what it adds to POST /Suppliers, not announced (${f(pct(cost.gwSuppliers, 50))} / ${f(pct(cost.sbSuppliers, 50))} ms): ${f(added("gwSuppliers", "sbSuppliers", 50))} / ${f(added("gwSuppliers", "sbSuppliers", 99))} ms | ${(added("gwCustomers", "sbCustomers", 50) / added("gwSuppliers", "sbSuppliers", 50)).toFixed(2)}× at the median |`,
      );
      console.log(
        `| 9c. throughput: ${putArrivals().length} of ${expected} deliveries (replay of 50 events to 10 endpoints) | ${f((putArrivals().length / putWall) * 1000)} /s (${putWall} ms) | ${expected} POSTs straight to the receiver, 10 at a time: ${f((expected / directWall) * 1000)} /s | ${(putArrivals().length / putWall / (expected / directWall)).toFixed(2)} |`,
      );
      console.log(
        `| 9d. events lost with injected failures (${recorded.length} events, ${failedAttempts} failed attempts, ${ok} successful) | ${lost} lost | goal: 0 | ${ok - delivered().size} duplicates delivered |`,
      );
      console.log(
        "\nNotes: 9a counts from the write's answer to the receiver's arrival (one machine, one clock). 9b's four calls alternate on one tenant; the sandbox's own time for each kind is taken off, so the ratio compares what the gateway adds with and without announcing (which starts 50 ms after the caller took the answer, in ctx.waitUntil). 9c's baseline is Node posting to the same receiver, no Worker in between: the ratio is what the queue, the events objects and signing leave of it. 9d's failures are the receiver's, by the event's id: up to 3 per event, inside the schedule.",
      );
    };
  } finally {
    await receiver.close();
  }
}
