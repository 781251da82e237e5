/**
 * The events routes besides delivery itself (docs/events.md): endpoints made, read, changed and
 * deleted with a gateway key and by the operator, secrets shown once and rotated with an overlap in
 * which both sign, the feed's cursor and filters, redelivery, payments and patches announced from
 * `/v2`, redirects not followed, and every refusal a problem (one of an event type names the
 * types).
 */
import { env } from "cloudflare:workers";
import {
  createExecutionContext,
  runDurableObjectAlarm,
  waitOnExecutionContext,
} from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import app from "../../src/index";
import { EVENT_TYPES } from "../../src/events/types";
import { eventsStub, tenantName } from "../../src/kernel/stubs";
import { restoreClock, skipAhead } from "../helpers/clock";
import { addEndpoint, captureQueue, drain, events, feed, installReceiver } from "../helpers/events";
import { ADMIN, gw, json, tenant } from "../helpers/gateway";
import { shopTenant, waitFor } from "../helpers/orders";
import { corpus as shopifyCorpus } from "../fixtures/orders/shopify";

afterEach(restoreClock);

const hook = (client: string, path = "in") => `https://hooks.${client}.example.com/${path}`;

/** A refusal's body, checked to be `application/problem+json`. */
async function problem(res: Response) {
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return (await res.json()) as { detail: string; errors?: { path: string; message: string }[] };
}

/** A `/v2` call through the gateway's own handler, waiting for its announcement. */
async function v2(key: string, path: string, init: RequestInit) {
  const ctx = createExecutionContext();
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${key}`);
  const res = await app.fetch(
    new Request(`https://gateway.test/v2${path}`, { ...init, headers }),
    env,
    ctx,
  );
  const body = (await res.json()) as Record<string, unknown>;
  await waitOnExecutionContext(ctx);
  expect(res.status, JSON.stringify(body)).toBeLessThan(300);
  return body;
}

