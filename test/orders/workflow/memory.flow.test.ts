/**
 * Fewer calls per order, through the gateway and the sandbox: a returning buyer with known products
 * costs 4 upstream calls (order, send, one delivery check, payment: its `outgoing_invoice.paid` is
 * made from the settlement, with no read, docs/events.md), counted by the sandbox; and when the API
 * says a remembered customer or product is gone, the run forgets it, looks it up again, and the
 * order still settles, once.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { corpus, standardVariant } from "../../fixtures/orders/standard";
import { ADMIN, control, gw, json, stats } from "../../helpers/gateway";
import { shopTenant, waitFor, type Run, type ShopTenant } from "../../helpers/orders";

type Json = Record<string, unknown>;
const TENANT = env.TENANT;
/** A NOK order with two item lines, its buyer replaced in each test. */
const base = corpus().find(
  (c) => c.currency === "NOK" && (c.payload["data"] as { lines: unknown[] }).lines.length >= 2,
);
if (!base) throw new Error("the Standard Webhooks corpus has no NOK order of two lines");
const BUYER = {
  id: null,
  email: "ola.nordmann@example.no",
  company: null,
  organizationNumber: null,
};
const ACCOUNT = { "25": 3000, "15": 3030, "12": 3020, zero: 3100, exempt: 3200 } as const;

const calls = (run: Run, name: string) =>
  Number(run.steps.find((s) => s.name === name)?.result.upstreamCalls);
const total = (run: Run) =>
  run.steps.reduce((n, s) => n + (Number(s.result.upstreamCalls) || 0), 0);

/** Runs order `id` of the test buyer (with `edit` applied to its data) to its end; the run. */
async function settle(
  t: ShopTenant,
  id: string,
  edit: (data: Json) => Json = (d) => d,
): Promise<Run> {
  const o = standardVariant(base?.payload ?? {}, id, BUYER);
  expect((await t.send("standard", { ...o, data: edit(o["data"] as Json) })).status).toBe(202);
  const run = await waitFor(t, "standard", id, ["settled", "failed"]);
  expect(run.state, JSON.stringify(run.error)).toBe("settled");
  return run;
}

/** Runs `sql` in the tenant's object's storage, as if the books changed under what it remembers. */
const inStorage = (t: ShopTenant, sql: string) =>
  runInDurableObject(
    TENANT.get(TENANT.idFromName(t.name)),
    (_i, state) => void state.storage.sql.exec(sql),
  );

describe("order memory: a returning buyer with known products", () => {
  it("costs 4 upstream calls, none for the customer or the products, and is the same customer", async () => {
    const t = await shopTenant();
    const first = await settle(t, "mem-1");
    expect(first.customer?.created).toBe(true);
    const s0 = await stats();
    const second = await settle(t, "mem-2");
    const s1 = await stats();
    expect(second.steps.map((s) => s.name)).toEqual([
      "customer",
      "products",
      "sales order",
      "send invoice",
      "delivery 1",
      "settle",
    ]);
    expect([calls(second, "customer"), calls(second, "products")]).toEqual([0, 0]);
    expect(second.steps.find((s) => s.name === "customer")?.result).toMatchObject({
      remembered: true,
      created: false,
    });
    expect(total(second)).toBe(4);
    // The settle step's call: the voucher alone; no read of the invoice it paid.
    expect(calls(second, "settle")).toBe(1);
    // Counted by the sandbox too: no token request, no lookup, nothing else.
    expect(s1.requests - s0.requests).toBe(4);
    expect(second.customer?.id).toBe(first.customer?.id);
    expect(await t.rows("/Customers")).toHaveLength(1);
  });
});

