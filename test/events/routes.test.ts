/**
 * Events out, end to end against the sandbox (docs/events.md): what issue 29 asks the delivery to
 * show. A write through `/v2` and an order run are announced, queued and delivered, signed as a
 * receiver's `standardwebhooks` library verifies; failures are retried with the same `webhook-id`,
 * a receiver down past the retry window leaves the event in the feed and the dead-letter state
 * until a replay, the sweep delivers what the queue never got, one tenant's endpoints never see
 * another's events, and a 410 disables the endpoint. The queue runs through the plugin's message
 * batches and the receiver is the isolate's `fetch` (test/helpers/events.ts says why).
 */
import { env } from "cloudflare:workers";
import {
  createExecutionContext,
  runDurableObjectAlarm,
  waitOnExecutionContext,
} from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import app from "../../src/index";
import { eventsStub, tenantName } from "../../src/kernel/stubs";
import { restoreClock, skipAhead } from "../helpers/clock";
import {
  addEndpoint,
  captureQueue,
  deadLetter,
  drain,
  events,
  feed,
  installReceiver,
} from "../helpers/events";
import { ADMIN, gw, json, tenant } from "../helpers/gateway";
import { settledNokOrder, shopTenant } from "../helpers/orders";

afterEach(restoreClock);

/**
 * A `/v2` write through the gateway's own handler, waiting for what it does after the answer
 * (announcing the write): `exports.default` would not let a test wait for that.
 */