describe("event endpoints: happy", () => {
  it("makes, lists, reads, changes and deletes an endpoint; its secret only in the first answer", async () => {
    const t = await tenant();
    const made = await addEndpoint(t.gatewayKey, {
      url: hook(t.client),
      types: ["order.settled", "refund.failed"],
      description: "ERP",
    });
    expect(Object.keys(made).sort()).toEqual(["id", "secret", "types", "url"]);
    expect(made.secret).toMatch(/^whsec_/);
    const list = await (await events(t.gatewayKey, "/endpoints")).json();
    expect(list).toEqual({
      endpoints: [
        expect.objectContaining({
          id: made.id,
          description: "ERP",
          state: "enabled",
          failingSince: null,
        }),
      ],
      // Only the runs' own events wanted: the watcher of changes made elsewhere polls nothing.
      watcher: expect.objectContaining({ state: "off", polls: [] }),
    });
    expect(JSON.stringify(list)).not.toContain(made.secret);
    const changed = await events(
      t.gatewayKey,
      `/endpoints/${made.id}`,
      json({ types: ["*"], description: null, url: hook(t.client, "v2") }, "PATCH"),
    );
    expect(await changed.json()).toMatchObject({
      types: ["*"],
      description: null,
      url: hook(t.client, "v2"),
    });
    const one = await (await events(t.gatewayKey, `/endpoints/${made.id}`)).text();
    expect(one).not.toContain(made.secret);
    expect((await events(t.gatewayKey, `/endpoints/${made.id}`, { method: "DELETE" })).status).toBe(
      204,
    );
    expect((await events(t.gatewayKey, `/endpoints/${made.id}`)).status).toBe(404);
    expect((await events(t.gatewayKey, `/endpoints/${made.id}/deliveries`)).status).toBe(404);
  });

  it("lets the operator do the same for any tenant under /admin", async () => {
    const t = await tenant();
    const at = `/admin/tenants/demo/${t.client}/events`;
    const made = await gw(`${at}/endpoints`, json({ url: hook(t.client) }, "POST", ADMIN));
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    expect((await gw(`${at}/endpoints`, { headers: ADMIN })).status).toBe(200);
    expect((await gw(`${at}/endpoints/${id}`, { headers: ADMIN })).status).toBe(200);
    expect(
      (await gw(`${at}/endpoints/${id}`, json({ enabled: false }, "PATCH", ADMIN))).status,
    ).toBe(200);
    expect((await gw(`${at}/endpoints/${id}/deliveries`, { headers: ADMIN })).status).toBe(200);
    expect((await gw(`${at}?limit=5`, { headers: ADMIN })).status).toBe(200);
    expect(
      (await gw(`${at}/endpoints/${id}/secret`, { method: "POST", headers: ADMIN })).status,
    ).toBe(200);
    // The tenant's own key sees the endpoint the operator made.
    expect(await (await events(t.gatewayKey, `/endpoints/${id}`)).json()).toMatchObject({
      state: "disabled",
      disabledReason: "Disabled by its owner.",
    });
    expect((await gw(`${at}/endpoints/${id}`, { method: "DELETE", headers: ADMIN })).status).toBe(
      204,
    );
  });

  it("takes http:// to a loopback address in the local configuration, for a receiver on this machine", async () => {
    const t = await tenant();
    const made = await addEndpoint(t.gatewayKey, { url: "http://127.0.0.1:48790/hooks" });
    expect(made.url).toBe("http://127.0.0.1:48790/hooks");
  });

  it("reads the feed after a cursor, by type, a page at a time", async () => {
    const t = await tenant();
    await v2(t.gatewayKey, "/Customers", json({ Name: "One AS" }));
    await v2(t.gatewayKey, "/Products", json({ Code: "P-1", Name: "Tea" }));
    await v2(t.gatewayKey, "/Customers", json({ Name: "Two AS" }));
    const all = await feed(t.gatewayKey);
    expect(all.map((e) => e.type)).toEqual([
      "customer.created",
      "product.created",
      "customer.created",
    ]);
    const page = await (await events(t.gatewayKey, "?limit=2")).json();
    expect(page).toMatchObject({ hasMore: true, events: [{ id: all[0]?.id }, { id: all[1]?.id }] });
    const rest = await (await events(t.gatewayKey, `?after=${all[1]?.id}`)).json();
    expect(rest).toEqual({ events: [all[2]], hasMore: false });
    const customers = await feed(t.gatewayKey, "&types=customer.created");
    expect(customers.map((e) => e.data.Name)).toEqual(["One AS", "Two AS"]);
  });

  it("announces a merge patch as product.updated with the record the API answered, once per change", async () => {
    const t = await tenant();
    const p = await v2(t.gatewayKey, "/Products", json({ Code: "P-2", Name: "Tea" }));
    const patch = (name: string) =>
      v2(t.gatewayKey, `/Products/${String(p.Id)}`, {
        method: "PATCH",
        headers: { "content-type": "application/merge-patch+json" },
        body: JSON.stringify({ Name: name }),
      });
    const first = await patch("Green tea");
    await patch("Black tea");
    const updates = await feed(t.gatewayKey, "&types=product.updated");
    expect(updates.map((e) => e.data.Name)).toEqual(["Green tea", "Black tea"]);
    expect(updates[0]?.data).toEqual(first);
  });

  it("follows a payment through /v2 with one read of the invoice: outgoing_invoice.paid", async () => {
    const t = await shopTenant({ settle: false });
    const order = shopifyCorpus().find((c) => c.currency === "NOK");
    if (!order) throw new Error("no NOK order in the corpus");
    expect((await t.send("shopify", order.payload)).status).toBe(202);
    const run = await waitFor(t, "shopify", String(order.payload.id), ["invoiced", "failed"]);
    expect(run.state, JSON.stringify(run.error)).toBe("invoiced");
    const [invoice] = await t.rows(`/OutgoingInvoices?invoiceNos=${run.invoiceNo}`);
    const [bank] = await t.rows("/GeneralLedgerAccounts?accountNos=1920");
    const [vat] = (await t.rows("/VatCodes")).filter((v) => v.Code === "0");
    const [customer] = await t.rows(`/Customers?customerNos=${String(invoice?.CustomerNo)}`);
    const amount = Number(invoice?.TotalAmount);
    const line = (accountId: unknown, sum: number, invoiceNo?: string) => ({
      AccountId: accountId,
      CurrencyAmount: sum,
      CurrencyCode: "NOK",
      VatId: vat?.Id,
      PostingDate: "2026-11-26",
      ...(invoiceNo ? { InvoiceNo: invoiceNo } : {}),
    });
    await v2(
      t.gatewayKey,
      "/Vouchers/BankJournals",
      json({
        VoucherDate: "2026-11-26",
        CurrencyCode: "NOK",
        VoucherLines: [
          line(bank?.Id, amount),
          line(customer?.SubledgerAccountId, -amount, String(run.invoiceNo)),
        ],
      }),
    );
    const types = (await feed(t.gatewayKey)).map((e) => e.type);
    expect(types).toEqual([
      "outgoing_invoice.created",
      "outgoing_invoice.sent",
      "order.invoiced",
      "outgoing_invoice.paid",
    ]);
    const [paid] = await feed(t.gatewayKey, "&types=outgoing_invoice.paid");
    // The invoice as read, its voucher's `Id` named `InvoiceId`; the sales order's is not in it.
    expect(paid?.data).toMatchObject({
      InvoiceNo: run.invoiceNo,
      SalesOrderId: null,
      InvoiceId: invoice?.Id,
      Balance: 0,
    });
    expect(paid?.data).not.toHaveProperty("Id");
    // The read is the events' call in the tenant's request log.
    const log = await gw(`/admin/tenants/demo/${t.client}/requests`, { headers: ADMIN });
    const reads = (
      (await log.json()) as { requests: { path: string; caller: { kind: string } }[] }
    ).requests.filter((r) => r.caller.kind === "events");
    expect(reads.map((r) => r.path)).toEqual(["/OutgoingInvoices"]);
  });

  it("redelivers an event with the same id, to one endpoint or to every one that takes its type", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const a = await addEndpoint(t.gatewayKey, { url: hook(t.client, "a") });
    await addEndpoint(t.gatewayKey, { url: hook(t.client, "b"), types: ["customer.created"] });
    await addEndpoint(t.gatewayKey, { url: hook(t.client, "c"), types: ["order.failed"] });
    await v2(t.gatewayKey, "/Customers", json({ Name: "Again AS" }));
    await drain(queue.take());
    const [event] = await feed(t.gatewayKey);
    const again = (body?: unknown) =>
      events(t.gatewayKey, `/${event?.id}/redeliver`, body ? json(body) : { method: "POST" });
    expect(await (await again()).json()).toEqual({ queued: 2 });
    await drain(queue.take());
    expect(await (await again({ endpoint: a.id })).json()).toEqual({ queued: 1 });
    await drain(queue.take());
    expect(receiver.at(hook(t.client, "a"))).toHaveLength(3);
    expect(receiver.at(hook(t.client, "b"))).toHaveLength(2);
    expect(receiver.at(hook(t.client, "c"))).toHaveLength(0);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(
      new Set([event?.id]),
    );
    const log = await (await events(t.gatewayKey, `/endpoints/${a.id}/deliveries`)).json();
    expect((log as { deliveries: { trigger: string }[] }).deliveries.map((d) => d.trigger)).toEqual(
      ["redeliver", "redeliver", "event"],
    );
  });

  it("does not follow a redirect: a 3xx is a failed attempt, retried", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = hook(t.client);
    receiver.answer(url, 302);
    await addEndpoint(t.gatewayKey, { url });
    await v2(t.gatewayKey, "/Customers", json({ Name: "Moved AS" }));
    const rounds = await drain(queue.take());
    expect(rounds.map((r) => r[0]?.retryAfter)).toEqual([1, null]);
    expect(receiver.received.map((r) => [r.url, r.status])).toEqual([
      [url, 302],
      [url, 200],
    ]);
  });
});

