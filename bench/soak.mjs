// `npm run bench -- soak` (not part of `all`): nothing lost under faults and crashes. Starts its own
// pair on a state of its own and drives it for LEDGERGATE_SOAK_SECONDS (180; the documented run is
// 3600) with, at once: shop orders of 20 tenants (new and returning buyers, deliveries repeated as
// shops retry, refunds), `/v2` callers writing with `Idempotency-Key` (some writes repeated),
// reading and paging, and the sandbox's faults (drop, lost answers, 5xx, 429 storms) in windows.
// LEDGERGATE_SOAK_CRASHES times (1; 2 for the hour) it kills the whole pair with SIGKILL mid-burst
// and starts it again on the same state; the shops and callers then re-send what they had no answer
// for. When the load ends, each tenant's payout of its settled orders is sent. Then the reconciler
// reads the books with each client's own token (straight from the sandbox) and the gateway's records
// and prints one table; anything lost or doubled is named with its ids. Not a test: it asserts
// nothing. See docs/benchmarks.md, "The soak".
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { GW, SB, answers, directToken, json, pct, realApiSettings, sleep, stats } from "./lib.mjs";
import { BUYER, TOTAL, orderEvent, orderRuns, orderTenant, signed } from "./orders-shop.mjs";

const SECONDS = Number(process.env.LEDGERGATE_SOAK_SECONDS || 180);
const CRASHES = Number(process.env.LEDGERGATE_SOAK_CRASHES || 1);
const TENANTS = 20;
/**
 * An order every this many ms, over the tenants in turn, and a keyed write and a read every
 * `WRITE_EVERY_MS`: about 6 of the key's 10 calls a second, room left for retries after faults.
 */
const ORDER_EVERY_MS = 1000;
const WRITE_EVERY_MS = 2000;
/** How long the run may take to settle what it was sent once the load ends. */
const DRAIN_MS = Number(process.env.LEDGERGATE_SOAK_DRAIN_SECONDS || 600) * 1000;
const FEE = "10.00";
const NET = (Number(TOTAL) - Number(FEE)).toFixed(2);
/** The refund of the bench order's shipping line: one line, its whole amount back. */
const REFUND_TOTAL = "149.00";
/** The reconciler's page size. */
const PAGE = 500;
const ENDED = new Set(["settled", "credited", "failed", "cancelled"]);

/** The pair as `npm start` runs it, on `state`; answers its process and a log of its output. */
function startPair(state, out) {
  const child = spawn(process.execPath, ["scripts/dev.mjs"], {
    stdio: ["ignore", out, out],
    detached: true,
    env: {
      ...process.env,
      LEDGERGATE_PERSIST_DIR: state,
      LEDGERGATE_LOG_LEVEL: "warn",
      LEDGERGATE_RUN_STALL_SECONDS: process.env.LEDGERGATE_RUN_STALL_SECONDS || "60",
    },
  });
  return child;
}
async function ready() {
  for (let i = 0; i < 600; i++) {
    if ((await answers(`${SB}/_sandbox/keys`)) && (await answers(`${GW}/healthz`))) return;
    await sleep(250);
  }
  throw new Error("the pair did not come up");
}
function killPair(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}
async function portsFree() {
  for (
    let i = 0;
    i < 200 && ((await answers(`${GW}/healthz`)) || (await answers(`${SB}/_sandbox/keys`)));
    i++
  )
    await sleep(100);
}

/** What the driver saw: each answer by route, and the calls it must send again. */
function observer() {
  const byRoute = new Map();
  return {
    byRoute,
    note(route, status) {
      const r = byRoute.get(route) ?? { sent: 0, s5xx: 0, none: 0, codes: {} };
      if (status >= 400) r.codes[status] = (r.codes[status] ?? 0) + 1;
      r.sent++;
      if (status === 0) r.none++;
      else if (status >= 500) r.s5xx++;
      byRoute.set(route, r);
    },
  };
}

/** A call; its status, 0 when the connection failed (a crash, a dropped answer). */
async function call(seen, route, url, init) {
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    seen.note(route, res.status);
    return res.status;
  } catch {
    seen.note(route, 0);
    return 0;
  }
}

/** Sends a Standard Webhooks delivery of `event` as the shop does, a retry signed anew. */
const deliver = (seen, tenant, event, webhookId) => {
  const body = JSON.stringify(event);
  return call(seen, "POST /webhooks/standard", `${GW}/webhooks/standard/${tenant.slug}/demo`, {
    method: "POST",
    headers: signed(tenant.secret, body, webhookId, Math.floor(Date.now() / 1000)),
    body,
  });
};

