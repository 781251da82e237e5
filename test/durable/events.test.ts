/**
 * The `Events` object on its own (`src/durable/events.ts`): one event per de-duplication key
 * whoever records it, what survives an eviction, the alarm's purge after 30 days, an endpoint
 * failing for days disabled with a notice, an object reached by a name that is not a tenant's, and
 * its storage layout. Each test its own tenant name; the clock moves forward only.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DISABLE_AFTER_MS } from "../../src/durable/events/dispatch";
import { EVENT_RETENTION_MS } from "../../src/durable/events/log";
import { storedVersion } from "../../src/durable/migrations";
import { readFeed } from "../../src/lib/events/feed";
import type { EventDraft } from "../../src/lib/events/types";
import { eventsStub, tenantName } from "../../src/lib/stubs";
import { restoreClock, skipAhead } from "../helpers/clock";
import {
  addEndpoint,
  captureQueue,
  consume,
  drain,
  feed,
  installReceiver,
} from "../helpers/events";
import { ADMIN, gw, tenant } from "../helpers/gateway";

afterEach(restoreClock);

let seq = 0;
const draft = (key: string, type: EventDraft["type"] = "order.settled"): EventDraft => ({
  type,
  at: Date.now(),
  data: { orderId: key },
  key,
});

describe("Events object", () => {
  it("records one event per key, whoever records it and however often", async () => {
    const stub = eventsStub(env, tenantName("demo", `events-dedupe-${seq++}`));
    expect(await stub.record([draft("k1"), draft("k2"), draft("k1")])).toEqual({
      ok: true,
      value: { recorded: 2, keys: ["k1", "k2"] },
    });
    expect(await stub.record([draft("k2"), draft("k3")])).toEqual({
      ok: true,
      value: { recorded: 1, keys: ["k3"] },
    });
    const page = await readFeed(stub, null, null, 10);
    expect(page.events.map((e) => e.data.orderId)).toEqual(["k1", "k2", "k3"]);
  });

  it("keeps endpoints, the log and an unsent delivery across an eviction; the sweep still sends it", async () => {
    const queue = captureQueue();
    const t = await tenant();
    const stub = eventsStub(env, tenantName("demo", t.client));
    const ep = await addEndpoint(t.gatewayKey, { url: `https://hooks.${t.client}.example/in` });
    vi.mocked(env.EVENT_DELIVERIES.sendBatch).mockRejectedValueOnce(
      new Error("lost (injected fault)"),
    );
    await stub.record([draft("evicted")]);
    await evictDurableObject(stub);
    expect((await stub.endpoint(ep.id)).ok).toBe(true);
    expect(await feed(t.gatewayKey)).toHaveLength(1);
    await skipAhead(31_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(queue.messages.map((m) => m.endpoint)).toEqual([ep.id]);
  });

  it("disables an endpoint whose every attempt failed for days, with a notice in the request log", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = `https://hooks.${t.client}.example/in`;
    const ep = await addEndpoint(t.gatewayKey, { url });
    const stub = eventsStub(env, tenantName("demo", t.client));
    receiver.answer(url, 503, 503);
    await stub.record([draft("first")]);
    const [first] = await consume(queue.take());
    expect(first?.retryAfter).toBe(1);
    // Days later the same endpoint still fails: it is disabled, and the delivery goes to the
    // dead-letter state at once.
    await skipAhead(DISABLE_AFTER_MS);
    await stub.record([draft("second")]);
    const rounds = await drain(queue.take());
    expect(rounds).toEqual([[expect.objectContaining({ acked: true, retryAfter: null })]]);
    const view = await stub.endpoint(ep.id);
    expect(view.ok && view.value).toMatchObject({ state: "disabled" });
    expect(view.ok && view.value.disabledReason).toMatch(/^Disabled: every attempt failed since /);
    const log = await gw(`/admin/tenants/demo/${t.client}/requests`, { headers: ADMIN });
    const rows = (
      (await log.json()) as { requests: { caller: { kind: string }; apiError: string }[] }
    ).requests.filter((r) => r.caller.kind === "events");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.apiError).toContain(`Webhook endpoint ${ep.id} (hooks.${t.client}.example)`);
    expect(rows[0]?.apiError).not.toContain("/in");
  });

  it("purges events, their deliveries and attempts after 30 days, by its alarm", async () => {
    installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const ep = await addEndpoint(t.gatewayKey, { url: `https://hooks.${t.client}.example/in` });
    const stub = eventsStub(env, tenantName("demo", t.client));
    await stub.record([draft("old")]);
    await drain(queue.take());
    expect(
      (await stub.deliveries(ep.id, 10)).ok && (await stub.deliveries(ep.id, 10)),
    ).toMatchObject({
      value: [{ ok: true }],
    });
    await skipAhead(EVENT_RETENTION_MS - 60_000);
    await runDurableObjectAlarm(stub);
    expect(await feed(t.gatewayKey)).toHaveLength(1);
    await skipAhead(120_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await feed(t.gatewayKey)).toEqual([]);
    expect(await stub.deliveries(ep.id, 10)).toEqual({ ok: true, value: [] });
    // Nothing left to do: no alarm until the next event.
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });

  it("keeps its tenant's name for a wake without it (an alarm's), so the sweep's messages name the tenant", async () => {
    const queue = captureQueue();
    const t = await tenant();
    await addEndpoint(t.gatewayKey, { url: `https://hooks.${t.client}.example/in` });
    const named = eventsStub(env, tenantName("demo", t.client));
    await named.record([draft("named")]);
    await evictDurableObject(named);
    // The same object by its id alone, as the runtime wakes it for an alarm: no name given.
    const unnamed = env.EVENTS.get(env.EVENTS.idFromString(named.id.toString()));
    expect(await unnamed.record([draft("unnamed")])).toEqual({
      ok: true,
      value: { recorded: 1, keys: ["unnamed"] },
    });
    expect(queue.messages.map((m) => m.tenant)).toEqual([t.name, t.name]);
  });

  it("refuses to record when reached by a name that is not a tenant's", async () => {
    const stub = env.EVENTS.get(env.EVENTS.idFromName("not-a-tenant"));
    const recorded = await stub.record([draft("x")]);
    expect(recorded).toMatchObject({ ok: false, error: { reason: "misconfigured" } });
  });

  it("keeps its layout as numbered steps", async () => {
    const stub = eventsStub(env, tenantName("demo", `events-schema-${seq++}`));
    const version = await runInDurableObject(stub, (_i, state) => storedVersion(state.storage.sql));
    expect(version).toBe(1);
  });
});