describe("event endpoints: errors", () => {
  it("refuses an endpoint URL that is not https on a public address, naming the field", async () => {
    const t = await tenant();
    for (const url of [
      "http://hooks.example.com/in",
      "https://10.1.2.3/in",
      "https://169.254.169.254/",
      "https://intranet/in",
      "not a url",
    ]) {
      const res = await events(t.gatewayKey, "/endpoints", json({ url }));
      expect(res.status, url).toBe(400);
      expect(((await res.json()) as { errors: { path: string }[] }).errors[0]?.path).toBe("url");
    }
  });

  it("refuses unknown types, '*' with others, unknown fields, and a 21st endpoint", async () => {
    const t = await tenant();
    const url = hook(t.client);
    for (const body of [
      { url, types: ["order.lost"] },
      { url, types: ["*", "order.settled"] },
      { url, types: [] },
      { url, secret: "mine" },
    ])
      expect(
        (await events(t.gatewayKey, "/endpoints", json(body))).status,
        JSON.stringify(body),
      ).toBe(400);
    for (let i = 0; i < 20; i++) await addEndpoint(t.gatewayKey, { url: hook(t.client, `n${i}`) });
    const over = await events(t.gatewayKey, "/endpoints", json({ url }));
    expect(over.status).toBe(409);
  });

  it("answers 404 for an endpoint or event that is not the tenant's, and 400 for a bad query or window", async () => {
    const t = await tenant();
    const ep = await addEndpoint(t.gatewayKey, { url: hook(t.client) });
    expect((await events(t.gatewayKey, "/endpoints/ep_0000000000000000000000")).status).toBe(404);
    expect((await events(t.gatewayKey, "/endpoints/not-an-id")).status).toBe(404);
    expect(
      (await events(t.gatewayKey, "/evt_00000000000000000000000000/redeliver", { method: "POST" }))
        .status,
    ).toBe(404);
    expect((await events(t.gatewayKey, "?after=evt_00000000000000000000000000")).status).toBe(404);
    expect((await events(t.gatewayKey, "?types=order.lost")).status).toBe(400);
    expect((await events(t.gatewayKey, "?limit=0")).status).toBe(400);
    const replay = (body: unknown) =>
      events(t.gatewayKey, `/endpoints/${ep.id}/replay`, json(body));
    expect((await replay({ since: "yesterday" })).status).toBe(400);
    expect(
      (await replay({ since: "2026-11-26T10:00:00Z", until: "2026-11-26T09:00:00Z" })).status,
    ).toBe(400);
    expect(await (await replay({ since: "2026-01-01T00:00:00Z" })).json()).toEqual({ queued: 0 });
  });

  it("refuses a redelivery to an endpoint that does not take the event's type, naming the types it takes", async () => {
    captureQueue();
    const t = await tenant();
    const ep = await addEndpoint(t.gatewayKey, {
      url: hook(t.client),
      types: ["order.settled", "refund.failed"],
    });
    await v2(t.gatewayKey, "/Customers", json({ Name: "Other AS" }));
    const [event] = await feed(t.gatewayKey);
    const res = await events(t.gatewayKey, `/${event?.id}/redeliver`, json({ endpoint: ep.id }));
    expect(res.status).toBe(409);
    expect((await problem(res)).detail).toBe(
      "The endpoint takes order.settled, refund.failed, not customer.created; add the type to its types first.",
    );
  });

  it("names every event type whenever it refuses one: an endpoint made or changed, by key or operator, and the feed", async () => {
    const t = await tenant();
    const ep = await addEndpoint(t.gatewayKey, { url: hook(t.client) });
    const listsTypes = (text: string | undefined) => {
      for (const type of EVENT_TYPES) expect(text).toContain(type);
      expect(text).toContain('"*" alone');
    };
    const refused = async (res: Response, path: string) => {
      expect(res.status).toBe(400);
      const p = await problem(res);
      expect(p.errors?.map((e) => e.path)).toEqual([path]);
      listsTypes(p.errors?.[0]?.message);
      expect(p.errors?.[0]?.message).not.toContain("Invalid input");
    };
    await refused(
      await events(
        t.gatewayKey,
        "/endpoints",
        json({ url: hook(t.client), types: ["order.lost"] }),
      ),
      "types.0",
    );
    await refused(
      await events(
        t.gatewayKey,
        `/endpoints/${ep.id}`,
        json({ types: ["customer.created", "customer.udpated"] }, "PATCH"),
      ),
      "types.1",
    );
    const at = `/admin/tenants/demo/${t.client}/events/endpoints`;
    await refused(
      await gw(at, json({ url: hook(t.client), types: ["Customer.Created"] }, "POST", ADMIN)),
      "types.0",
    );
    await refused(
      await gw(`${at}/${ep.id}`, json({ types: ["payout.lost"] }, "PATCH", ADMIN)),
      "types.0",
    );
    const feedRefused = await events(t.gatewayKey, "?types=order.settled,order.lost");
    expect(feedRefused.status).toBe(400);
    const p = await problem(feedRefused);
    expect(p.detail).toContain("unknown event types (order.lost)");
    for (const type of EVENT_TYPES) expect(p.detail).toContain(type);
  });
});

