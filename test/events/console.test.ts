/**
 * The console's events page (`src/events/console-routes.tsx`): a tenant's endpoints with
 * their recent deliveries and failures, a disabled endpoint's notice (on the tenant's page too),
 * and its forms: redeliver a failed event, enable the endpoint again, replay a window. Never a
 * secret on it.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../src/index";
import { follow, signIn } from "../helpers/console";
import { addEndpoint, captureQueue, drain, installReceiver } from "../helpers/events";
import { tenant } from "../helpers/gateway";

/** A customer made through /v2, its announcement awaited. */
async function customer(key: string, name: string) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request("https://gateway.test/v2/Customers", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ Name: name }),
    }),
    env,
    ctx,
  );
  expect(res.status).toBe(201);
  await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
}

describe("console: events", () => {
  it("shows endpoints, deliveries and a 410's notice; redelivers, enables and replays from its forms", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = `https://hooks.${t.client}.example.com/in`;
    const ep = await addEndpoint(t.gatewayKey, { url, description: "ERP" });
    receiver.answer(url, 410);
    await customer(t.gatewayKey, "Console AS");
    await drain(queue.take());
    const s = await signIn();
    const at = `/console/tenants/demo/${t.client}`;
    const page = await s.page(`${at}/events`);
    expect(page).toContain(url);
    expect(page).toContain("Disabled: it answered 410 Gone.");
    expect(page).toContain("customer.created");
    expect(page).toContain("answered 410");
    expect(page).not.toContain(ep.secret);
    expect(await s.page(at)).toContain(`Webhook endpoint ${url} is disabled`);

    // Redelivering to a disabled endpoint is refused, beside the form.
    const eventId = /events\/(evt_[A-Za-z0-9]+)\/redeliver/.exec(page)?.[1] ?? "";
    const refused = await follow(
      s,
      await s.post(`${at}/events/${eventId}/redeliver`, { endpoint: ep.id }),
    );
    expect(refused.html).toContain("The endpoint is disabled; enable it first");
    const enabled = await follow(s, await s.post(`${at}/events/endpoints/${ep.id}/enable`));
    expect(enabled.html).toContain("Enabled again");
    expect(enabled.html).not.toContain("Disabled: it answered 410 Gone.");
    const redone = await follow(
      s,
      await s.post(`${at}/events/${eventId}/redeliver`, { endpoint: ep.id }),
    );
    expect(redone.html).toContain("Redelivery: 1 delivery queued.");
    const since = new Date(Date.now() - 3600_000).toISOString().slice(0, 16);
    const replayed = await follow(
      s,
      await s.post(`${at}/events/endpoints/${ep.id}/replay`, { since }),
    );
    expect(replayed.html).toContain("Replay: 1 delivery queued.");
    await drain(queue.take());
    expect(receiver.at(url).map((r) => r.status)).toEqual([410, 200]);
  });

  it("answers 404 for a tenant that is not registered, and sends a signed-out browser to sign in", async () => {
    const s = await signIn();
    expect((await s.get("/console/tenants/demo/no-such-tenant/events")).status).toBe(404);
    const t = await tenant();
    const out = await s.get(`/console/tenants/demo/${t.client}/events`, { cookie: "" });
    expect(out.status).toBe(303);
  });
});
