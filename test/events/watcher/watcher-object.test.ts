/**
 * The watcher (`src/events/watcher/watcher-object.ts`, docs/events.md "The watcher") against the
 * sandbox: what issue 30 asks it to show. A customer created elsewhere with the client's own token
 * is one `customer.created`; an invoice paid elsewhere is `outgoing_invoice.paid`; a change the
 * gateway announced from its own write is not announced again; after an eviction and a restart
 * nothing is skipped or repeated; a row committed late inside the overlap is not lost; an endpoint
 * disabled by a 410 keeps its types watched, so enabled again, a replay sends what changed
 * meanwhile. Each cycle is the watcher's alarm, run with `runDurableObjectAlarm` (its cadence in
 * tests is an hour, so it never runs on its own); the queue is captured as the events tests
 * capture it.
 */
import { env } from "cloudflare:workers";
import {
  createExecutionContext,
  evictDurableObject,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import type { Watcher } from "../../../src/events/watcher/watcher-object";
import app from "../../../src/index";
import { MAX_PAGES } from "../../../src/events/watcher/poll";
import { LOOKBACK_MS } from "../../../src/events/watcher/times";
import { WATCHER_BACKOFF_MS } from "../../../src/upstream/rate/watcher-room";
import { governorStub } from "../../../src/kernel/stubs";
import { restoreClock, skipAhead } from "../../helpers/clock";
import { signIn } from "../../helpers/console";
import {
  addEndpoint,
  captureQueue,
  drain,
  events,
  feed,
  installReceiver,
} from "../../helpers/events";
import { ADMIN, control, gw, json, tenant } from "../../helpers/gateway";
import {
  alarmOf,
  bankPayment,
  cycle,
  elsewhere,
  invoiceElsewhere,
  sentInvoice,
  watcherOf,
} from "../../helpers/watcher";

afterEach(restoreClock);
afterEach(() => control("PUT", "/settings", { faults: [] }));

type Dto = Record<string, unknown>;
const hook = (client: string, path = "in") => `https://hooks.${client}.example.com/${path}`;

/** A tenant whose endpoint takes `types`, so its watcher watches. */
async function watched(types: string[] = ["*"]) {
  const queue = captureQueue();
  const t = await tenant();
  const ep = await addEndpoint(t.gatewayKey, { url: hook(t.client), types });
  return { ...t, ep, queue };
}

/** A `/v2` write through the gateway's own handler, waiting for its announcement. */
async function write(key: string, path: string, body: unknown, method = "POST") {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`https://gateway.test/v2${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": Array.isArray(body) ? "application/json-patch+json" : "application/json",
      },
      body: JSON.stringify(body),
    }),
    env,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  expect(res.status, text).toBeLessThan(300);
  return (text ? JSON.parse(text) : null) as Dto;
}

/** `[type, id]` of each event in the feed. */
const typesAndIds = (evs: { type: string; data: Dto }[]) =>
  evs.map((e) => [e.type, e.data.Id ?? e.data.InvoiceNo]);

describe("watcher: what issue 30 asks it to show", () => {
  it("a customer created elsewhere with the client's own token is one customer.created, delivered once", async () => {
    const receiver = installReceiver();
    const t = await watched(["customer.created", "customer.updated"]);
    const made = await elsewhere(t, "POST", "/Customers", { Name: "Elsewhere AS" });
    const view = await cycle(t);
    expect(view).toMatchObject({ state: "watching", polls: ["customers"] });
    expect(view.lastCycle).toMatchObject({ calls: 1, changes: 1, outcome: "ok" });
    const got = await feed(t.gatewayKey);
    expect(typesAndIds(got)).toEqual([["customer.created", made.Id]]);
    expect(got[0]?.data).toEqual(made);
    // The next cycle reads the overlap again and records nothing new.
    expect((await cycle(t)).lastCycle).toMatchObject({ calls: 1, changes: 0 });
    expect(await feed(t.gatewayKey)).toHaveLength(1);
    await drain(t.queue.take());
    expect(receiver.at(t.ep.url).map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual(
      ["customer.created"],
    );
    // Its calls are the tenant's request log's rows, caller `watcher` (listed when asked for).
    const log = await gw(`/admin/tenants/demo/${t.client}/requests?limit=50&caller=watcher`, {
      headers: ADMIN,
    });
    const rows = ((await log.json()) as { requests: { caller: { kind: string }; path: string }[] })
      .requests;
    expect(rows.filter((r) => r.caller.kind === "watcher").map((r) => r.path)).toEqual([
      "/Customers",
      "/Customers",
    ]);
    // And permits of the governor's watcher lane (the low class), not the tenant's callers'.
    const lanes = await governorStub(env, "demo").laneCounters();
    expect(lanes[`demo:${t.client}#watcher`]?.permits).toBe(2);
  });

  it("an invoice paid elsewhere (a bank voucher posted with the client's own token) is outgoing_invoice.paid", async () => {
    const t = await watched(["outgoing_invoice.paid", "outgoing_invoice.balance_changed"]);
    const { customer, invoice } = await invoiceElsewhere(t, 400);
    const [bank] = await elsewhere<Dto[]>(t, "GET", "/GeneralLedgerAccounts?accountNos=1920");
    const half = Number(invoice.TotalPostedAmount) / 2;
    await elsewhere(
      t,
      "POST",
      "/Vouchers/BankJournals",
      bankPayment(bank?.Id, customer, invoice.InvoiceNo, half),
    );
    await cycle(t);
    await elsewhere(
      t,
      "POST",
      "/Vouchers/BankJournals",
      bankPayment(bank?.Id, customer, invoice.InvoiceNo, half),
    );
    await cycle(t);
    const got = await feed(t.gatewayKey);
    // The invoice's posting (its creation) is not a balance change; each payment is one.
    expect(got.map((e) => [e.type, e.data.InvoiceNo, e.data.Balance])).toEqual([
      ["outgoing_invoice.balance_changed", invoice.InvoiceNo, half],
      ["outgoing_invoice.paid", invoice.InvoiceNo, 0],
    ]);
  });

  it("a change the gateway announced from its own write is not announced again; a change made elsewhere is", async () => {
    const t = await watched(["*"]);
    const customer = await write(t.gatewayKey, "/Customers", { Name: "Through AS" });
    await write(
      t.gatewayKey,
      `/Customers/${String(customer.Id)}`,
      [{ op: "replace", path: "/Name", value: "Through Nord AS" }],
      "PATCH",
    );
    const product = await write(t.gatewayKey, "/Products", { Name: "Kaffe", UnitPrice: 100 });
    const order = await write(t.gatewayKey, "/SalesOrders/Complete", {
      CustomerId: customer.Id,
      SalesOrderLines: [{ ProductId: product.Id, Quantity: 1 }],
    });
    // Announced 3 s after the send, from the sent state (`SENT_CHECK_DELAY_MS`).
    await write(t.gatewayKey, `/SalesOrders/${String(order.Id)}/createAndSendInvoice`, {});
    const invoice = await sentInvoice(t, String(order.Id));
    const [bank] = await elsewhere<Dto[]>(t, "GET", "/GeneralLedgerAccounts?accountNos=1920");
    await write(
      t.gatewayKey,
      "/Vouchers/BankJournals",
      bankPayment(bank?.Id, customer, invoice.InvoiceNo, invoice.TotalPostedAmount),
    );
    const announced = await feed(t.gatewayKey);
    expect(announced.map((e) => e.type).sort()).toEqual(
      [
        "customer.created",
        "customer.updated",
        "outgoing_invoice.created",
        "outgoing_invoice.paid",
        "outgoing_invoice.sent",
        "product.created",
      ].sort(),
    );
    const view = await cycle(t);
    expect(view.polls).toEqual(["customers", "products", "invoice-balances", "invoices-sent"]);
    // Four polls, and the first of the grant's hourly reads (every type includes its event).
    expect(view.lastCycle).toMatchObject({ calls: 5, changes: 0, outcome: "ok" });
    expect(await feed(t.gatewayKey)).toEqual(announced);
    // The same customer changed elsewhere: one event, the watcher's.
    const renamed = await elsewhere(t, "PATCH", `/Customers/${String(customer.Id)}`, [
      { op: "replace", path: "/Name", value: "Elsewhere Nord AS" },
    ]);
    expect((await cycle(t)).lastCycle).toMatchObject({ changes: 1 });
    const after = await feed(t.gatewayKey);
    expect(after.slice(0, announced.length)).toEqual(announced);
    expect(typesAndIds(after.slice(announced.length))).toEqual([["customer.updated", customer.Id]]);
    expect(after.at(-1)?.data).toEqual(renamed);
  });

  it("after an eviction, and after a restart that lost a cycle's cursor, neither skips nor repeats a change", async () => {
    const t = await watched(["customer.created"]);
    const a = await elsewhere(t, "POST", "/Customers", { Name: "A AS" });
    await cycle(t);
    // Evicted: only what is stored survives; the next alarm is stored too.
    await evictDurableObject(watcherOf(t));
    expect(await alarmOf(t)).not.toBeNull();
    const b = await elsewhere(t, "POST", "/Customers", { Name: "B AS" });
    await cycle(t);
    expect(typesAndIds(await feed(t.gatewayKey))).toEqual([
      ["customer.created", a.Id],
      ["customer.created", b.Id],
    ]);
    // A restart in the middle of a cycle: its events were recorded, its cursor never stored.
    await runInDurableObject(watcherOf(t), (_w: Watcher, state) => {
      state.storage.sql.exec("UPDATE cursors SET seen = NULL, resume = NULL");
    });
    await evictDurableObject(watcherOf(t));
    const c = await elsewhere(t, "POST", "/Customers", { Name: "C AS" });
    const view = await cycle(t);
    // A and B read again, recorded once; C once.
    expect(view.lastCycle).toMatchObject({ changes: 1 });
    expect(typesAndIds(await feed(t.gatewayKey))).toEqual([
      ["customer.created", a.Id],
      ["customer.created", b.Id],
      ["customer.created", c.Id],
    ]);
  });

  it("a row committed late, stamped at the cursor, inside the overlap, is not lost", async () => {
    const t = await watched(["customer.created", "customer.updated"]);
    const a = await elsewhere(t, "POST", "/Customers", { Name: "First AS" });
    await cycle(t);
    const cursor = await runInDurableObject(
      watcherOf(t),
      (_w: Watcher, state) =>
        state.storage.sql.exec<{ seen: number }>("SELECT seen FROM cursors").one().seen,
    );
    expect(cursor).toBe(Date.parse(String(a.LastChangedDateTimeOffset)));
    // Committed now, stamped as the last row read: a read of "changed after the cursor" misses it.
    const late = await elsewhere(t, "POST", "/Customers", { Name: "Late AS" });
    const stamp = new Date(cursor).toISOString();
    await control("POST", `/clients/demo/${t.clientId}/backdate`, {
      kind: "Customer",
      id: String(late.Id),
      fields: ["LastChangedDateTimeOffset", "CustomerCreatedDateTimeOffset"],
      to: stamp,
    });
    const missed = await elsewhere(
      t,
      "GET",
      `/Customers?lastChangedDateTimeOffsetGreaterThan=${encodeURIComponent(stamp)}`,
      undefined,
      204,
    );
    expect(missed).toBeNull();
    // The watcher reads back LOOKBACK_MS before its cursor.
    expect(LOOKBACK_MS).toBeGreaterThan(0);
    expect((await cycle(t)).lastCycle).toMatchObject({ changes: 1 });
    expect(typesAndIds(await feed(t.gatewayKey))).toEqual([
      ["customer.created", a.Id],
      ["customer.created", late.Id],
    ]);
  });
});

