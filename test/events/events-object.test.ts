/**
 * The `Events` object on its own (`src/events/events-object.ts`): one event per de-duplication key
 * whoever records it, what survives an eviction, a queued delivery whose attempt never came back
 * sent again after the lease (once), the alarm's purge after 30 days, an endpoint
 * failing for days disabled with a notice, a replay bounded by the rounds still open to its
 * endpoint, an object reached by a name that is not a tenant's, and its storage layout. Each test
 * its own tenant name; the clock moves forward only.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { EVENTS_MIGRATIONS, migrate as migrateEvents } from "../../src/events/object/schema";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DISABLE_AFTER_MS } from "../../src/events/object/dispatch";
import { EVENT_RETENTION_MS } from "../../src/events/object/log";
import { MAX_REPLAY_EVENTS } from "../../src/events/object/replays";
import { DEFAULT_EVENT_QUEUE_LEASE_SECONDS } from "../../src/kernel/config";
import { storedVersion } from "../../src/kernel/migrations";
import { readFeed } from "../../src/events/feed";
import type { EventDraft } from "../../src/events/types";
import { eventsStub, tenantName } from "../../src/kernel/stubs";
import { restoreClock, skipAhead } from "../helpers/clock";
import {
  addEndpoint,
  captureQueue,
  consume,
  drain,
  events,
  feed,
  installReceiver,
} from "../helpers/events";
import { ADMIN, gw, json, tenant } from "../helpers/gateway";

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
    const page = await readFeed(stub, { limit: 10 }, null);
    expect(page.events.map((e) => e.data.orderId)).toEqual(["k1", "k2", "k3"]);
  });

  it("keeps endpoints, the log and an unsent delivery across an eviction; the sweep still sends it", async () => {
    const queue = captureQueue();
    const t = await tenant();
    const stub = eventsStub(env, tenantName("demo", t.client));
    const ep = await addEndpoint(t.gatewayKey, { url: `https://hooks.${t.client}.example.com/in` });
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

  it("sends again, once, a queued delivery whose attempt never came back (lost with a crash), after the lease", async () => {
    const queue = captureQueue();
    const receiver = installReceiver();
    const t = await tenant();
    const stub = eventsStub(env, tenantName("demo", t.client));
    const url = `https://hooks.${t.client}.example.com/in`;
    const ep = await addEndpoint(t.gatewayKey, { url });
    await stub.record([draft("lost-in-flight")]);
    // The queue took the message, and the host died before the consumer reported its attempt.
    const [lost] = queue.take();
    expect(lost?.endpoint).toBe(ep.id);
    const lease = DEFAULT_EVENT_QUEUE_LEASE_SECONDS * 1000;
    await skipAhead(lease - 60_000);
    await runDurableObjectAlarm(stub);
    expect(queue.take()).toEqual([]);
    await skipAhead(61_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const again = queue.take();
    expect(again.map((m) => [m.event, m.endpoint, m.round])).toEqual([
      [lost?.event, ep.id, (lost?.round ?? 0) + 1],
    ]);
    // The lost message turning up after all is of an older round: dropped, so one attempt only.
    await consume([lost as NonNullable<typeof lost>, ...again]);
    expect(receiver.at(url)).toHaveLength(1);
  });

  it("disables an endpoint whose every attempt failed for days, with a notice in the request log", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = `https://hooks.${t.client}.example.com/in`;
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
    expect(rows[0]?.apiError).toContain(
      `Webhook endpoint ${ep.id} (hooks.${t.client}.example.com)`,
    );
    expect(rows[0]?.apiError).not.toContain("/in");
  });

  it("purges events, their deliveries and attempts after 30 days, by its alarm", async () => {
    installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const ep = await addEndpoint(t.gatewayKey, { url: `https://hooks.${t.client}.example.com/in` });
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

  it("refuses a replay that would leave its endpoint more than MAX_REPLAY_EVENTS rounds open, until they settle", async () => {
    installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const stub = eventsStub(env, tenantName("demo", t.client));
    // Two windows of this many events: one replay of either fits the cap, both at once do not.
    const batch = MAX_REPLAY_EVENTS / 2 + 1;
    const drafts = (prefix: string) =>
      Array.from({ length: batch }, (_, i) => draft(`${prefix}-${i}`));
    const since = new Date(Date.now() - 1000).toISOString();
    await stub.record(drafts("early"));
    await skipAhead(1000);
    const middle = new Date().toISOString();
    await stub.record(drafts("late"));
    // Added after the events: none of them was delivered to it, nothing is open yet.
    const ep = await addEndpoint(t.gatewayKey, { url: `https://hooks.${t.client}.example.com/in` });
    const open = () =>
      runInDurableObject(stub, (_i, state) => {
        const r = state.storage.sql
          .exec<{
            n: number;
          }>(
            "SELECT COUNT(*) AS n FROM deliveries WHERE endpoint_id = ? AND state = 'pending'",
            ep.id,
          )
          .one();
        return r.n;
      });
    const replay = (body: unknown) =>
      events(t.gatewayKey, `/endpoints/${ep.id}/replay`, json(body));

    const first = await replay({ since, until: middle });
    expect(first.status, await first.clone().text()).toBe(202);
    expect(await first.json()).toEqual({ queued: batch });
    expect(await open()).toBe(batch);
    // Back to back, the other window is refused: it would leave more than the cap open.
    const second = await replay({ since: middle });
    expect(second.status).toBe(409);
    expect(second.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await second.json()) as { type: string; detail: string };
    expect(problem.type).toBe("https://ledgergate.dev/problems/conflict");
    expect(problem.detail).toContain(`at most ${MAX_REPLAY_EVENTS} deliveries open`);
    expect(await open()).toBe(batch);
    expect(queue.messages).toHaveLength(batch);
    // A single event can still be redelivered meanwhile (one round, the same row).
    const [one] = await feed(t.gatewayKey);
    const again = await events(t.gatewayKey, `/${one?.id}/redeliver`, json({ endpoint: ep.id }));
    expect(await again.json()).toEqual({ queued: 1 });
    expect(await open()).toBeLessThanOrEqual(MAX_REPLAY_EVENTS);
    // The first replay's rounds are delivered: the other window is accepted now.
    await drain(queue.take());
    expect(await open()).toBe(0);
    const third = await replay({ since: middle });
    expect(third.status, await third.clone().text()).toBe(202);
    expect(await third.json()).toEqual({ queued: batch });
    expect(await open()).toBe(batch);
  });

  it("keeps its tenant's name for a wake without it (an alarm's), so the sweep's messages name the tenant", async () => {
    const queue = captureQueue();
    const t = await tenant();
    await addEndpoint(t.gatewayKey, { url: `https://hooks.${t.client}.example.com/in` });
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

  it("keeps its layout as numbered steps: a new object is at the last", async () => {
    const stub = eventsStub(env, tenantName("demo", `events-schema-${seq++}`));
    const version = await runInDurableObject(stub, (_i, state) => storedVersion(state.storage.sql));
    expect(version).toBe(EVENTS_MIGRATIONS.at(-1)?.version);
  });

  it("brings an object of layout 1 forward: its attempts and deliveries stay, the new columns empty", async () => {
    const stub = eventsStub(env, tenantName("demo", `events-schema-${seq++}`));
    await runInDurableObject(stub, (_i, state) => {
      const sql = state.storage.sql;
      sql.exec("ALTER TABLE attempts DROP COLUMN type");
      sql.exec("ALTER TABLE endpoints DROP COLUMN max_per_second");
      sql.exec("ALTER TABLE endpoints DROP COLUMN next_slot_at");
      sql.exec("ALTER TABLE deliveries DROP COLUMN slot_at");
      sql.exec("UPDATE meta SET value = '1' WHERE key = 'schema'");
      sql.exec(
        "INSERT INTO deliveries (event_id, endpoint_id, state, round, trigger, attempts, queued, due_at, updated_at) VALUES ('evt_1', 'ep_1', 'pending', 1, 'event', 1, 1, 5, 5)",
      );
      sql.exec(
        "INSERT INTO attempts (event_id, endpoint_id, attempt, trigger, at, status, error, duration_ms) VALUES ('evt_1', 'ep_1', 1, 'event', 5, 500, 'answered 500', 12)",
      );
      migrateEvents(state.storage);
      expect(storedVersion(sql)).toBe(EVENTS_MIGRATIONS.at(-1)?.version);
      expect(sql.exec("SELECT type, status FROM attempts").toArray()).toEqual([
        { type: null, status: 500 },
      ]);
      expect(sql.exec("SELECT event_id, slot_at FROM deliveries").toArray()).toEqual([
        { event_id: "evt_1", slot_at: null },
      ]);
      expect(
        sql
          .exec(
            "SELECT name FROM pragma_table_info('endpoints') WHERE name IN ('max_per_second', 'next_slot_at') ORDER BY name",
          )
          .toArray(),
      ).toEqual([{ name: "max_per_second" }, { name: "next_slot_at" }]);
    });
  });
});
