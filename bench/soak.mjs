// `npm run bench -- soak` (not part of `all`): nothing lost under faults and crashes. Starts its own
// pair on a state of its own and drives it for LEDGERGATE_SOAK_SECONDS (180; the documented run is
// 3600) with, at once: shop orders of 20 tenants of all four sources (Standard Webhooks with new and
// returning buyers and refunds, Stripe, and Shopify and WooCommerce from the tests' corpus; one
// delivery in six repeated as shops retry, one order in twelve cancelled), `/v2` callers writing
// with `Idempotency-Key` (some writes repeated), reading and paging, an assistant's writes through
// MCP's prepare and confirm (some confirms repeated), four event endpoints whose receivers verify
// with `standardwebhooks` (one steady, one failing for a while, one answering 410 until enabled
// again, one slow), another integration's changes for the watcher to find, and the sandbox's
// faults (drop, lost answers, 5xx, 429 storms) in windows. LEDGERGATE_SOAK_CRASHES times (1; 2 for
// the hour) it kills the whole pair with SIGKILL mid-burst and starts it again on the same state;
// the shops, callers and assistant then send again what they had no answer for. When the load ends,
// each Standard Webhooks tenant's payout of its settled orders is sent, and each Stripe tenant's
// is made on the Stripe stand-in. Then the reconciler reads the books with each client's own token
// (straight from the sandbox), the gateway's records and the receivers' tallies, and prints one
// table; anything lost or doubled is named with its ids. Not a test: it asserts nothing. See
// docs/benchmarks.md, "Soak".
import { spawn } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import os from "node:os";
import { clearInterval, setInterval } from "node:timers";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { startReceiver } from "../scripts/webhook-receiver.mjs";
import {
  ADMIN,
  GW,
  SB,
  answers,
  directToken,
  json,
  mcpTool,
  pct,
  realApiSettings,
  sleep,
  stats,
} from "./lib.mjs";
import { BUYER, TOTAL, orderEvent, orderRuns, orderTenant, signed } from "./orders-shop.mjs";
import { shopCorpus } from "./shop-corpus.mjs";
import { account, intentOf, invoicePaid, payoutEvent, withStripe } from "./stripe-shop.mjs";

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
/** Where the soak's event receivers listen (on this machine, so they outlive the pair's crashes). */
const RECEIVER_PORT = Number(process.env.LEDGERGATE_SOAK_RECEIVER_PORT || 8791);
/** The gateway's event retries: a receiver that fails for a while gets its events within the run. */
const RETRY_SCHEDULE = process.env.LEDGERGATE_EVENT_RETRY_SCHEDULE || "2s 5s 10s 30s 60s 120s";
/** Another integration's change to tenant 0's books every this many ms, for its watcher to see. */
const ELSEWHERE_EVERY_MS = 15_000;
/** An assistant's write, prepared and confirmed over MCP, every this many ms. */
const MCP_EVERY_MS = 6000;
/** One order in this many is cancelled a second after it was paid (and then never refunded). */
const CANCEL_EVERY = 12;
/** How long the endpoints may take to get every recorded event, before and after a replay. */
const EVENTS_DRAIN_MS = 240_000;
/**
 * One endpoint on each of the first four tenants, answering as its name says: always; 500 from a
 * share of the run to another; 410 from 0.4 of the run until enabled again at 0.6; 3 s late.
 */
const HOOKS = ["steady", "flaky", "gone", "slow"];
/**
 * Tenants that sell through Stripe: their orders come as Stripe's `invoice.paid`, and their payout
 * is made on the Stripe stand-in and read from it (no refunds or cancellations there).
 */
const STRIPE_TENANTS = new Set([4, 5, 6, 7]);
/**
 * Tenants with a Shopify or a WooCommerce shop: their orders are the tests' corpus (five
 * currencies, discounts, new products and buyers), each with an id and number of its own, and
 * their cancellations the shop's own; no refunds or payouts there.
 */