describe("watcher: an endpoint disabled meanwhile", () => {
  it("a customer made elsewhere while the only endpoint is disabled by a 410 is recorded; enabled again, a replay of the window sends its customer.created, verified", async () => {
    const receiver = installReceiver();
    const t = await watched(["customer.created"]);
    const endpoint = async () => (await events(t.gatewayKey, `/endpoints/${t.ep.id}`)).json();
    // The endpoint answers its first delivery 410 Gone: disabled at once.
    receiver.answer(t.ep.url, 410);
    const before = await elsewhere(t, "POST", "/Customers", { Name: "Before AS" });
    expect((await cycle(t)).lastCycle).toMatchObject({ changes: 1, outcome: "ok" });
    await drain(t.queue.take());
    expect(receiver.at(t.ep.url).map((r) => r.status)).toEqual([410]);
    expect(await endpoint()).toMatchObject({
      state: "disabled",
      disabledReason: "Disabled: it answered 410 Gone.",
    });
    // Still watched for the disabled endpoint's types.
    expect(await watcherOf(t).status()).toMatchObject({ state: "watching", polls: ["customers"] });
    // The window opens after the disabling: the clock moves on, so the first event lies before it.
    await skipAhead(1000);
    const since = new Date().toISOString();
    // Another integration makes a customer straight in the sandbox.
    const made = await elsewhere(t, "POST", "/Customers", { Name: "Meanwhile AS" });
    expect((await cycle(t)).lastCycle).toMatchObject({ changes: 1, outcome: "ok" });
    // Recorded (the log, the feed), not sent: the endpoint is disabled.
    const recorded = await feed(t.gatewayKey);
    expect(typesAndIds(recorded)).toEqual([
      ["customer.created", before.Id],
      ["customer.created", made.Id],
    ]);
    expect(recorded[1]?.data).toEqual(made);
    expect(t.queue.messages).toEqual([]);
    // Enabled again, the window's replay sends it, and only it.
    const enabled = await events(
      t.gatewayKey,
      `/endpoints/${t.ep.id}`,
      json({ enabled: true }, "PATCH"),
    );
    expect(await enabled.json()).toMatchObject({ state: "enabled", disabledReason: null });
    const replay = await events(t.gatewayKey, `/endpoints/${t.ep.id}/replay`, json({ since }));
    expect(replay.status, await replay.clone().text()).toBe(202);
    expect(await replay.json()).toEqual({ queued: 1 });
    await drain(t.queue.take());
    const [, sent] = receiver.at(t.ep.url);
    if (!sent) throw new Error("the replay delivered nothing");
    expect(receiver.at(t.ep.url).map((r) => r.status)).toEqual([410, 200]);
    // What the receiver's software does: verify with the endpoint's secret, then read the event.
    const verified = new Webhook(t.ep.secret).verify(sent.body, sent.headers) as {
      id: string;
      type: string;
      data: Dto;
    };
    expect(verified).toEqual(recorded[1]);
    expect(verified).toMatchObject({ type: "customer.created", data: { Id: made.Id } });
    expect(sent.headers["webhook-id"]).toBe(recorded[1]?.id);
  });
});

