/**
 * An ordered endpoint (`ordered: true`, docs/events.md): each delivery waits for the one before it,
 * by `timestamp`, to succeed or fail finally. One held behind another is acknowledged and waits in
 * the events object's storage; the head's settling makes the next due, and the alarm sends it. The
 * queue and the alarm are the test's to run, so the order asserted is the gateway's, not timing's.
 */
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eventsStub, tenantName } from "../../src/kernel/stubs";
import type { EventDraft } from "../../src/events/types";
import { addEndpoint, captureQueue, consume, events, installReceiver } from "../helpers/events";
import { json, tenant } from "../helpers/gateway";

const draft = (i: number, at: number): EventDraft => ({
  type: "customer.updated",
  at,
  data: { Id: i },
  key: `ordered-${i}-${at}`,
});

/** The endpoint as its owner reads it. */
async function endpoint(gatewayKey: string, id: string) {
  const res = await events(gatewayKey, `/endpoints/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    ordered: boolean;
    held: { by: string; waiting: number; since: string } | null;
  };
}

describe("events: an ordered endpoint", () => {
  it("a receiver failing one event's first attempt still gets every event in timestamp order", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = `https://hooks.${t.client}.example.com/in-order`;
    const ep = await addEndpoint(t.gatewayKey, { url });
    const set = await events(t.gatewayKey, `/endpoints/${ep.id}`, json({ ordered: true }, "PATCH"));
    expect(await set.json()).toMatchObject({ ordered: true, held: null });
    // The second event by timestamp fails its first attempt.
    receiver.answer(url, 200, 500);
    const stub = eventsStub(env, tenantName("demo", t.client));

    // Recorded out of timestamp order: the order asked is the changes', not the recording's.
    const t0 = Date.now() - 60_000;
    const offsets = [3, 0, 4, 1, 2];
    await stub.record(offsets.map((o, i) => draft(i, t0 + o * 1000)));
    const feed = (await (await events(t.gatewayKey, "?limit=10")).json()) as {
      events: { id: string; timestamp: string }[];
    };
    const byTime = [...feed.events].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    const expected = byTime.map((e) => e.id);

    // The first batch: the head goes, the other four are held (acknowledged, not retried).
    const first = await consume(queue.take());
    expect(first.every((h) => h.acked)).toBe(true);
    expect(receiver.at(url).map((r) => r.headers["webhook-id"])).toEqual([expected[0]]);

    // Each settling releases the next; the alarm sends it. The second fails once and is retried.
    let failed = false;
    for (let step = 0; receiver.at(url).length < 6 && step < 20; step++) {
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      const handled = await consume(queue.take());
      const retried = handled.filter((h) => h.retryAfter !== null);
      if (retried.length === 0) continue;
      failed = true;
      // While it fails, the three after it wait behind it, shown with the time they wait since.
      const view = await endpoint(t.gatewayKey, ep.id);
      expect(view.held).toMatchObject({ by: expected[1], waiting: 3 });
      expect(Date.parse(view.held?.since ?? "")).toBeLessThanOrEqual(Date.now());
      // The queue's retry (its delay is the test's): nothing else went meanwhile.
      const again = await consume(
        retried.map((h) => h.message),
        2,
      );
      expect(again.every((h) => h.acked)).toBe(true);
    }
    expect(failed).toBe(true);
    const got = receiver.at(url);
    expect(got.map((r) => r.headers["webhook-id"])).toEqual([
      expected[0],
      expected[1],
      expected[1],
      expected[2],
      expected[3],
      expected[4],
    ]);
    expect(got.map((r) => r.status)).toEqual([200, 500, 200, 200, 200, 200]);
    const stamps = got.map((r) => (JSON.parse(r.body) as { timestamp: string }).timestamp);
    expect(stamps).toEqual([...stamps].sort());
    expect((await endpoint(t.gatewayKey, ep.id)).held).toBeNull();
  });

  it("an endpoint made ordered no more sends what it held at once", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = `https://hooks.${t.client}.example.com/was-ordered`;
    const res = await events(t.gatewayKey, "/endpoints", json({ url, ordered: true }, "POST"));
    expect(res.status).toBe(201);
    const ep = (await res.json()) as { id: string };
    // The head fails and waits for its retry; the rest are held behind it.
    receiver.answer(url, 503);
    const stub = eventsStub(env, tenantName("demo", t.client));
    const t0 = Date.now() - 60_000;
    await stub.record([0, 1, 2].map((i) => draft(i, t0 + i * 1000)));
    const handled = await consume(queue.take());
    expect(handled.filter((h) => h.retryAfter !== null)).toHaveLength(1);
    expect(receiver.at(url)).toHaveLength(1);
    expect((await endpoint(t.gatewayKey, ep.id)).held).toMatchObject({ waiting: 2 });

    const off = await events(
      t.gatewayKey,
      `/endpoints/${ep.id}`,
      json({ ordered: false }, "PATCH"),
    );
    expect(await off.json()).toMatchObject({ ordered: false, held: null });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await consume(queue.take());
    // The two held went without waiting for the head's retry.
    expect(receiver.at(url).map((r) => r.status)).toEqual([503, 200, 200]);
  });
});
