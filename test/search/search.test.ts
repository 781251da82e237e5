/**
 * The operator's search (`GET /admin/search`, the console's search box; docs/console.md): across
 * tenants, an order by id or number, an invoice number, a customer by number, organization number,
 * e-mail or name, a request id, a webhook delivery's id, an event id and a payout id, each linked to
 * its console page; another tenant's records never in its hits; no upstream call. The order run and
 * the payout are written with the tenant's own books (their pipelines are tested in orders/ and
 * payouts/): settled and booked, so no alarm starts a run for them.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { applyEvent } from "../../src/orders/runs";
import { OrderBook } from "../../src/orders/tenant/order-book";
import { PayoutBook } from "../../src/payouts/tenant/payout-book";
import { blank } from "../../src/payouts/records";
import { eventsStub, tenantName, tenantStub } from "../../src/kernel/stubs";
import { coffeeOrder } from "../fixtures/orders/coffee";
import { signIn } from "../helpers/console";
import { feed } from "../helpers/events";
import { ADMIN, gw, stats, tenant } from "../helpers/gateway";
import { v2 } from "../helpers/request-log";

interface Found {
  query: string;
  hits: { tenant: string; kind: string; id: string; label: string; href: string }[];
  tenantsSearched: number;
  tenantsNotSearched: number;
  truncated: boolean;
}

const find = async (q: string): Promise<Found> => {
  const res = await gw(`/admin/search?q=${encodeURIComponent(q)}`, { headers: ADMIN });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Found;
};

/**
 * A tenant with a settled order run (invoice `910040 + n`, customer `910000 + n`), a booked payout,
 * a webhook delivery and an event.
 */
async function withBooks(n: number) {
  const t = await tenant();
  const name = tenantName("demo", t.client);
  const orderId = `${Date.now() % 1_000_000}`;
  const at = new Date().toISOString();
  const order = coffeeOrder(orderId, { email: `kari@${t.client}.example.no` });
  order.buyer.company = `Fjordkaffe ${t.client} AS`;
  order.buyer.organizationNumber = "923 609 016";
  const payoutId = `po_search_${t.client}`;
  await runInDurableObject(tenantStub(env, name), (_o, state) => {
    const sql = state.storage.sql;
    const run = applyEvent(null, "shopify", { kind: "paid", order }, at).run;
    new OrderBook(sql).put({
      ...run,
      state: "settled",
      started: true,
      invoiceNo: 910_040 + n,
      customer: { id: 77, number: 910_000 + n, subledgerAccountId: 1500, created: true },
    });
    new OrderBook(sql).remember("shopify", `wh-${t.client}`, null, Date.now());
    const payout = {
      id: payoutId,
      provider: "stripe" as const,
      currency: "NOK",
      amount: 12_500,
      arrivalDate: at.slice(0, 10),
      orderSource: "shopify" as const,
      lines: [],
    };
    new PayoutBook(sql).put({ ...blank("stripe", payout, at), state: "booked", started: true });
  });
  // Through the handler with its execution context, so the log's row is written when it answers.
  const call = await v2(t.gatewayKey, "/Customers/987654321");
  const requestId = call.headers.get("x-request-id") ?? "";
  await eventsStub(env, name).record([
    { type: "customer.created", at: Date.now(), data: { Id: 1 }, key: `search-${t.client}` },
  ]);
  const [event] = await feed(t.gatewayKey);
  return { ...t, orderId, payoutId, requestId, eventId: event?.id ?? "" };
}

describe("search: across tenants", () => {
  it("finds each kind of record by what names it, linked to its page, and makes no upstream call", async () => {
    const a = await withBooks(2);
    const b = await withBooks(3);
    const page = `/console/tenants/demo/${a.client}`;
    const orderPage = `${page}/orders/shopify/${a.orderId}`;
    const before = await stats();
    const cases: [string, string, string][] = [
      [a.orderId, "order", orderPage],
      [`#${a.orderId}`, "order", orderPage],
      ["910042", "invoice", orderPage],
      ["910002", "customer", orderPage],
      [`kari@${a.client}.example.no`, "customer", orderPage],
      [`fjordkaffe ${a.client}`, "customer", orderPage],
      [a.requestId, "request", `${page}/requests?before=`],
      [`wh-${a.client}`, "webhook", `${page}#webhooks`],
      [a.eventId, "event", `${page}/events`],
      [a.payoutId, "payout", `${page}/payouts/stripe/${a.payoutId}`],
    ];
    for (const [q, kind, href] of cases) {
      const found = await find(q);
      const mine = found.hits.filter((h) => h.tenant === `demo:${a.client}`);
      expect(
        mine.map((h) => h.kind),
        q,
      ).toEqual([kind]);
      expect(mine[0]?.href.startsWith(href), `${q}: ${mine[0]?.href}`).toBe(true);
      // B's records are other ones: never found by A's ids.
      expect(
        found.hits.some((h) => h.tenant === `demo:${b.client}`),
        q,
      ).toBe(false);
    }
    // The organization number, by both tenants' orders (same org no.), finds both.
    const org = await find("923609016");
    expect(new Set(org.hits.map((h) => h.tenant))).toEqual(
      new Set([`demo:${a.client}`, `demo:${b.client}`]),
    );
    expect(org.tenantsSearched).toBeGreaterThanOrEqual(2);
    expect(org.tenantsNotSearched).toBe(0);
    expect((await stats()).requests).toBe(before.requests);
  });

  it("the console's search box finds an order by its number and links its page", async () => {
    const a = await withBooks(4);
    const operator = await signIn();
    const tenants = await operator.page("/console");
    expect(tenants).toMatch(/<form method="get" action="\/console\/search" role="search"/);
    const html = await operator.page(`/console/search?q=${encodeURIComponent(`#${a.orderId}`)}`);
    expect(html).toContain(`href="/console/tenants/demo/${a.client}/orders/shopify/${a.orderId}"`);
    expect(html).toContain(`value="#${a.orderId}"`);
  });
});

describe("search: errors and security", () => {
  it("refuses an empty or over-long query, and any other parameter", async () => {
    for (const q of ["", "%20%20", "x".repeat(201)]) {
      const res = await gw(`/admin/search?q=${q}`, { headers: ADMIN });
      expect(res.status, q).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
    expect((await gw("/admin/search", { headers: ADMIN })).status).toBe(400);
    expect((await gw("/admin/search?q=1&tenant=x", { headers: ADMIN })).status).toBe(400);
  });

  it("is the operator's only: a gateway key or no token is 401", async () => {
    const t = await tenant();
    expect((await gw("/admin/search?q=1")).status).toBe(401);
    const res = await gw("/admin/search?q=1", {
      headers: { authorization: `Bearer ${t.gatewayKey}` },
    });
    expect(res.status).toBe(401);
  });
});