async function write(key: string, path: string, body: unknown, method = "POST") {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`https://gateway.test/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    env,
    ctx,
  );
  const answer = (await res.json()) as Record<string, unknown>;
  await waitOnExecutionContext(ctx);
  expect(res.status, JSON.stringify(answer)).toBeLessThan(300);
  return answer;
}

/** The delivery log of an endpoint, newest first. */
async function deliveries(key: string, endpoint: string) {
  const res = await events(key, `/endpoints/${endpoint}/deliveries`);
  expect(res.status).toBe(200);
  return (
    (await res.json()) as {
      deliveries: {
        eventId: string;
        attempt: number;
        ok: boolean;
        status: number | null;
        trigger: string;
        deliveryState: string;
        error: string | null;
      }[];
    }
  ).deliveries;
}

const hook = (client: string, path = "in") => `https://hooks.${client}.example.com/${path}`;

describe("events: what issue 29 asks to show", () => {
  it("a customer created through /v2 is delivered once as customer.created, signed as standardwebhooks verifies", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = hook(t.client);
    const ep = await addEndpoint(t.gatewayKey, { url, types: ["customer.created"] });
    const other = await addEndpoint(t.gatewayKey, {
      url: hook(t.client, "products"),
      types: ["product.created"],
    });
    const customer = await write(t.gatewayKey, "/Customers", { Name: "Fjord AS" });
    // One message, to the endpoint that takes customers; none to the one that takes products.
    expect(queue.messages.map((m) => m.endpoint)).toEqual([ep.id]);
    const [handled] = await drain(queue.take());
    expect(handled?.map((h) => h.acked)).toEqual([true]);
    const got = receiver.at(url);
    expect(got).toHaveLength(1);
    expect(receiver.at(other.url)).toHaveLength(0);
    const delivery = got[0];
    if (!delivery) throw new Error("nothing delivered");
    // What a receiver's software does: verify with the endpoint's secret, then read the event.
    const verified = new Webhook(ep.secret).verify(delivery.body, delivery.headers) as {
      id: string;
      type: string;
      data: Record<string, unknown>;
    };
    expect(verified).toMatchObject({
      type: "customer.created",
      data: { Id: customer.Id, Name: "Fjord AS" },
    });
    expect(delivery.headers["webhook-id"]).toBe(verified.id);
    expect(delivery.headers["content-type"]).toBe("application/json");
    expect(delivery.redirect).toBe("manual");
    // The event is the record as the API answered it, and the feed holds the same event.
    expect(verified.data).toEqual(customer);
    expect(await feed(t.gatewayKey)).toEqual([JSON.parse(delivery.body)]);
    // Another secret does not verify it.
    const stranger = await addEndpoint(t.gatewayKey, { url: hook(t.client, "x") });
    expect(() => new Webhook(stranger.secret).verify(delivery.body, delivery.headers)).toThrow(
      /No matching signature/,
    );
  });

  it("an order run that settles announces order.settled and outgoing_invoice.paid once each, even when its step is run again", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await shopTenant();
    const url = hook(t.client);
    await addEndpoint(t.gatewayKey, { url });
    // The events object's first answer to the settle step's announcement is lost after the events
    // were recorded: the engine runs the whole step again (the voucher, the report, the
    // announcement).
    const real = env.EVENTS.get.bind(env.EVENTS);
    let lost = 0;
    vi.spyOn(env.EVENTS, "get").mockImplementation((id) => {
      const stub = real(id);
      return new Proxy(stub, {
        get(target, prop) {
          if (prop !== "record") return Reflect.get(target, prop) as unknown;
          return async (drafts: { type: string }[]) => {
            const recorded = await target.record(drafts as never);
            if (lost === 0 && drafts.some((d) => d.type === "order.settled")) {
              lost++;
              throw new Error("the events object's answer was lost (injected fault)");
            }
            return recorded;
          };
        },
      });
    });
    const { orderId, run } = await settledNokOrder(t);
    await vi.waitFor(
      async () => expect((await feed(t.gatewayKey)).map((e) => e.type)).toContain("order.settled"),
      { timeout: 20_000, interval: 100 },
    );
    expect(lost).toBe(1);
    await drain(queue.take());
    const types = receiver.at(url).map((r) => (JSON.parse(r.body) as { type: string }).type);
    expect(types.sort()).toEqual(
      [
        "order.invoiced",
        "order.settled",
        "outgoing_invoice.created",
        "outgoing_invoice.paid",
        "outgoing_invoice.sent",
      ].sort(),
    );
    const byType = Object.fromEntries(
      receiver.at(url).map((r) => {
        const e = JSON.parse(r.body) as { type: string; data: Record<string, unknown> };
        return [e.type, e.data];
      }),
    );
    // The order's events carry the run as GET /orders shows it; the invoice's, its ids.
    expect(byType["order.settled"]).toMatchObject({ orderId, state: "settled" });
    expect(byType["outgoing_invoice.paid"]).toMatchObject({
      InvoiceNo: run.invoiceNo,
      SalesOrderId: run.salesOrderId,
      Balance: 0,
    });
  });

  it("a receiver that answers 500 three times, then 200, gets the event once more with the same webhook-id", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = hook(t.client);
    const ep = await addEndpoint(t.gatewayKey, { url });
    receiver.answer(url, 500, 500, 500);
    await write(t.gatewayKey, "/Customers", { Name: "Retry AS" });
    const rounds = await drain(queue.take());
    // The schedule (1s 2s 3s in the tests) between the attempts, the fourth acknowledged.
    expect(rounds.map((r) => r.map((h) => h.retryAfter))).toEqual([[1], [2], [3], [null]]);
    expect(rounds.at(-1)?.[0]?.acked).toBe(true);
    const got = receiver.at(url);
    expect(got.map((r) => r.status)).toEqual([500, 500, 500, 200]);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    const log = await deliveries(t.gatewayKey, ep.id);
    expect(log.map((a) => [a.attempt, a.status, a.ok])).toEqual([
      [4, 200, true],
      [3, 500, false],
      [2, 500, false],
      [1, 500, false],
    ]);
    expect(log.every((a) => a.deliveryState === "delivered")).toBe(true);
  });

  it("a receiver down past the retry window leaves the event in the feed and the dead-letter state; a replay delivers it", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = hook(t.client);
    const ep = await addEndpoint(t.gatewayKey, { url });
    receiver.answer(url, "down", "down", "down", "down");
    const since = new Date(Date.now() - 1000).toISOString();
    await write(t.gatewayKey, "/Customers", { Name: "Down AS" });
    const rounds = await drain(queue.take());
    expect(rounds).toHaveLength(4);
    expect(rounds.at(-1)?.[0]).toMatchObject({ acked: true, retryAfter: null });
    const [event] = await feed(t.gatewayKey);
    expect(event?.type).toBe("customer.created");
    const dead = await deliveries(t.gatewayKey, ep.id);
    expect(dead.map((a) => a.deliveryState)).toEqual(["failed", "failed", "failed", "failed"]);
    expect(dead[0]?.error).toBe("could not connect");
    // The receiver is back; the operator replays the window.
    const replay = await gw(
      `/admin/tenants/demo/${t.client}/events/endpoints/${ep.id}/replay`,
      json({ since }, "POST", ADMIN),
    );
    expect(replay.status, await replay.clone().text()).toBe(202);
    expect(await replay.json()).toEqual({ queued: 1 });
    await drain(queue.take());
    const got = receiver.at(url);
    expect(got.map((r) => r.status)).toEqual([null, null, null, null, 200]);
    expect(got.at(-1)?.headers["webhook-id"]).toBe(event?.id);
    const after = await deliveries(t.gatewayKey, ep.id);
    expect(after[0]).toMatchObject({ attempt: 1, trigger: "replay", ok: true });
    expect(after[0]?.deliveryState).toBe("delivered");
  });

  it("a message the queue dead-lettered (its consumer failed every time) puts the delivery in the dead-letter state", async () => {
    installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const ep = await addEndpoint(t.gatewayKey, { url: hook(t.client) });
    await write(t.gatewayKey, "/Customers", { Name: "Lettered AS" });
    const [handled] = await deadLetter(queue.take());
    expect(handled?.acked).toBe(true);
    const log = await deliveries(t.gatewayKey, ep.id);
    expect(log).toEqual([
      expect.objectContaining({ error: "dead-lettered by the queue", deliveryState: "failed" }),
    ]);
  });

  it("an endpoint of tenant A never receives tenant B's events", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const [a, b] = [await tenant(), await tenant()];
    const urlA = hook(a.client);
    const urlB = hook(b.client);
    await addEndpoint(a.gatewayKey, { url: urlA });
    const epB = await addEndpoint(b.gatewayKey, { url: urlB });
    await write(a.gatewayKey, "/Customers", { Name: `A ${a.client}` });
    await write(b.gatewayKey, "/Customers", { Name: `B ${b.client}` });
    await write(b.gatewayKey, "/Products", { Code: "B-1", Name: `B ${b.client}` });
    await drain(queue.take());
    const names = (url: string) =>
      receiver.at(url).map((r) => (JSON.parse(r.body) as { data: { Name: string } }).data.Name);
    expect(names(urlA)).toEqual([`A ${a.client}`]);
    expect(names(urlB).sort()).toEqual([`B ${b.client}`, `B ${b.client}`]);
    // Nor can A's key reach B's feed, endpoint or events.
    const [eventB] = await feed(b.gatewayKey);
    expect((await feed(a.gatewayKey)).map((e) => e.id)).not.toContain(eventB?.id);
    expect((await events(a.gatewayKey, `/endpoints/${epB.id}`)).status).toBe(404);
    expect(
      (await events(a.gatewayKey, `/${eventB?.id}/redeliver`, { method: "POST" })).status,
    ).toBe(404);
    expect((await events(a.gatewayKey, `?after=${eventB?.id}`)).status).toBe(404);
  });

  it("a 410 disables the endpoint, with a notice in the request log; enabled again, a replay delivers what it missed", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = hook(t.client);
    const ep = await addEndpoint(t.gatewayKey, { url });
    receiver.answer(url, 410);
    const since = new Date(Date.now() - 1000).toISOString();
    await write(t.gatewayKey, "/Customers", { Name: "Gone AS" });
    const rounds = await drain(queue.take());
    expect(rounds).toEqual([[expect.objectContaining({ acked: true, retryAfter: null })]]);
    const view = await (await events(t.gatewayKey, `/endpoints/${ep.id}`)).json();
    expect(view).toMatchObject({
      state: "disabled",
      disabledReason: "Disabled: it answered 410 Gone.",
    });
    // The next event is not queued for it.
    await write(t.gatewayKey, "/Customers", { Name: "Gone too AS" });
    expect(queue.messages).toEqual([]);
    expect(receiver.at(url)).toHaveLength(1);
    const log = await gw(`/admin/tenants/demo/${t.client}/requests?status=410`, { headers: ADMIN });
    const notice = ((await log.json()) as { requests: { caller: { kind: string; id: string } }[] })
      .requests;
    expect(notice.map((r) => r.caller)).toEqual([{ kind: "events", id: ep.id }]);
    // A replay to a disabled endpoint is refused until it is enabled.
    const replay = (body: unknown) =>
      events(t.gatewayKey, `/endpoints/${ep.id}/replay`, json(body));
    expect((await replay({ since })).status).toBe(409);
    const enabled = await events(
      t.gatewayKey,
      `/endpoints/${ep.id}`,
      json({ enabled: true }, "PATCH"),
    );
    expect(await enabled.json()).toMatchObject({ state: "enabled", disabledReason: null });
    expect(await (await replay({ since })).json()).toEqual({ queued: 2 });
    await drain(queue.take());
    expect(receiver.at(url).map((r) => r.status)).toEqual([410, 200, 200]);
  });

  // Last: it moves the clock ahead, and the clock goes back only after the file (a rate governor
  // that saw the later time would refuse the next test's calls until real time caught up).
  it("a send lost between the log and the queue is delivered by the sweep", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = hook(t.client);
    const ep = await addEndpoint(t.gatewayKey, { url });
    // The queue refuses the first send (as a platform error would): the events stay in the log.
    vi.mocked(env.EVENT_DELIVERIES.sendBatch).mockRejectedValueOnce(
      new Error("Queue send failed (injected fault)"),
    );
    await write(t.gatewayKey, "/Customers", { Name: "Lost AS" });
    expect(queue.messages).toEqual([]);
    expect(await feed(t.gatewayKey)).toHaveLength(1);
    const stub = eventsStub(env, tenantName("demo", t.client));
    // Before its grace has passed the sweep leaves the row (the send may still be on its way).
    await runDurableObjectAlarm(stub);
    expect(queue.messages).toEqual([]);
    await skipAhead(31_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(queue.messages).toHaveLength(1);
    await drain(queue.take());
    expect(receiver.at(url)).toHaveLength(1);
    expect((await deliveries(t.gatewayKey, ep.id))[0]).toMatchObject({
      ok: true,
      deliveryState: "delivered",
    });
  });
});