/** The fault windows of a run of `ms`: each `[from, to, faults]`, as shares of the run. */
const FAULTS = [
  [0.1, 0.18, [{ kind: "drop", target: "api", path: "/Vouchers", count: 3, afterHandling: true }]],
  [0.2, 0.28, [{ kind: "error", target: "api", status: 503, count: 20 }]],
  [0.3, 0.36, [{ kind: "throttle", target: "api", count: 15, retryAfterSeconds: 1 }]],
  [0.62, 0.7, [{ kind: "drop", target: "api", path: "/SalesOrders", count: 5 }]],
  [0.72, 0.78, [{ kind: "error", target: "token", status: 503, count: 3 }]],
];

export async function soakBench() {
  const state = mkdtempSync(join(os.tmpdir(), "ledgergate-soak-"));
  const logFile = join(os.tmpdir(), `ledgergate-soak-${process.pid}.log`);
  const out = openSync(logFile, "w");
  let pair = startPair(state, out);
  const notes = [`the pair's output: ${logFile}`];
  try {
    await ready();
    await realApiSettings();
    const keys = (await json("GET", `${SB}/_sandbox/keys`)).demo;
    const tenants = [];
    for (let i = 0; i < TENANTS; i++) tenants.push(await orderTenant(`soak${i}`));
    const seen = observer();
    const s0 = await stats();
    /** Every order sent: tenant, id, event, webhook id, whether the shop got a 2xx for it. */
    const orders = [];
    const refunds = [];
    /** Keyed writes: key, tenant, body, answered. */
    const writes = [];
    const warm = [];
    const t0 = Date.now();
    const end = t0 + SECONDS * 1000;
    const crashAt = Array.from(
      { length: CRASHES },
      (_, i) => t0 + ((i + 1) / (CRASHES + 1)) * SECONDS * 1000,
    );
    let down = false;
    let injected = 0;

    // A delivery as the shop sends it: never while its last send is unanswered, and never twice in
    // one second (the same signed timestamp again is a replay, refused 401 by design).
    const sendOrder = async (o) => {
      if (o.answered || o.sending) return;
      o.sending = true;
      while (Math.floor(Date.now() / 1000) === o.lastSecond) await sleep(100);
      o.lastSecond = Math.floor(Date.now() / 1000);
      const status = await deliver(seen, o.tenant, o.event, o.webhookId);
      o.sending = false;
      if (status >= 200 && status < 300) o.answered = true;
    };
    // A keyed write as a caller sends it, and sends again with its key until answered.
    const sendWrite = async (w) => {
      const status = await call(seen, "POST /v2/Customers", `${GW}/v2/Customers`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${w.tenant.gatewayKey}`,
          "content-type": "application/json",
          "idempotency-key": w.key,
        },
        // With a reference, as a careful integration writes: an unknown outcome is then rechecked.
        body: JSON.stringify({ Name: w.name, IsPerson: false, ExternalImportReference: w.key }),
      });
      if (status >= 200 && status < 300) w.answered = true;
    };
    const orderLoop = (async () => {
      for (let i = 0; Date.now() < end; i++) {
        await sleep(ORDER_EVERY_MS);
        if (down) continue;
        const tenant = tenants[i % TENANTS];
        const id = `sk${Date.now().toString(36)}${i.toString(36)}`;
        // One order in four from a new buyer; the rest from the tenant's returning one.
        const buyer =
          i % 4 === 0
            ? {
                ...BUYER,
                id: `cust_${id}`,
                email: `${id}@example.no`,
                company: null,
                organizationNumber: null,
              }
            : BUYER;
        const o = {
          tenant,
          id,
          event: orderEvent(id, { buyer }),
          webhookId: `msg_${randomBytes(12).toString("hex")}`,
          answered: false,
        };
        orders.push(o);
        void sendOrder(o).then(async () => {
          // One delivery in six is sent again, as a shop retries one it timed out on.
          // Two seconds on: a retry signed anew, not the same signed delivery replayed.
          if (i % 6 === 3)
            await sleep(2000).then(() => deliver(seen, o.tenant, o.event, o.webhookId));
        });
        // One order in ten is refunded its shipping 20 s on.
        // Only while the load runs: the drain then knows every refund there is to wait for.
        if (i % 10 === 7 && Date.now() + 20_000 < end)
          setTimeout(() => {
            const r = {
              tenant,
              id: `ref_${id}`,
              orderId: id,
              event: {
                type: "order.refunded",
                timestamp: new Date().toISOString(),
                data: {
                  orderId: id,
                  id: `ref_${id}`,
                  lines: [
                    { lineId: "S1", name: "Frakt", quantity: 1, amount: REFUND_TOTAL, vat: "25" },
                  ],
                  total: REFUND_TOTAL,
                },
              },
              webhookId: `msg_${randomBytes(12).toString("hex")}`,
              answered: false,
            };
            refunds.push(r);
            if (!down) void sendOrder(r);
          }, 20_000);
      }
    })();
    const writeLoop = (async () => {
      for (let i = 0; Date.now() < end; i++) {
        await sleep(WRITE_EVERY_MS);
        if (down) continue;
        const tenant = tenants[(i * 7) % TENANTS];
        const w = {
          tenant,
          key: `soak-${randomBytes(8).toString("hex")}`,
          name: `Soak Kunde ${i} ${randomBytes(3).toString("hex")}`,
          answered: false,
        };
        writes.push(w);
        await sendWrite(w);
        if (i % 5 === 2) await sendWrite(w);
        // A read and a page of the tenant's customers, timed from here (warm: its token is cached).
        const t = performance.now();
        const s = await call(
          seen,
          "GET /v2/Customers",
          `${GW}/v2/Customers?PageSize=20&PageNumber=${1 + (i % 3)}`,
          { headers: { authorization: `Bearer ${tenant.gatewayKey}` } },
        );
        if (s === 200 || s === 204) warm.push({ at: Date.now() - t0, ms: performance.now() - t });
      }
    })();
    const faultLoop = (async () => {
      for (const [from, to, faults] of FAULTS) {
        const at = t0 + from * SECONDS * 1000;
        while (Date.now() < at) await sleep(200);
        if (!down)
          await json("PUT", `${SB}/_sandbox/settings`, { environment: "demo", faults }).catch(
            () => null,
          );
        injected += faults.length;
        while (Date.now() < t0 + to * SECONDS * 1000) await sleep(200);
        if (!down)
          await json("PUT", `${SB}/_sandbox/settings`, { environment: "demo", faults: [] }).catch(
            () => null,
          );
      }
    })();
    const crashLoop = (async () => {
      for (const at of crashAt) {
        while (Date.now() < at) await sleep(100);
        down = true;
        killPair(pair, "SIGKILL");
        await portsFree();
        pair = startPair(state, out);
        await ready();
        down = false;
        // The shops and callers send again what they had no answer for.
        await Promise.all([...orders, ...refunds].filter((o) => !o.answered).map(sendOrder));
      }
    })();
    await Promise.all([orderLoop, writeLoop, faultLoop, crashLoop]);
    await json("PUT", `${SB}/_sandbox/settings`, { environment: "demo", faults: [] });
    // Whatever is still unanswered is sent until answered, as shops and callers retry.
    for (let k = 0; k < 10 && [...orders, ...refunds, ...writes].some((o) => !o.answered); k++) {
      await Promise.all([...orders, ...refunds].filter((o) => !o.answered).map(sendOrder));
      for (const w of writes.filter((x) => !x.answered)) await sendWrite(w);
      await sleep(2000);
    }

    // Drain: every order ended, then each tenant's payout of its settled orders that were not refunded.
    const drained = Date.now() + DRAIN_MS;
    let runs = [];
    for (;;) {
      runs = (
        await Promise.all(
          tenants.map(async (t) => (await orderRuns(t)).map((r) => ({ ...r, tenant: t.slug }))),
        )
      ).flat();
      const open = orders.filter((o) => !ENDED.has(runs.find((r) => r.orderId === o.id)?.state));
      const refundsOpen = runs.some((r) =>
        r.refunds?.some((x) => !["credited", "failed", "skipped"].includes(x.state)),
      );
      if ((open.length === 0 && !refundsOpen) || Date.now() > drained) break;
      await sleep(3000);
    }
    const refunded = new Set(refunds.map((r) => r.orderId));
    const payouts = tenants
      .map((t) => {
        const ids = runs
          .filter((r) => r.tenant === t.slug && r.state === "settled" && !refunded.has(r.orderId))
          .map((r) => r.orderId);
        return {
          tenant: t,
          id: `po_${t.slug}`,
          ids,
          amount: (Number(NET) * ids.length).toFixed(2),
        };
      })
      .filter((p) => p.ids.length > 0);
    for (const p of payouts) {
      const event = {
        type: "payout.paid",
        timestamp: new Date().toISOString(),
        data: {
          id: p.id,
          provider: "stripe",
          orderSource: "standard",
          currency: "NOK",
          amount: p.amount,
          arrivalDate: new Date().toISOString().slice(0, 10),
          lines: p.ids.map((orderId) => ({ type: "charge", orderId, amount: TOTAL, fee: FEE })),
        },
      };
      const webhookId = `msg_${randomBytes(12).toString("hex")}`;
      p.status = await deliver(seen, p.tenant, event, webhookId);
      // The shop's retry of the same payout, signed anew a second on: a duplicate, never a booking.
      await sleep(1100);
      await deliver(seen, p.tenant, event, webhookId);
    }
    for (const p of payouts) {
      for (let i = 0; i < 200; i++) {
        p.view = await json("GET", `${GW}/payouts/standard/${p.id}`, undefined, {
          authorization: `Bearer ${p.tenant.gatewayKey}`,
        });
        if (["booked", "failed", "unmatched"].includes(p.view?.state)) break;
        await sleep(1000);
      }
    }
    const s1 = await stats();

    // The reconciler: each client's books, read with its own token.
    const lost = [];
    const doubled = [];
    let once = 0;
    let refundsOnce = 0;
    let payoutsOnce = 0;
    let bankEqual = 0;
    let writesOnce = 0;
    // The runs the alarm revived, by what the engine said of the lost instance.
    const revived = {};
    for (const x of runs.flatMap((r) => [r, ...(r.refunds ?? [])]))
      for (const step of (x.steps ?? []).filter((s) => s.name === "revive"))
        revived[step.result?.engine] = (revived[step.result?.engine] ?? 0) + 1;
    for (const t of tenants) {
      const token = await directToken(keys, t.clientKey);
      // Every page of a list, as the client itself would read it.
      const read = async (path) => {
        const all = [];
        for (let page = 1; ; page++) {
          const sep = path.includes("?") ? "&" : "?";
          const res = await fetch(`${SB}/Demo/v2${path}${sep}PageNumber=${page}&PageSize=${PAGE}`, {
            headers: {
              authorization: `Bearer ${token}`,
              "ocp-apim-subscription-key": keys.subscriptionKey,
            },
          });
          if (res.status === 429) {
            await sleep(1000);
            page--;
            continue;
          }
          const rows = res.status === 204 ? [] : await res.json();
          if (!Array.isArray(rows))
            throw new Error(`${path}: ${res.status} ${JSON.stringify(rows)}`);
          all.push(...rows);
          if (rows.length < PAGE) return all;
        }
      };
      const invoices = await read("/OutgoingInvoices");
      const mine = orders.filter((o) => o.tenant === t);
      for (const o of mine) {
        const inv = invoices.filter(
          (i) => i.CustomerReference === `NB-${o.id}` && i.VoucherType !== "OutgoingCreditNote",
        );
        const run = runs.find((r) => r.orderId === o.id);
        if (inv.length === 1 && (run?.state === "settled" || run?.state === "credited")) once++;
        else if (inv.length > 1) doubled.push(`order ${o.id} (${t.slug}): ${inv.length} invoices`);
        else
          lost.push(
            `order ${o.id} (${t.slug}): ${inv.length} invoices, run ${run?.state ?? "none"}`,
          );
      }
      const notes = invoices.filter((i) => i.VoucherType === "OutgoingCreditNote");
      for (const r of refunds.filter((x) => x.tenant === t)) {
        const inv = invoices.find(
          (i) =>
            i.CustomerReference === `NB-${r.orderId}` && i.VoucherType !== "OutgoingCreditNote",
        );
        const n = notes.filter((c) => inv && c.RelatedInvoiceNo === inv.InvoiceNo).length;
        if (n === 1) refundsOnce++;
        else {
          const run = runs.find((x) => x.orderId === r.orderId);
          const refund = run?.refunds?.find((x) => x.id === r.id);
          const why = `${n} credit notes; order ${run?.state}, refund ${refund?.state ?? "not received"}${r.answered ? "" : ", never answered"}`;
          (n > 1 ? doubled : lost).push(`refund ${r.id} (${t.slug}): ${why}`);
        }
      }
      const p = payouts.find((x) => x.tenant === t);
      if (p) {
        const bank = await read(
          `/AccountTransactions?accountNos=1920&fromDate=2000-01-01&toDate=2099-12-31`,
        );
        const sum = bank.reduce((n, r) => n + Math.round(Number(r.Amount) * 100), 0);
        if (p.view?.state === "booked" && bank.length === 1) payoutsOnce++;
        else
          (bank.length > 1 ? doubled : lost).push(
            `payout ${p.id}: ${p.view?.state}, ${bank.length} bank postings`,
          );
        if (sum === Math.round(Number(p.amount) * 100)) bankEqual++;
      }
      const customers = await read("/Customers");
      for (const w of writes.filter((x) => x.tenant === t)) {
        const n = customers.filter((c) => c.Name === w.name).length;
        if (n === 1) writesOnce++;
        else if (n > 1) doubled.push(`keyed write ${w.key} (${t.slug}): ${n} customers`);
        else if (w.answered)
          lost.push(`keyed write ${w.key} (${t.slug}): answered, but no customer`);
      }
    }
    const tenth = (SECONDS * 1000) / 10;
    const first = warm.filter((w) => w.at < tenth).map((w) => w.ms);
    const last = warm.filter((w) => w.at >= SECONDS * 1000 - tenth).map((w) => w.ms);
    const throttled = s1.throttled - s0.throttled - (s1.throttledInjected - s0.throttledInjected);
    return () => {
      console.log(
        `\n15. The soak: ${SECONDS} s of load on ${TENANTS} tenants, ${CRASHES} crash(es) of the whole pair (SIGKILL, started again on its state), ${FAULTS.length} fault windows (${injected} faults), then the payouts and the reconciler\n`,
      );
      console.log("| what | sent | once | lost | doubled |\n|---|---|---|---|---|");
      const lostOf = (p) => lost.filter((x) => x.startsWith(p)).length;
      const dupOf = (p) => doubled.filter((x) => x.startsWith(p)).length;
      console.log(
        `| orders (invoiced and settled) | ${orders.length} | ${once} | ${lostOf("order")} | ${dupOf("order")} |`,
      );
      console.log(
        `| refunds (credited) | ${refunds.length} | ${refundsOnce} | ${lostOf("refund")} | ${dupOf("refund")} |`,
      );
      console.log(
        `| payouts (booked; bank = deposit: ${bankEqual} of ${payouts.length}) | ${payouts.length} | ${payoutsOnce} | ${lostOf("payout")} | ${dupOf("payout")} |`,
      );
      console.log(
        `| keyed /v2 writes (${writes.filter((w) => w.answered).length} answered) | ${writes.length} | ${writesOnce} | ${lostOf("keyed")} | ${dupOf("keyed")} |`,
      );
      console.log(
        "\n| route | calls | 5xx | no answer (crash, dropped) | 4xx and 5xx by status |\n|---|---|---|---|---|",
      );
      for (const [route, r] of seen.byRoute) {
        const codes = Object.entries(r.codes).map(([k, n]) => `${k}: ${n}`);
        console.log(
          `| ${route} | ${r.sent} | ${r.s5xx} | ${r.none} | ${codes.join(", ") || "none"} |`,
        );
      }
      console.log(
        `\nRuns revived by the alarm: ${Object.values(revived).reduce((a, b) => a + b, 0)} (the engine said of the lost instance: ${JSON.stringify(revived)}). Upstream 429s beyond the injected: ${throttled} (injected: ${s1.throttledInjected - s0.throttledInjected}). Upstream calls: ${s1.requests - s0.requests}.`,
      );
      console.log(
        `Warm GET /v2/Customers: first tenth p50 ${pct(first, 50)?.toFixed(1)} ms, p99 ${pct(first, 99)?.toFixed(1)} ms (${first.length}); last tenth p50 ${pct(last, 50)?.toFixed(1)} ms, p99 ${pct(last, 99)?.toFixed(1)} ms (${last.length}).`,
      );
      for (const x of [...lost, ...doubled].slice(0, 30)) console.log(`- ${x}`);
      for (const n of notes) console.log(`- ${n}`);
    };
  } finally {
    killPair(pair, "SIGTERM");
    await portsFree();
    rmSync(state, { recursive: true, force: true });
  }
}