const SHOP_TENANTS = { shopify: new Set([8, 9, 10, 11]), woocommerce: new Set([12, 13, 14, 15]) };
const FLAKY = [0.15, 0.35];
const GONE_AT = 0.4;
const ENABLED_AT = 0.6;
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
      LEDGERGATE_EVENT_RETRY_SCHEDULE: RETRY_SCHEDULE,
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
      const r = byRoute.get(route) ?? { sent: 0, s5xx: 0, none: 0, codes: {}, fiveAt: [] };
      if (status >= 400) r.codes[status] = (r.codes[status] ?? 0) + 1;
      r.sent++;
      if (status === 0) r.none++;
      else if (status >= 500) {
        r.s5xx++;
        r.fiveAt.push(Date.now());
      }
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

const auth = (t) => ({ authorization: `Bearer ${t.gatewayKey}` });

/**
 * The receivers of `HOOKS` on `ts` (one each): every delivery verified with `standardwebhooks`
 * and the endpoint's secret first; `share()` is how far the run is (0 to 1).
 */
async function eventEndpoints(ts, share) {
  const hooks = new Map();
  const receiver = await startReceiver({
    port: RECEIVER_PORT,
    answer: async ({ path, headers, body, event }) => {
      const hook = hooks.get(path.split("/")[2]);
      if (!hook) return 404;
      try {
        hook.verifier.verify(body, headers);
      } catch {
        hook.badSignatures++;
        return 401;
      }
      const at = share();
      if (hook.kind === "flaky" && at >= FLAKY[0] && at < FLAKY[1]) return 500;
      if (hook.kind === "gone" && at >= GONE_AT && !hook.enabledAgain) {
        hook.goneAnswers++;
        return 410;
      }
      if (hook.kind === "slow") await sleep(3000);
      hook.got.add(event?.id);
      return 200;
    },
  });
  for (const [i, kind] of HOOKS.entries()) {
    const url = `http://127.0.0.1:${RECEIVER_PORT}/soak/${kind}`;
    const made = await json("POST", `${GW}/events/endpoints`, { url, types: ["*"] }, auth(ts[i]));
    if (!made?.id) throw new Error(`endpoint refused: ${JSON.stringify(made)}`);
    hooks.set(kind, {
      kind,
      tenant: ts[i],
      id: made.id,
      verifier: new Webhook(made.secret),
      got: new Set(),
      badSignatures: 0,
      goneAnswers: 0,
      enabledAgain: false,
      disabledSeen: false,
      replayed: 0,
    });
  }
  return { hooks, close: receiver.close };
}

/** The tenant's whole event feed, oldest first. */
async function feedOf(t) {
  const all = [];
  for (let after = ""; ;) {
    const page = await json(
      "GET",
      `${GW}/events?limit=500${after && `&after=${after}`}`,
      undefined,
      auth(t),
    );
    all.push(...(page?.events ?? []));
    if (!page?.hasMore) return all;
    after = page.events.at(-1).id;
  }
}

/** The tenants' objects' database sizes, bytes, as `GET /admin/tenants` lists them. */
async function storageOf(ts) {
  const listed = (await json("GET", `${GW}/admin/tenants`, undefined, ADMIN))?.tenants ?? [];
  const bytes = listed
    .filter((x) => ts.some((t) => t.slug === x.client))
    .map((x) => x.storageBytes);
  return { total: bytes.reduce((a, b) => a + b, 0), max: Math.max(0, ...bytes), n: bytes.length };
}

/**
 * An MCP `tools/call` as a stateless POST (what an SDK client sends once connected): the HTTP
 * status and the tool's result, null without an answer.
 */
async function tool(seen, t, name, args) {
  try {
    const answer = await mcpTool(t.gatewayKey, name, args, randomBytes(4).toString("hex"));
    seen.note(`MCP ${name}`, answer.status);
    return answer;
  } catch {
    seen.note(`MCP ${name}`, 0);
    return { status: 0, result: null };
  }
}