describe("event endpoints: security", () => {
  it("refuses a missing or forged key, and the operator's routes without the operator's token", async () => {
    const t = await tenant();
    // First: a failed operator token blocks this address for the operator
    // (tenant/door/inbound-limit.ts).
    expect(
      (await gw(`/admin/tenants/demo/${t.client}x/events/endpoints`, { headers: ADMIN })).status,
    ).toBe(404);
    expect((await gw("/events/endpoints")).status).toBe(401);
    expect((await gw("/events")).status).toBe(401);
    // Two forgeries: a key that failed once is refused with a 429 for a minute (failed-keys.ts).
    const forged = (c: string) => `lg_demo_${t.client}_${c.repeat(43)}`;
    expect((await events(forged("A"), "/endpoints")).status).toBe(401);
    expect((await events(forged("B"), "/endpoints", json({ url: hook(t.client) }))).status).toBe(
      401,
    );
    const at = `/admin/tenants/demo/${t.client}/events/endpoints`;
    expect((await gw(at)).status).toBe(401);
  });

  // Last: it moves the clock ahead (see test/events/routes.test.ts).
  it("rotates a secret: both sign for a day, then only the new one", async () => {
    const receiver = installReceiver();
    const queue = captureQueue();
    const t = await tenant();
    const url = hook(t.client);
    const ep = await addEndpoint(t.gatewayKey, { url });
    const res = await events(t.gatewayKey, `/endpoints/${ep.id}/secret`, { method: "POST" });
    const rotated = (await res.json()) as { secret: string; previousSecretExpiresAt: string };
    expect(rotated.secret).not.toBe(ep.secret);
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await v2(t.gatewayKey, "/Customers", json({ Name: "Rotated AS" }));
    await drain(queue.take());
    const during = receiver.at(url)[0];
    if (!during) throw new Error("nothing delivered");
    expect(during.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    for (const secret of [ep.secret, rotated.secret])
      expect(new Webhook(secret).verify(during.body, during.headers)).toBeTruthy();
    // A day later the alarm retires the previous secret.
    await skipAhead(24 * 3600_000 + 1000);
    await runDurableObjectAlarm(eventsStub(env, tenantName("demo", t.client)));
    expect(await (await events(t.gatewayKey, `/endpoints/${ep.id}`)).json()).toMatchObject({
      previousSecretExpiresAt: null,
    });
    const [event] = await feed(t.gatewayKey);
    await events(t.gatewayKey, `/${event?.id}/redeliver`, { method: "POST" });
    await drain(queue.take());
    const after = receiver.at(url)[1];
    if (!after) throw new Error("nothing redelivered");
    expect(after.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
    expect(new Webhook(rotated.secret).verify(after.body, after.headers)).toBeTruthy();
    expect(() => new Webhook(ep.secret).verify(after.body, after.headers)).toThrow();
  });
});
