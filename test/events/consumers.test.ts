/**
 * Named pull consumers (`GET /events?consumer=`, docs/events.md): a consumer reads from where it
 * stopped, its position kept in the events object's storage (read again after an eviction, through
 * a fresh stub); `seek` moves it after an event, to a time or to the start, for the tenant's key and
 * the operator alike; a consumer that reads counts for the watcher as an endpoint does. Refusals:
 * `after` with `consumer`, a bad name, an event not in the log, more than twenty consumers.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eventsStub, tenantName } from "../../src/kernel/stubs";
import type { EventDraft } from "../../src/events/types";
import { events } from "../helpers/events";
import { ADMIN, gw, json, tenant } from "../helpers/gateway";

type Page = {
  events: { id: string }[];
  hasMore: boolean;
  consumer?: { name: string; position: string | null };
};

const draft = (i: number, at = Date.now()): EventDraft => ({
  type: "customer.created",
  at,
  data: { Id: i },
  key: `consumer-${i}`,
});

async function read(key: string, query: string): Promise<Page> {
  const res = await events(key, `?${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Page;
}

const told = (stub: ReturnType<typeof eventsStub>) =>
  runInDurableObject(stub, (_i, state) => {
    const row = state.storage.sql
      .exec<{ value: string }>("SELECT value FROM meta WHERE key = 'watcher_types'")
      .toArray()[0];
    return row ? (JSON.parse(row.value) as string[]) : [];
  });

describe("events: named consumers", () => {
  it("reads from where it stopped; its position survives an eviction; seek moves it", async () => {
    const t = await tenant();
    const stub = eventsStub(env, tenantName("demo", t.client));
    await stub.record(Array.from({ length: 5 }, (_, i) => draft(i)));

    const first = await read(t.gatewayKey, "consumer=erp&limit=2");
    expect(first.events).toHaveLength(2);
    expect(first).toMatchObject({
      hasMore: true,
      consumer: { name: "erp", position: first.events[1]?.id },
    });
    await evictDurableObject(stub);
    const fresh = eventsStub(env, tenantName("demo", t.client));
    const second = await read(t.gatewayKey, "consumer=erp&limit=10");
    const all = [...first.events, ...second.events].map((e) => e.id);
    expect(second.events).toHaveLength(3);
    expect(new Set(all).size).toBe(5);
    // Another consumer has a position of its own.
    expect((await read(t.gatewayKey, "consumer=bi")).events).toHaveLength(5);
    expect((await read(t.gatewayKey, "consumer=erp")).events).toEqual([]);

    // Seek after the second event: the last three again, for the key.
    const after = await events(t.gatewayKey, "/consumers/erp/seek", json({ after: all[1] }));
    expect(await after.json()).toMatchObject({ name: "erp", position: all[1] });
    expect((await read(t.gatewayKey, "consumer=erp")).events.map((e) => e.id)).toEqual(
      all.slice(2),
    );
    // To the start, by the operator's twin.
    const start = await gw(
      `/admin/tenants/demo/${t.client}/events/consumers/erp/seek`,
      json({ start: true }, "POST", ADMIN),
    );
    expect(await start.json()).toMatchObject({ position: null });
    const again = await gw(`/admin/tenants/demo/${t.client}/events?consumer=erp`, {
      headers: ADMIN,
    });
    expect(((await again.json()) as Page).events.map((e) => e.id)).toEqual(all);
    // To a time after everything: nothing until a new event.
    await events(
      t.gatewayKey,
      "/consumers/erp/seek",
      json({ at: new Date(Date.now() + 1000).toISOString() }),
    );
    expect((await read(t.gatewayKey, "consumer=erp")).events).toEqual([]);
    await fresh.record([draft(9)]);
    expect((await read(t.gatewayKey, "consumer=erp")).events).toHaveLength(1);
  });

  it("a consumer that reads counts for the watcher as an endpoint does", async () => {
    const t = await tenant();
    const stub = eventsStub(env, tenantName("demo", t.client));
    await stub.record([draft(1)]);
    expect(await told(stub)).toEqual([]);
    await read(t.gatewayKey, "consumer=erp&types=customer.created");
    expect(await told(stub)).toEqual(["customer.created"]);
    await read(t.gatewayKey, "consumer=erp");
    expect(await told(stub)).toEqual(["*"]);
  });

  it("refuses after with consumer, a bad name, an event not in the log, and a twenty-first consumer", async () => {
    const t = await tenant();
    const stub = eventsStub(env, tenantName("demo", t.client));
    await stub.record([draft(1)]);
    const [e] = (await read(t.gatewayKey, "limit=1")).events;
    const both = await events(t.gatewayKey, `?consumer=erp&after=${e?.id}`);
    expect(both.status).toBe(400);
    expect(await both.text()).toContain("give after or consumer, not both");
    expect((await events(t.gatewayKey, "?consumer=Not%20A%20Name")).status).toBe(400);
    const missing = await events(
      t.gatewayKey,
      "/consumers/erp/seek",
      json({ after: `evt_${"A".repeat(26)}` }),
    );
    expect(missing.status).toBe(404);
    expect(
      (await events(t.gatewayKey, "/consumers/erp/seek", json({ start: true, after: e?.id })))
        .status,
    ).toBe(400);
    for (let i = 0; i < 20; i++) await read(t.gatewayKey, `consumer=c${i}`);
    const over = await events(t.gatewayKey, "?consumer=c20");
    expect(over.status).toBe(409);
    expect(await over.text()).toContain("at most 20 named consumers");
  });
});