/** Sends Stripe's `event` to the tenant's Stripe route, signed as Stripe signs (anew each time). */
function deliverStripe(seen, tenant, event) {
  const body = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac("sha256", tenant.stripeSecret).update(`${t}.${body}`).digest("hex");
  return call(seen, "POST /webhooks/stripe", `${GW}/webhooks/stripe/${tenant.slug}/demo`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": `t=${t},v1=${v1}` },
    body,
  });
}

/** The shop's webhook secret set on `t`: Shopify's with the tenant's own shop domain. */
async function withShop(t, shop) {
  const shopSecret = `${shop}-${randomBytes(16).toString("hex")}`;
  const body = { secret: shopSecret, ...(shop === "shopify" ? { shopDomain: shopDomain(t) } : {}) };
  const res = await fetch(`${GW}/admin/tenants/demo/${t.slug}/webhooks/${shop}`, {
    method: "PUT",
    headers: { "content-type": "application/json", ...ADMIN },
    body: JSON.stringify(body),
  });
  if (res.status !== 204)
    throw new Error(`setting ${t.slug}'s ${shop} secret answered ${res.status}`);
  return { ...t, shop, shopSecret };
}
const shopDomain = (t) => `${t.slug}.myshopify.com`;

/**
 * Sends `o` (`payload`, `topic`, `eventId`) as its tenant's shop sends it, signed anew: a Shopify
 * retry keeps its event id, a WooCommerce one gets a new delivery id, as each shop does.
 */
async function deliverShop(seen, corpus, o) {
  const sign = o.tenant.shop === "shopify" ? corpus.signShopify : corpus.signWooCommerce;
  const { body, headers } = await sign(o.payload, o.tenant.shopSecret, {
    topic: o.topic,
    eventId: o.eventId,
  });
  if (o.tenant.shop === "shopify") headers["X-Shopify-Shop-Domain"] = shopDomain(o.tenant);
  const route = `POST /webhooks/${o.tenant.shop}`;
  return call(seen, route, `${GW}/webhooks/${o.tenant.shop}/${o.tenant.slug}/demo`, {
    method: "POST",
    headers,
    body,
  });
}

/** Whether `t`'s books hold a customer named `name`, read straight from the sandbox with `keys`. */
async function customerNamed(keys, t, name) {
  const token = await directToken(keys, t.clientKey);
  for (let page = 1; ; page++) {
    const res = await fetch(`${SB}/Demo/v2/Customers?PageNumber=${page}&PageSize=${PAGE}`, {
      headers: {
        authorization: `Bearer ${token}`,
        "ocp-apim-subscription-key": keys.subscriptionKey,
      },
    });
    const rows = res.status === 200 ? await res.json() : [];
    if (rows.some((c) => c.Name === name)) return true;
    if (rows.length < PAGE) return false;
  }
}

