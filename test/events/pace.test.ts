/**
 * An endpoint's pace (`maxPerSecond`, docs/events.md): a burst over it waits its turn in the
 * events object's storage, each delivery given a slot, and the alarm sends each at its slot; none
 * is dropped and no queue retry is spent waiting. Time is the test's: the clock is moved, the
 * alarm run, and what arrived is counted against what the pace allows.
 */
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { eventsStub, tenantName } from "../../src/kernel/stubs";
import type { EventDraft } from "../../src/events/types";
import { restoreClock, skipAhead } from "../helpers/clock";
import { addEndpoint, captureQueue, drain, events, installReceiver } from "../helpers/events";
import { json, tenant } from "../helpers/gateway";

afterEach(restoreClock);

const draft = (i: number, at: number): EventDraft => ({
  type: "customer.created",
  at,
  data: { Id: i },
  key: `pace-${i}-${at}`,
});

describe("events: an endpoint's pace", () => {
  it("a burst of 20 events to an endpoint of maxPerSecond 2 arrives over about ten seconds, none lost", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = `https://hooks.${t.client}.example.com/slow`;
    const ep = await addEndpoint(t.gatewayKey, { url });
    const set = await events(
      t.gatewayKey,
      `/endpoints/${ep.id}`,
      json({ maxPerSecond: 2 }, "PATCH"),
    );
    expect(await set.json()).toMatchObject({ maxPerSecond: 2 });
    const stub = eventsStub(env, tenantName("demo", t.client));

    const t0 = Date.now();
    await stub.record(Array.from({ length: 20 }, (_, i) => draft(i, t0)));
    // However late each step runs, no more than the pace allows have arrived by then.
    const allowed = () => Math.floor((Date.now() - t0 + 50) / 500) + 1;
    const handled = await drain(queue.take());
    // Held for their slots: acknowledged, not retried through the queue.
    expect(handled.flat().every((h) => h.retryAfter === null)).toBe(true);
    expect(receiver.at(url).length).toBeLessThanOrEqual(allowed());
    for (let step = 0; receiver.at(url).length < 20 && step < 60; step++) {
      await skipAhead(500);
      await runDurableObjectAlarm(stub);
      await drain(queue.take());
      expect(receiver.at(url).length).toBeLessThanOrEqual(allowed());
    }
    const ids = receiver.at(url).map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    // Twenty at two a second: the last slot is 9.5 s after the first, and a delivery goes at most
    // 50 ms (the slack) before its slot.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(9_450);
    const log = (await (
      await events(t.gatewayKey, `/endpoints/${ep.id}/deliveries?limit=50`)
    ).json()) as {
      deliveries: { attempt: number; ok: boolean }[];
    };
    expect(log.deliveries).toHaveLength(20);
    expect(log.deliveries.every((d) => d.ok && d.attempt === 1)).toBe(true);
  });

  it("without a pace, or with it removed, a burst goes at once", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = `https://hooks.${t.client}.example.com/fast`;
    const ep = await addEndpoint(t.gatewayKey, { url });
    await events(t.gatewayKey, `/endpoints/${ep.id}`, json({ maxPerSecond: 2 }, "PATCH"));
    const off = await events(
      t.gatewayKey,
      `/endpoints/${ep.id}`,
      json({ maxPerSecond: null }, "PATCH"),
    );
    expect(await off.json()).toMatchObject({ maxPerSecond: null });
    const stub = eventsStub(env, tenantName("demo", t.client));
    await stub.record(Array.from({ length: 10 }, (_, i) => draft(i, Date.now())));
    await drain(queue.take());
    expect(receiver.at(url)).toHaveLength(10);
    const refused = await events(
      t.gatewayKey,
      `/endpoints/${ep.id}`,
      json({ maxPerSecond: 0 }, "PATCH"),
    );
    expect(refused.status).toBe(400);
  });
});
