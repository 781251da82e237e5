// Part 12d of `npm run bench -- mcp` (bench/mcp.mjs): a run of 100 orders, with and without a
// burst of 20 parallel `read` tool calls of another tenant's assistant sent 10 s into the run
// (issue 27's goal: the run's orders per minute within 5 %). The orders are a returning
// customer's with known products (part 4's second kind), 5 for each of 20 shop tenants as in part
// 5 (one tenant's 100 orders pile up at its payment step, which the sandbox answers more slowly
// the more vouchers the books hold), all sent at once, so the run keeps the budget busy from start
// to end; one run without the burst, then one with it. Every
// figure comes from this one run. Not a test: it asserts nothing.
import { pct, quiet, sleep, stats } from "./lib.mjs";
import { TERMINAL, orderRuns, orderTenant, sendOrder, untilDone } from "./orders-shop.mjs";

const SHOPS = 20;
const PER_SHOP = 5;
const ORDERS = SHOPS * PER_SHOP;
const BURST = 20;
const BURST_AT_MS = 10_000;
const REPETITIONS = 1;

let uid = 0;
const newId = () => `m${Date.now().toString(36)}${(uid++).toString(36)}`;

/**
 * One run of `ORDERS` orders of `shop`, with `burst()` sent `BURST` times at once `BURST_AT_MS`
 * in (none: the baseline). Its orders per minute, failed orders, 429s and the tool calls' times.
 */
async function orderRun(shops, burst) {
  await quiet(1500, 20_000);
  const s0 = await stats();
  const ids = shops.map(() => Array.from({ length: PER_SHOP }, newId));
  const wanted = new Set(ids.flat());
  const t0 = Date.now();
  const tools = burst
    ? sleep(BURST_AT_MS).then(() =>
        Promise.all(
          Array.from({ length: BURST }, async () => {
            const s = performance.now();
            const { status, error } = await burst().catch(() => ({ status: 0 }));
            return { ms: performance.now() - s, status, error };
          }),
        ),
      )
    : Promise.resolve([]);
  await Promise.all(shops.flatMap((shop, i) => ids[i].map((id) => sendOrder(shop, id))));
  let runs = [];
  while (Date.now() - t0 < 300_000) {
    await sleep(2000);
    runs = (await Promise.all(shops.map(orderRuns))).flat().filter((r) => wanted.has(r.orderId));
    if (runs.length === ORDERS && runs.every((r) => TERMINAL.has(r.state))) break;
  }
  const calls = await tools;
  const s1 = await stats();
  const settled = runs.filter((r) => r.state === "settled");
  const end = Math.max(t0, ...settled.map((r) => Date.parse(r.updatedAt)));
  return {
    perMinute: (settled.length * 60_000) / Math.max(1, end - t0),
    failed: ORDERS - settled.length,
    throttled: s1.environments.demo.throttled - s0.environments.demo.throttled,
    tools: calls,
  };
}

/**
 * Runs 12d with `toolRead(key)` (bench/mcp.mjs) on `assistant`'s key; answers its results for
 * `print`.
 */
export async function ordersBesideBurst(assistant, toolRead) {
  const shops = [];
  for (let i = 0; i < SHOPS; i++) shops.push(await orderTenant(`mcp-shop${i}`));
  // The customer and products become known to each tenant: every order of the runs is a returning
  // one's.
  const firsts = shops.map(() => newId());
  await Promise.all(shops.map((shop, i) => sendOrder(shop, firsts[i])));
  await Promise.all(shops.map((shop, i) => untilDone(shop, firsts[i], 120_000)));
  const runs = { without: [], with: [] };
  for (let r = 0; r < REPETITIONS; r++) {
    runs.without.push(await orderRun(shops, null));
    runs.with.push(await orderRun(shops, () => toolRead(assistant.gatewayKey)));
  }
  return runs;
}

/** Prints 12d's table. */
export function printOrdersBesideBurst(runs) {
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const rate = (name) => mean(runs[name].map((r) => r.perMinute));
  const sum = (name, key) => runs[name].reduce((n, r) => n + r[key], 0);
  const tools = runs.with.flatMap((r) => r.tools);
  const failedTools = tools.filter((c) => c.status !== 200);
  const toolsFailed = failedTools.length;
  const firstError = failedTools.find((c) => c.error)?.error;
  console.log(
    `\n12d. A run of ${ORDERS} orders, ${PER_SHOP} for each of ${SHOPS} shop tenants (a returning customer's, all sent at once), with and without ${BURST} parallel \`read\` tool calls of another tenant's assistant ${BURST_AT_MS / 1000} s in; ${REPETITIONS} runs each, (orders per minute; the mean of the runs when more than one)\n`,
  );
  console.log(
    "| run | orders per minute | ratio | each run | failed orders | sandbox 429s |\n|---|---|---|---|---|---|",
  );
  for (const [name, label] of [
    ["without", "alone (baseline)"],
    ["with", `beside ${BURST} tool calls`],
  ])
    console.log(
      `| ${label} | ${rate(name).toFixed(1)} | ${(rate(name) / rate("without")).toFixed(3)} | ${runs[name].map((r) => r.perMinute.toFixed(1)).join(", ")} | ${sum(name, "failed")} | ${sum(name, "throttled")} |`,
    );
  console.log(
    `\nThe tool calls beside the run: ${tools.length} calls, ${toolsFailed} failed or isError; from send to answer p50 ${pct(
      tools.map((c) => c.ms),
      50,
    ).toFixed(0)} ms, p95 ${pct(
      tools.map((c) => c.ms),
      95,
    ).toFixed(0)} ms.`,
  );
  if (firstError) console.log(`The first tool error: "${firstError}".`);
}