/** The fault windows of a run of `ms`: each `[from, to, faults]`, as shares of the run. */
/** After a fault window closes, how long a 5xx is still taken as its doing, ms. */
const FAULT_TAIL_MS = 30_000;
/** After a crash, how long a 5xx is taken as the restart's (the pair starts in ~20 s), ms. */
const RESTART_TAIL_MS = 60_000;

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
  const closers = [];
  const out = openSync(logFile, "w");
  let pair = startPair(state, out);
  const notes = [`the pair's output: ${logFile}`];
  try {
    await ready();
    await realApiSettings();
    const keys = (await json("GET", `${SB}/_sandbox/keys`)).demo;
    const tenants = [];
    const corpus = await shopCorpus();
    const shopOrders = { shopify: corpus.shopifyCorpus(), woocommerce: corpus.wooCorpus() };
    for (let i = 0; i < TENANTS; i++) {
      const t = await orderTenant(`soak${i}`);
      if (STRIPE_TENANTS.has(i)) tenants.push(await withStripe(t));
      else if (SHOP_TENANTS.shopify.has(i)) tenants.push(await withShop(t, "shopify"));
      else if (SHOP_TENANTS.woocommerce.has(i)) tenants.push(await withShop(t, "woocommerce"));
      else tenants.push(t);
    }
    const clock = { t0: Date.now() };
    const share = () => (Date.now() - clock.t0) / (SECONDS * 1000);
    const events = await eventEndpoints(tenants, share);
    closers.push(events.close);
    const { hooks } = events;
    const storageAtStart = await storageOf(tenants);
    const seen = observer();
    const s0 = await stats();
    /** Every order sent: tenant, id, event, webhook id, whether the shop got a 2xx for it. */
    const orders = [];
    const refunds = [];
    const cancels = [];
    /** The assistant's writes: tenant, name, confirmation, whether a confirm was answered. */
    const assisted = [];
    /** Customers another integration made in tenant 0's books, for its watcher to find. */
    const elsewhere = [];
    /** Keyed writes: key, tenant, body, answered. */
    const writes = [];
    const warm = [];
    const t0 = Date.now();
    clock.t0 = t0;
    // The machine's 1-minute load average through the run: the pair shares it with the driver.
    const loads = [];
    const sampler = setInterval(() => loads.push(os.loadavg()[0]), 10_000);
    closers.push(() => clearInterval(sampler));
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
      const status = o.stripe
        ? await deliverStripe(seen, o.tenant, o.event)
        : o.tenant.shop
          ? await deliverShop(seen, corpus, o)
          : await deliver(seen, o.tenant, o.event, o.webhookId);
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
    // A confirm as an assistant's host sends it, and again (a new JSON-RPC id) until answered.
    const confirm = async (m) => {
      const { result } = await tool(seen, m.tenant, "confirm_write", {
        confirmation: m.confirmation,
      });
      const status = result?.structuredContent?.status;
      if (!result?.isError && status >= 200 && status < 300) m.answered = true;
      else m.last = result?.content?.[0]?.text ?? "no answer";
      m.unknown = !m.answered && /outcome of the first request .* is unknown/i.test(m.last);
    };
    // What the answer to an unknown outcome says to do: look in the books, and if the write is not
    // there, prepare it again (a new confirmation, so a new key).
    const prepareAgain = async (m) => {
      if (await customerNamed(keys.other, m.tenant, m.name)) return;
      const { result } = await tool(seen, m.tenant, "prepare_write", {
        method: "POST",
        path: "/Customers",
        body: { Name: m.name, IsPerson: false },
      });
      const confirmation = result?.structuredContent?.confirmation;
      if (confirmation) Object.assign(m, { confirmation, unknown: false, preparedAgain: true });
    };
    const shopCount = { shopify: 0, woocommerce: 0 };
    const orderLoop = (async () => {
      for (let i = 0; Date.now() < end; i++) {
        await sleep(ORDER_EVERY_MS);
        if (down) continue;
        const tenant = tenants[i % TENANTS];
        const id = `sk${Date.now().toString(36)}${i.toString(36)}`;
        const cancelled = i % CANCEL_EVERY === 5;
        if (tenant.shop) {
          // A corpus order, its id and number its own; the shop's cancellation a second later.
          const shopify = tenant.shop === "shopify";
          const k = shopCount[tenant.shop]++;
          const base = shopOrders[tenant.shop][k % shopOrders[tenant.shop].length].payload;
          const numeric = 8_000_000_000_000 + i;
          const number = `NB-${numeric}`;
          const payload = { ...base, id: numeric, ...(shopify ? { name: number } : { number }) };
          const o = {
            tenant,
            id: String(numeric),
            payload,
            topic: shopify ? "orders/paid" : "order.updated",
            eventId: randomUUID(),
            answered: false,
          };
          orders.push(o);
          void sendOrder(o).then(async () => {
            if (i % 6 === 3) await sleep(2000).then(() => deliverShop(seen, corpus, o));
            if (!cancelled) return;
            await sleep(1000);
            const c = {
              tenant,
              orderId: o.id,
              payload: shopify ? corpus.shopifyCancelled(payload) : corpus.wooCancelled(payload),
              topic: shopify ? "orders/cancelled" : "order.updated",
              eventId: randomUUID(),
              answered: false,
            };
            cancels.push(c);
            if (!down) await sendOrder(c);
          });
          continue;
        }
        if (tenant.stripe) {
          // A Stripe shop's order, its returning buyer; a shop retry is the same event signed anew.
          const o = { tenant, id, stripe: true, event: invoicePaid(id), answered: false };
          orders.push(o);
          void sendOrder(o).then(async () => {
            if (i % 6 === 3) await sleep(2000).then(() => deliverStripe(seen, tenant, o.event));
          });
          continue;
        }
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
          // A cancellation a second after the payment: it may come before the invoice or after.
          if (!cancelled) return;
          await sleep(1000);
          const c = {
            tenant,
            orderId: id,
            event: {
              type: "order.cancelled",
              timestamp: new Date().toISOString(),
              data: { orderId: id },
            },
            webhookId: `msg_${randomBytes(12).toString("hex")}`,
            answered: false,
          };
          cancels.push(c);
          if (!down) await sendOrder(c);
        });
        // One order in ten (not cancelled) is refunded its shipping 20 s on.
        // Only while the load runs: the drain then knows every refund there is to wait for.
        if (i % 10 === 7 && !cancelled && Date.now() + 20_000 < end)
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
    // Another integration (its own subscription key) adds customers to tenant 0's books.
    const elsewhereLoop = (async () => {
      const t = hooks.get("steady").tenant;
      let token = null;
      for (let i = 0; Date.now() < end; i++) {
        await sleep(ELSEWHERE_EVERY_MS);
        if (down) continue;
        token ??= await directToken(keys.other, t.clientKey);
        const name = `Annen Kunde ${i} ${randomBytes(3).toString("hex")}`;
        const res = await fetch(`${SB}/Demo/v2/Customers`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "ocp-apim-subscription-key": keys.other.subscriptionKey,
            "content-type": "application/json",
          },
          body: JSON.stringify({ Name: name, IsPerson: false }),
        }).catch(() => null);
        const made = res?.status === 201 ? await res.json() : null;
        if (res?.status === 401) token = null;
        if (made?.Id) elsewhere.push({ name, id: made.Id });
      }
    })();
    // An assistant prepares a customer over MCP and confirms it; one confirm in three is repeated.
    const mcpLoop = (async () => {
      for (let i = 0; Date.now() < end; i++) {
        await sleep(MCP_EVERY_MS);
        if (down) continue;
        const tenant = tenants[(i * 3 + 1) % TENANTS];
        const name = `MCP Kunde ${i} ${randomBytes(3).toString("hex")}`;
        const { result } = await tool(seen, tenant, "prepare_write", {
          method: "POST",
          path: "/Customers",
          body: { Name: name, IsPerson: false },
        });
        const confirmation = result?.structuredContent?.confirmation;
        if (!confirmation) continue;
        const m = { tenant, name, confirmation, answered: false };
        assisted.push(m);
        await confirm(m);
        if (i % 3 === 1) await confirm({ ...m, answered: false });
      }
    })();
    // The endpoint that answered 410 is enabled again, as its owner would once the receiver is back.
    const enableLoop = (async () => {
      const hook = hooks.get("gone");
      while (share() < ENABLED_AT) await sleep(500);
      for (;;) {
        const listed = await json("GET", `${GW}/events/endpoints`, undefined, auth(hook.tenant));
        const mine = listed?.endpoints?.find((e) => e.id === hook.id);
        if (mine) {
          hook.disabledSeen = mine.state === "disabled";
          hook.enabledAgain = true;
          const r = await fetch(`${GW}/events/endpoints/${hook.id}`, {
            method: "PATCH",
            headers: { ...auth(hook.tenant), "content-type": "application/json" },
            body: JSON.stringify({ enabled: true }),
          }).catch(() => null);
          if (r?.ok) return;
        }
        await sleep(1000);
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
        await Promise.all(
          [...orders, ...refunds, ...cancels].filter((o) => !o.answered).map(sendOrder),
        );
        await Promise.all(assisted.filter((m) => !m.answered).map(confirm));
      }
    })();
    await Promise.all([
      orderLoop,
      writeLoop,
      elsewhereLoop,
      mcpLoop,
      enableLoop,
      faultLoop,
      crashLoop,
    ]);
    await json("PUT", `${SB}/_sandbox/settings`, { environment: "demo", faults: [] });
    // Whatever is still unanswered is sent until answered, as shops and callers retry.
    const unanswered = () =>
      [...orders, ...refunds, ...cancels, ...writes, ...assisted].filter((o) => !o.answered);
    for (let k = 0; k < 10 && unanswered().length > 0; k++) {
      await Promise.all(
        [...orders, ...refunds, ...cancels].filter((o) => !o.answered).map(sendOrder),
      );
      for (const w of writes.filter((x) => !x.answered)) await sendWrite(w);
      for (const m of assisted.filter((x) => !x.answered)) {
        if (m.unknown) await prepareAgain(m);
        await confirm(m);
      }
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
    // Neither a refunded nor a cancelled order is in its shop's payout.
    const refunded = new Set([...refunds, ...cancels].map((r) => r.orderId));
    const payouts = tenants
      .filter((t) => !t.stripe && !t.shop)
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
    // A Stripe shop's payout: its settled orders' charges swept into one payout on the stand-in,
    // whose `payout.paid` (sent twice) the gateway reads from Stripe.
    for (const t of tenants.filter((x) => x.stripe)) {
      const ids = runs
        .filter((r) => r.tenant === t.slug && r.state === "settled")
        .map((r) => r.orderId);
      if (ids.length === 0) continue;
      const charges = ids.map((id) => ({
        amount: Math.round(Number(TOTAL) * 100),
        fee: Math.round(Number(FEE) * 100),
        paymentIntent: intentOf(id),
      }));
      await account(t, "POST", "/charges", { charges });
      const made = await account(t, "POST", "/payouts", {});
      const event = payoutEvent("payout.paid", made);
      const p = {
        tenant: t,
        id: made.id,
        ids,
        amount: (made.amount / 100).toFixed(2),
        stripe: true,
      };
      payouts.push(p);
      p.status = await deliverStripe(seen, t, event);
      await sleep(1100);
      await deliverStripe(seen, t, event);
    }
    for (const p of payouts) {
      for (let i = 0; i < 200; i++) {
        const source = p.stripe ? "stripe" : "standard";
        p.view = await json("GET", `${GW}/payouts/${source}/${p.id}`, undefined, {
          authorization: `Bearer ${p.tenant.gatewayKey}`,
        });
        if (["booked", "failed", "unmatched", "not-itemised", "needs-key"].includes(p.view?.state))
          break;
        await sleep(1000);
      }
    }
    const s1 = await stats();

    // Events: every event recorded for an endpoint's tenant reaches its receiver; what has not
    // after the wait is replayed (from the oldest missing) and waited for once more.
    const missing = async (hook) => {
      const feed = await feedOf(hook.tenant);
      hook.recorded = feed.length;
      hook.feed = feed;
      return feed.filter((e) => !hook.got.has(e.id));
    };
    const waitForEvents = async () => {
      const until = Date.now() + EVENTS_DRAIN_MS;
      for (;;) {
        const open = await Promise.all([...hooks.values()].map(missing));
        if (open.every((m) => m.length === 0) || Date.now() > until) return;
        await sleep(3000);
      }
    };
    await waitForEvents();
    for (const hook of hooks.values()) {
      const left = await missing(hook);
      hook.beforeReplay = hook.recorded - left.length;
      if (left.length === 0) continue;
      const since = new Date(Date.parse(left[0].timestamp) - 1000).toISOString();
      const r = await json(
        "POST",
        `${GW}/events/endpoints/${hook.id}/replay`,
        { since },
        auth(hook.tenant),
      );
      hook.replayed = r?.queued ?? 0;
    }
    await waitForEvents();
    for (const hook of hooks.values()) hook.lost = await missing(hook);
    const storageAtEnd = await storageOf(tenants);

    // The reconciler: each client's books, read with its own token.
    const lost = [];
    const doubled = [];
    let once = 0;
    let refundsOnce = 0;
    let payoutsOnce = 0;
    let bankEqual = 0;
    let writesOnce = 0;
    let assistedOnce = 0;
    let cancelledBefore = 0;
    let cancelledAfter = 0;
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
      const salesOrders = cancels.some((c) => c.tenant === t) ? await read("/SalesOrders") : [];
      const cancelled = new Set(cancels.map((c) => c.orderId));
      const mine = orders.filter((o) => o.tenant === t && !cancelled.has(o.id));
      for (const c of cancels.filter((x) => x.tenant === t)) {
        const ref = `NB-${c.orderId}`;
        const inv = invoices.filter(
          (i) => i.CustomerReference === ref && i.VoucherType !== "OutgoingCreditNote",
        ).length;
        const drafts = salesOrders.filter((so) => so.CustomerReference === ref).length;
        const run = runs.find((r) => r.orderId === c.orderId);
        if (run?.state === "cancelled" && inv === 0 && drafts === 0) cancelledBefore++;
        else if (run?.state === "settled" && inv === 1) cancelledAfter++;
        else
          (inv > 1 ? doubled : lost).push(
            `cancellation ${c.orderId} (${t.slug}): run ${run?.state ?? "none"}, ${inv} invoices, ${drafts} sales orders`,
          );
      }
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
      for (const m of assisted.filter((x) => x.tenant === t)) {
        const n = customers.filter((c) => c.Name === m.name).length;
        if (n === 1) assistedOnce++;
        else if (n > 1) doubled.push(`MCP confirm ${m.name} (${t.slug}): ${n} customers`);
        else if (m.answered) lost.push(`MCP confirm ${m.name} (${t.slug}): answered, no customer`);
      }
      for (const w of writes.filter((x) => x.tenant === t)) {
        const n = customers.filter((c) => c.Name === w.name).length;
        if (n === 1) writesOnce++;
        else if (n > 1) doubled.push(`keyed write ${w.key} (${t.slug}): ${n} customers`);
        else if (w.answered)
          lost.push(`keyed write ${w.key} (${t.slug}): answered, but no customer`);
      }
    }
    const steadyFeed = hooks.get("steady").feed ?? [];
    const watched = elsewhere.filter((x) =>
      steadyFeed.some((e) => e.type === "customer.created" && e.data?.Id === x.id),
    ).length;
    for (const x of elsewhere)
      if (!steadyFeed.some((e) => e.type === "customer.created" && e.data?.Id === x.id))
        lost.push(`change elsewhere: customer ${x.id} never recorded by the watcher`);
    for (const h of hooks.values())
      for (const e of h.lost ?? []) lost.push(`event ${e.id} (${e.type}) never reached ${h.kind}`);
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
        `| orders, invoiced and settled (sent: Stripe ${orders.filter((o) => o.stripe).length}, Shopify ${orders.filter((o) => o.tenant.shop === "shopify").length}, WooCommerce ${orders.filter((o) => o.tenant.shop === "woocommerce").length}, the rest Standard Webhooks; the cancelled ones below) | ${orders.length - cancels.length} | ${once} | ${lostOf("order")} | ${dupOf("order")} |`,
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
        `| MCP confirms (${assisted.filter((m) => m.answered).length} answered; ${assisted.filter((m) => m.preparedAgain).length} prepared again after an unknown outcome, as its answer says) | ${assisted.length} | ${assistedOnce} | ${lostOf("MCP")} | ${dupOf("MCP")} |`,
      );
      console.log(
        `| cancellations (${cancelledBefore} before the invoice: no invoice, no sales order; ${cancelledAfter} after: one invoice) | ${cancels.length} | ${cancelledBefore + cancelledAfter} | ${lostOf("cancellation")} | ${dupOf("cancellation")} |`,
      );
      console.log(
        `| changes made elsewhere, recorded by the watcher | ${elsewhere.length} | ${watched} | ${lostOf("change")} | — |`,
      );
      console.log(
        "\n| event endpoint (tenant) | how it answers | events recorded | delivered at least once, before any replay | replayed | delivered at least once | lost after replay | signatures refused |\n|---|---|---|---|---|---|---|---|",
      );
      const how = {
        steady: "2xx",
        flaky: `500 from ${FLAKY[0]} to ${FLAKY[1]} of the run`,
        gone: `410 from ${GONE_AT} of the run; ${hooks.get("gone").disabledSeen ? "disabled by it" : "not disabled (no delivery came)"}, enabled again at ${ENABLED_AT}`,
        slow: "2xx after 3 s",
      };
      for (const h of hooks.values())
        console.log(
          `| ${h.kind} (${h.tenant.slug}) | ${how[h.kind]} | ${h.recorded} | ${h.beforeReplay} | ${h.replayed} | ${h.recorded - (h.lost?.length ?? 0)} | ${h.lost?.length ?? 0} | ${h.badSignatures} |`,
        );
      const kb = (b) => `${(b / 1024).toFixed(0)} KiB`;
      console.log(
        `\nTenant objects' storage (${storageAtEnd.n} tenants): at the start ${kb(storageAtStart.total)} (largest ${kb(storageAtStart.max)}), at the end ${kb(storageAtEnd.total)} (largest ${kb(storageAtEnd.max)}).`,
      );
      // A 5xx while an injected fault's window is open, or within its tail (the calls it held
      // up), or around a crash and restart, is the schedule's; any other is ledgergate's own.
      const windows = [
        ...FAULTS.map(([from, to]) => [
          t0 + from * SECONDS * 1000,
          t0 + to * SECONDS * 1000 + FAULT_TAIL_MS,
        ]),
        ...crashAt.map((at) => [at - 5_000, at + RESTART_TAIL_MS]),
      ];
      const outside = (at) => !windows.some(([a, b]) => at >= a && at <= b);
      console.log(
        "\n| route | calls | 5xx | of them outside the fault windows and crashes | no answer (crash, dropped) | 4xx and 5xx by status |\n|---|---|---|---|---|---|",
      );
      for (const [route, r] of seen.byRoute) {
        const codes = Object.entries(r.codes).map(([k, n]) => `${k}: ${n}`);
        console.log(
          `| ${route} | ${r.sent} | ${r.s5xx} | ${r.fiveAt.filter(outside).length} | ${r.none} | ${codes.join(", ") || "none"} |`,
        );
      }
      console.log(
        `\nRuns revived by the alarm: ${Object.values(revived).reduce((a, b) => a + b, 0)} (the engine said of the lost instance: ${JSON.stringify(revived)}). Upstream 429s beyond the injected: ${throttled} (injected: ${s1.throttledInjected - s0.throttledInjected}). Upstream calls: ${s1.requests - s0.requests}. The machine's 1-minute load average (${os.cpus().length} CPUs): mean ${(loads.reduce((x, y) => x + y, 0) / Math.max(1, loads.length)).toFixed(2)}, highest ${Math.max(0, ...loads).toFixed(2)}.`,
      );
      console.log(
        `Warm GET /v2/Customers: first tenth p50 ${pct(first, 50)?.toFixed(1)} ms, p99 ${pct(first, 99)?.toFixed(1)} ms (${first.length}); last tenth p50 ${pct(last, 50)?.toFixed(1)} ms, p99 ${pct(last, 99)?.toFixed(1)} ms (${last.length}).`,
      );
      for (const x of [...lost, ...doubled].slice(0, 30)) console.log(`- ${x}`);
      for (const m of assisted.filter((x) => !x.answered).slice(0, 5))
        console.log(`- MCP confirm of ${m.name} never answered 2xx: ${m.last}`);
      for (const n of notes) console.log(`- ${n}`);
    };
  } finally {
    killPair(pair, "SIGTERM");
    for (const close of closers) await close();
    await portsFree();
    rmSync(state, { recursive: true, force: true });
  }
}