describe("watcher: budget, what it watches, and what it reports", () => {
  it("backs off first on a 429: no retry within the cycle, the next cycle after the Retry-After, the change then found", async () => {
    const t = await watched(["product.created"]);
    const made = await elsewhere(t, "POST", "/Products", { Name: "Throttled", UnitPrice: 1 });
    await control("PUT", "/settings", {
      faults: [
        { kind: "throttle", target: "api", path: "/Products", count: 2, retryAfterSeconds: 30 },
      ],
    });
    const before = Date.now();
    const view = await cycle(t);
    expect(view.lastCycle).toMatchObject({ calls: 1, changes: 0, outcome: "throttled" });
    // One fault used, not two: the watcher did not wait the 429 out and call again.
    const settings = await control<{ demo: { faults: unknown[] } }>("GET", "/settings");
    expect(settings.demo.faults).toHaveLength(1);
    expect(Date.parse(String(view.nextCycleAt))).toBeGreaterThanOrEqual(before + 30_000);
    await control("PUT", "/settings", { faults: [] });
    // Run before its time, the next cycle finds the governor still keeping the watcher out (a 429
    // to anyone's call keeps it out WATCHER_BACKOFF_MS): it stops without a call, and the change
    // waits; it asks again after the governor's Retry-After, not a whole cycle (an hour here)
    // later.
    const refused = await cycle(t);
    expect(refused.lastCycle).toMatchObject({ calls: 0, outcome: "no-permit" });
    const again = Date.parse(String(refused.nextCycleAt));
    expect(again).toBeGreaterThanOrEqual(Date.parse(String(refused.lastCycle?.at)) + 5000);
    expect(again).toBeLessThanOrEqual(Date.now() + WATCHER_BACKOFF_MS + 5000);
    // Past the Retry-After and the governor's back-off: found.
    await skipAhead(Math.max(30_000, WATCHER_BACKOFF_MS) + 1000);
    expect((await cycle(t)).lastCycle).toMatchObject({ calls: 1, changes: 1, outcome: "ok" });
    expect(typesAndIds(await feed(t.gatewayKey))).toEqual([["product.created", made.Id]]);
  });

  it("reports what it polls and the detection delay in GET /events/endpoints; stops when no endpoint wants what it sees", async () => {
    const t = await watched(["customer.created"]);
    const answer = async () => {
      const res = await events(t.gatewayKey, "/endpoints");
      expect(res.status).toBe(200);
      return ((await res.json()) as { watcher: Dto }).watcher;
    };
    const cycleSeconds = 3600; // the tests' WATCHER_CYCLE_SECONDS: the floor, for a few tenants
    expect(await answer()).toMatchObject({
      state: "watching",
      polls: ["customers"],
      // Its cost is capped: MAX_PAGES pages of each poll a cycle.
      maxCallsPerCycle: MAX_PAGES,
      cycleSeconds,
      expectedDelaySeconds: cycleSeconds / 2,
      worstDelaySeconds: cycleSeconds,
      measuredDelaySeconds: null,
      lastCycle: null,
    });
    await elsewhere(t, "POST", "/Customers", { Name: "Measured AS" });
    await cycle(t);
    const measured = await answer();
    expect(measured.measuredDelaySeconds).toEqual(expect.any(Number));
    expect(Number(measured.measuredDelaySeconds)).toBeGreaterThanOrEqual(0);
    expect(measured.lastCycle).toMatchObject({ calls: 1, changes: 1, outcome: "ok" });
    // The operator sees the same.
    const admin = await gw(`/admin/tenants/demo/${t.client}/events/endpoints`, { headers: ADMIN });
    expect(((await admin.json()) as { watcher: Dto }).watcher).toEqual(measured);
    // And the console's events page.
    const page = await (await signIn()).page(`/console/tenants/demo/${t.client}/events`);
    expect(page).toContain("Changes made elsewhere");
    expect(page).toContain(`customers, every ${cycleSeconds} s`);
    expect(page).toContain(`${cycleSeconds / 2} s on average, ${cycleSeconds} s at most`);
    expect(page).toContain("1 calls, 1 new changes, ok");
    // Only the runs' own events wanted: nothing to poll.
    const res = await events(
      t.gatewayKey,
      `/endpoints/${t.ep.id}`,
      json({ types: ["order.settled"] }, "PATCH"),
    );
    expect(res.status).toBe(200);
    expect(await answer()).toMatchObject({ state: "off", polls: [], maxCallsPerCycle: 0 });
    expect(await alarmOf(t)).toBeNull();
    // Wanted again, from now on: the customer made before is not announced a second time.
    await events(t.gatewayKey, `/endpoints/${t.ep.id}`, json({ types: ["*"] }, "PATCH"));
    expect((await answer()).polls).toEqual([
      "customers",
      "products",
      "invoice-balances",
      "invoices-sent",
    ]);
    // Watched afresh: four polls and a first read of the grant again.
    expect((await cycle(t)).lastCycle).toMatchObject({ calls: 5, changes: 0 });
    expect(await feed(t.gatewayKey)).toHaveLength(1);
  });

  it("a tenant removed stops its watcher, and so does deleting its last endpoint; disabling it does not", async () => {
    const t = await watched(["customer.updated"]);
    expect(await alarmOf(t)).not.toBeNull();
    const removed = await gw(`/admin/tenants/demo/${t.client}`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(removed.status).toBeLessThan(300);
    expect(await watcherOf(t).status()).toMatchObject({ state: "off" });
    expect(await alarmOf(t)).toBeNull();
    const u = await watched(["customer.updated"]);
    const disabled = await events(
      u.gatewayKey,
      `/endpoints/${u.ep.id}`,
      json({ enabled: false }, "PATCH"),
    );
    expect(await disabled.json()).toMatchObject({ state: "disabled" });
    // Disabling stops delivery, never recording: its types are still polled.
    expect(await watcherOf(u).status()).toMatchObject({ state: "watching", polls: ["customers"] });
    expect(await alarmOf(u)).not.toBeNull();
    // No endpoint at all: not polled.
    expect((await events(u.gatewayKey, `/endpoints/${u.ep.id}`, { method: "DELETE" })).status).toBe(
      204,
    );
    expect(await watcherOf(u).status()).toMatchObject({ state: "off", polls: [] });
    expect(await alarmOf(u)).toBeNull();
  });

  it("starts afresh on other books: a replaced client key's changes before the replacement are not announced", async () => {
    const t = await watched(["customer.created"]);
    await cycle(t);
    const other = await control<{ clientId: string; clientKey: string }>(
      "POST",
      "/clients",
      { environment: "demo", name: "Other books AS" },
      201,
    );
    await elsewhere({ ...t, clientKey: other.clientKey }, "POST", "/Customers", {
      Name: "Old news",
    });
    const replaced = await gw(
      `/admin/tenants/demo/${t.client}/client-key`,
      json({ clientKey: other.clientKey }, "PUT", ADMIN),
    );
    expect(replaced.status, await replaced.clone().text()).toBe(200);
    await cycle(t);
    const fresh = await elsewhere({ ...t, clientKey: other.clientKey }, "POST", "/Customers", {
      Name: "New books",
    });
    await cycle(t);
    expect(typesAndIds(await feed(t.gatewayKey))).toEqual([["customer.created", fresh.Id]]);
  });
});
