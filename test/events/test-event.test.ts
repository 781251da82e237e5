/**
 * The test event (`POST /events/endpoints/{id}/test`, docs/events.md): a signed `ledgergate.test`
 * sent now, which the receiver's `standardwebhooks` verifies; answered with its one attempt, shown
 * in the delivery log, never in the feed and never retried. A failing receiver's answer is shown;
 * a disabled endpoint can be tested before it is enabled again; another tenant's endpoint is a 404.
 * The console's Events page sends one with its button.
 */
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { addEndpoint, events, feed, installReceiver } from "../helpers/events";
import { follow, signIn } from "../helpers/console";
import { ADMIN, gw, json, tenant } from "../helpers/gateway";

const hook = (client: string, path = "in") => `https://hooks.${client}.example.com/${path}`;

interface Tested {
  eventId: string;
  type: string;
  ok: boolean;
  status: number | null;
  error: string | null;
}

async function test(key: string, id: string) {
  const res = await events(key, `/endpoints/${id}/test`, { method: "POST" });
  return { status: res.status, body: (await res.json()) as Tested };
}

describe("events: the test event", () => {
  it("arrives signed as standardwebhooks verifies, answered with its attempt and shown in the delivery log, never in the feed", async () => {
    const receiver = installReceiver();
    const t = await tenant();
    const ep = await addEndpoint(t.gatewayKey, {
      url: hook(t.client),
      types: ["customer.created"],
    });
    const tested = await test(t.gatewayKey, ep.id);
    expect(tested).toMatchObject({
      status: 200,
      body: { type: "ledgergate.test", ok: true, status: 200, error: null },
    });
    const [got] = receiver.at(ep.url);
    if (!got) throw new Error("nothing arrived");
    const verified = new Webhook(ep.secret).verify(got.body, got.headers) as Record<
      string,
      unknown
    >;
    expect(verified).toMatchObject({
      id: tested.body.eventId,
      type: "ledgergate.test",
      data: { endpointId: ep.id },
    });
    const log = await (await events(t.gatewayKey, `/endpoints/${ep.id}/deliveries`)).json();
    expect(log).toMatchObject({
      deliveries: [
        {
          eventId: tested.body.eventId,
          type: "ledgergate.test",
          trigger: "test",
          attempt: 1,
          ok: true,
          deliveryState: "delivered",
        },
      ],
    });
    expect(await feed(t.gatewayKey)).toEqual([]);
  });

  it("a failing receiver's answer is shown and not retried; a disabled endpoint is tested too; another tenant's is a 404", async () => {
    const receiver = installReceiver();
    const t = await tenant();
    const ep = await addEndpoint(t.gatewayKey, { url: hook(t.client) });
    receiver.answer(ep.url, 500);
    expect(await test(t.gatewayKey, ep.id)).toMatchObject({
      status: 200,
      body: { ok: false, status: 500, error: expect.stringContaining("500") },
    });
    receiver.answer(ep.url, "down");
    expect((await test(t.gatewayKey, ep.id)).body).toMatchObject({
      ok: false,
      status: null,
      error: "could not connect",
    });
    const disabled = await events(
      t.gatewayKey,
      `/endpoints/${ep.id}`,
      json({ enabled: false }, "PATCH"),
    );
    expect(disabled.status).toBe(200);
    expect((await test(t.gatewayKey, ep.id)).body).toMatchObject({ ok: true, status: 200 });
    // Three tests, three requests: none retried.
    expect(receiver.at(ep.url)).toHaveLength(3);
    const log = (await (await events(t.gatewayKey, `/endpoints/${ep.id}/deliveries`)).json()) as {
      deliveries: { ok: boolean; deliveryState: string }[];
    };
    expect(log.deliveries.map((d) => [d.ok, d.deliveryState])).toEqual([
      [true, "delivered"],
      [false, "failed"],
      [false, "failed"],
    ]);

    const other = await tenant();
    expect((await test(other.gatewayKey, ep.id)).status).toBe(404);
    // The operator's twin.
    const admin = await gw(`/admin/tenants/demo/${t.client}/events/endpoints/${ep.id}/test`, {
      method: "POST",
      headers: ADMIN,
    });
    expect(admin.status).toBe(200);
  });

  it("the console's Events page sends one and says what the receiver answered", async () => {
    const receiver = installReceiver();
    const t = await tenant();
    const ep = await addEndpoint(t.gatewayKey, { url: hook(t.client) });
    const s = await signIn();
    const at = `/console/tenants/demo/${t.client}/events`;
    expect(await s.page(at)).toContain(`action="${at}/endpoints/${ep.id}/test"`);
    const sent = await follow(s, await s.post(`${at}/endpoints/${ep.id}/test`));
    expect(sent.html).toContain("Test event delivered: the receiver answered 200.");
    receiver.answer(ep.url, 503);
    const failed = await follow(s, await s.post(`${at}/endpoints/${ep.id}/test`));
    expect(failed.html).toContain("The test event failed: answered 503");
    expect(receiver.at(ep.url)).toHaveLength(2);
  });
});