describe("order memory: a remembered id the API no longer has", () => {
  it("a customer: the sales order is refused, the run forgets it, looks the buyer up again, and settles once", async () => {
    const t = await shopTenant();
    const first = await settle(t, "gone-c-1");
    await inStorage(
      t,
      "UPDATE known_customers SET customer_id = 999999, data = json_set(data, '$.id', 999999)",
    );
    const run = await settle(t, "gone-c-2");
    expect(run.steps.map((s) => s.name)).toEqual([
      "customer",
      "products",
      "sales order",
      "customer (looked up again)",
      "products (looked up again)",
      "sales order (looked up again)",
      "send invoice",
      "delivery 1",
      "settle",
    ]);
    expect(run.steps.find((s) => s.name === "sales order")?.result).toMatchObject({
      kind: "gone",
      customer: true,
      upstreamCalls: 1,
    });
    expect(run.steps.find((s) => s.name === "customer (looked up again)")?.result).toMatchObject({
      id: first.customer?.id,
      remembered: false,
      upstreamCalls: 1,
    });
    expect(run.customer?.id).toBe(first.customer?.id);
    expect(await t.rows("/Customers")).toHaveLength(1);
    expect(
      (await t.rows("/OutgoingInvoices")).filter((i) => i.CustomerId === first.customer?.id),
    ).toHaveLength(2);
    // Remembered right again: the next order makes no customer lookup.
    expect(calls(await settle(t, "gone-c-3"), "customer")).toBe(0);
  });

  it("a product: the sales order is refused naming it, the run forgets it, lists the products again, creates it, and settles", async () => {
    const t = await shopTenant();
    await settle(t, "gone-p-1");
    // A SKU the tenant remembers (as if an earlier order had shown it) that the books no longer
    // have.
    const line = ((base.payload["data"] as Json).lines as Json[])[0] as Json & {
      vat: keyof typeof ACCOUNT;
    };
    await inStorage(
      t,
      `INSERT INTO known_products (registration, code, sales_account, seen_at) SELECT registration, 'GHOST-1', ${ACCOUNT[line.vat]}, seen_at FROM known_products LIMIT 1`,
    );
    const run = await settle(t, "gone-p-2", (d) => ({
      ...d,
      lines: (d.lines as Json[]).map((l, i) => (i === 0 ? { ...l, sku: "GHOST-1" } : l)),
    }));
    expect(run.steps.find((s) => s.name === "products")?.result).toMatchObject({
      remembered: true,
      upstreamCalls: 0,
    });
    expect(run.steps.find((s) => s.name === "sales order")?.result).toMatchObject({
      kind: "gone",
      products: true,
    });
    expect(run.steps.find((s) => s.name === "products (looked up again)")?.result).toMatchObject({
      created: ["GHOST-1"],
      remembered: false,
    });
    expect(await t.rows("/Products?codes=GHOST-1")).toEqual([
      expect.objectContaining({ Code: "GHOST-1", StandardSalesAccount: ACCOUNT[line.vat] }),
    ]);
    expect(await t.rows("/OutgoingInvoices")).toHaveLength(2);
  });
});

describe("order memory: a client key of other books", () => {
  /** The id of account `no` in the books the tenant's client key opens now. */
  const accountId = async (t: ShopTenant, no: number) => {
    const [account] = await t.rows(`/GeneralLedgerAccounts?accountNos=${no}`);
    return Number(account?.Id);
  };

  it("drops the settlement ids of the old books: the next order settles on the new books' account, and the answer says what was cleared", async () => {
    const t = await shopTenant();
    await settle(t, "key-1");
    // The clearing account of "other": where an own-JSON order naming no method settles.
    const before = await accountId(t, 1910);
    const other = await control<{ clientKey: string }>(
      "POST",
      "/clients",
      { environment: "demo", name: "Other AS" },
      201,
    );
    const replaced = await gw(
      `/admin/tenants/demo/${t.client}/client-key`,
      json({ clientKey: other.clientKey }, "PUT", ADMIN),
    );
    expect(replaced.status, await replaced.clone().text()).toBe(200);
    expect(await replaced.json()).toEqual({
      cleared: {
        knownCustomers: 1,
        // The order's product codes.
        knownProducts: 3,
        codeIds: 0,
        idempotencyRecords: 0,
        // The chart of accounts read above, through the gateway's reference cache.
        referenceCache: 1,
        settlementIds: 1,
        // The runs' calls and the reads above (a count of its own in
        // test/request-log/requests.test.ts).
        loggedCalls: expect.any(Number) as number,
        // No assistant worked on these books.
        toolCalls: 0,
        writeConfirmations: 0,
        // The runs' events (order.*, outgoing_invoice.*): the old books' changes.
        events: 5,
      },
    });
    const after = await accountId(t, 1910);
    // Each sandbox client numbers its records from its own start: the same account, another id.
    expect(after).not.toBe(before);
    const run = await settle(t, "key-2");
    // The two ids looked up on the new books, and the voucher.
    expect(run.steps.find((s) => s.name === "settle")?.result).toMatchObject({
      upstreamCalls: 3,
    });
    const posted = await t.rows(
      "/AccountTransactions?accountNos=1910&fromDate=2000-01-01&toDate=2099-12-31",
    );
    expect(posted.map((x) => x.AccountId)).toEqual([after]);
  });
});
