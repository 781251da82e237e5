/**
 * The customer, products and sales order steps with the run's memory, against a fake API: a
 * returning buyer with known products costs no call and gets exactly what the lookups would have
 * given; anything the memory cannot vouch for is looked up; and a remembered id the API refuses is
 * forgotten and reported gone, while the same refusal of a looked-up id fails as before.
 */
import { describe, expect, it } from "vitest";
import { resolveMapping } from "../../../src/ledger/mapping";
import type { Buyer, Order, OrderLine } from "../../../src/orders/order";
import type { KnownCustomer, KnownProduct, Learned, SettlementIds } from "../../../src/orders/port";
import { RunError } from "../../../src/ledger/run-api";
import { findOrCreateCustomer } from "../../../src/orders/run/customer";
import type { RunMemory } from "../../../src/orders/run/memory";
import { chooseProducts } from "../../../src/orders/run/products";
import { createSalesOrder, missingReference } from "../../../src/orders/run/sales-order";
import { knownSettlementIds } from "../../../src/orders/run/settle";
import type { LinePlan } from "../../../src/orders/invoice-lines";
import { fakeApi, rows, type FakeAnswer } from "./fake-api";

/** A memory kept in maps, as the tenant's object keeps it (minus expiry). */
function memory() {
  const customers = new Map<string, KnownCustomer>();
  const products = new Map<string, KnownProduct>();
  const settlements = new Map<number, SettlementIds>();
  const learned: Learned[] = [];
  const m: RunMemory = {
    customer: async (buyer) => customers.get(buyer) ?? null,
    products: async (codes) =>
      new Map(
        codes.flatMap((c) =>
          products.has(c) ? [[c, products.get(c) as KnownProduct] as const] : [],
        ),
      ),
    settlement: async (no) => settlements.get(no) ?? null,
    learn: async (l) => {
      learned.push(l);
      if (l.gone?.customerId !== undefined)
        for (const [b, c] of customers) if (c.id === l.gone.customerId) customers.delete(b);
      for (const code of l.gone?.codes ?? []) products.delete(code);
      if (l.customer) customers.set(l.customer.buyer, l.customer.known);
      for (const p of l.products ?? []) products.set(p.code, p);
      if (l.settlement) settlements.set(l.settlement.accountNo, l.settlement.ids);
    },
  };
  return { m, customers, products, learned };
}

const ORG = "923609016";
const item = (ref: string, sku: string, vat: OrderLine["vat"]): OrderLine => ({
  ref,
  kind: "item",
  sku,
  name: sku,
  quantity: 1,
  amount: 10_000,
  discount: 0,
  vat,
});
function order(buyer: Partial<Buyer>, lines: OrderLine[] = [item("L1", "KAFFE", "15")]): Order {
  const b: Buyer = {
    externalId: null,
    email: "kari@example.no",
    firstName: "Kari",
    lastName: "Nordmann",
    company: null,
    organizationNumber: null,
    phone: null,
    address: null,
    ...buyer,
  };
  return {
    source: "standard",
    id: "1001",
    number: "W-1001",
    placedAt: "2026-03-01T10:00:00Z",
    paidAt: null,
    currency: "NOK",
    taxIncluded: true,
    buyer: b,
    lines,
    total: 10_000,
  };
}
/** The client's customers, found by e-mail or organization number; a create answers 201. */
const customerBooks = (customers: Record<string, unknown>[]) =>
  fakeApi((method, _p, q) => {
    if (method === "POST")
      return { status: 201, body: { Id: 900, Number: 10_900, SubledgerAccountId: 9900 } };
    const [key, value = ""] = [...q.entries()][0] ?? [];
    const field =
      { organizationNumbers: "OrganizationNumber", emailAddresses: "EmailAddress" }[key ?? ""] ??
      "ExternalImportReference";
    return rows(
      customers.filter((c) => String(c[field] ?? "").toLowerCase() === value.toLowerCase()),
    );
  });
const kari = {
  Id: 502,
  Number: 10_002,
  SubledgerAccountId: 9002,
  OrganizationNumber: null,
  EmailAddress: "kari@example.no",
  ExternalImportReference: null,
};
const company = {
  Id: 501,
  Number: 10_001,
  SubledgerAccountId: 9001,
  OrganizationNumber: ORG,
  EmailAddress: "post@fjordkaffe.no",
  ExternalImportReference: null,
};

describe("customer step with memory", () => {
  it("a returning buyer: the customer the lookup found, with no call; filed under a hash, not the e-mail", async () => {
    const mem = memory();
    const first = await findOrCreateCustomer(
      customerBooks([kari]),
      order({}),
      resolveMapping(),
      mem.m,
    );
    expect(first).toMatchObject({ id: 502, created: false, remembered: false });
    const [buyer] = [...mem.customers.keys()];
    expect(buyer).toMatch(/^[0-9a-f]{64}$/);
    const api = customerBooks([]);
    expect(await findOrCreateCustomer(api, order({}), resolveMapping(), mem.m)).toEqual({
      ...first,
      remembered: true,
    });
    expect(api.log).toEqual([]);
  });

  it("another e-mail, or the same keys under another policy, is another buyer: looked up", async () => {
    const mem = memory();
    await findOrCreateCustomer(customerBooks([kari]), order({}), resolveMapping(), mem.m);
    const other = customerBooks([kari]);
    await findOrCreateCustomer(other, order({ email: "ola@example.no" }), resolveMapping(), mem.m);
    const policy = customerBooks([kari]);
    await findOrCreateCustomer(
      policy,
      order({}),
      resolveMapping({ customerMatch: "organizationNumber" }),
      mem.m,
    );
    expect([other.log.length, policy.log.length]).toEqual([2, 1]);
  });

  it("warnings come back as the lookup made them: the other record's number from memory, an invalid number from the order", async () => {
    const mem = memory();
    const typed = { company: "Fjordkaffe AS", organizationNumber: ORG, email: "kari@gmail.com" };
    const first = await findOrCreateCustomer(
      customerBooks([company]),
      order(typed),
      resolveMapping(),
      mem.m,
    );
    const again = await findOrCreateCustomer(
      customerBooks([]),
      order(typed),
      resolveMapping(),
      mem.m,
    );
    expect(again.warning).toBe(first.warning);
    expect(again.warning).toContain(`Organization number ${ORG} belongs to customer 10001`);
    const invalid = { organizationNumber: "NO 123 456 789" };
    await findOrCreateCustomer(customerBooks([kari]), order(invalid), resolveMapping(), mem.m);
    expect(
      (await findOrCreateCustomer(customerBooks([]), order(invalid), resolveMapping(), mem.m))
        .warning,
    ).toContain("failed its MOD11 check");
  });
});

/** The client's products (code → sales account); a create answers 201. */
function productBooks(accounts: Record<string, number>) {
  return fakeApi((method, _p, q) => {
    if (method === "POST") return { status: 201, body: {} };
    const codes = (q.get("codes") ?? "").split(",").map(decodeURIComponent);
    return rows(
      codes
        .filter((c) => c in accounts)
        .map((c) => ({ Code: c, StandardSalesAccount: accounts[c] })),
    );
  });
}
const BOOKS = { KAFFE: 3030, PLEDD: 3030, "VARE-15": 3030, "VARE-25": 3000, AVRUNDING: 3200 };

describe("products step with memory", () => {
  it("every SKU and every product the lines use known: no call, and the same choice (a SKU on another class's account still falls back)", async () => {
    const mem = memory();
    const o = order({}, [item("L1", "KAFFE", "15"), item("L2", "PLEDD", "25")]);
    const first = await chooseProducts(productBooks(BOOKS), o, resolveMapping(), false, mem.m);
    expect(first).toMatchObject({
      products: { L1: "KAFFE", L2: "VARE-25" },
      created: [],
      remembered: false,
    });
    const api = productBooks({});
    expect(await chooseProducts(api, o, resolveMapping(), false, mem.m)).toEqual({
      ...first,
      remembered: true,
    });
    expect(api.log).toEqual([]);
  });

  it("an unknown SKU is never decided from memory (it may exist in the books): one list call, and what it creates is remembered", async () => {
    const mem = memory();
    await chooseProducts(productBooks(BOOKS), order({}), resolveMapping(), false, mem.m);
    const api = productBooks(BOOKS);
    const got = await chooseProducts(
      api,
      order({}, [item("L1", "NYHET", "15")]),
      resolveMapping({ unknownSkus: "fallback" }),
      false,
      mem.m,
    );
    expect(got).toMatchObject({ products: { L1: "VARE-15" }, remembered: false });
    expect(api.log).toHaveLength(1);
    const created = await chooseProducts(
      productBooks(BOOKS),
      order({}, [item("L1", "NYHET", "15")]),
      resolveMapping(),
      true,
      mem.m,
    );
    expect(created.created).toEqual(["NYHET"]);
    expect(mem.products.get("NYHET")).toEqual({ code: "NYHET", salesAccount: 3030 });
  });
});

describe("sales order step: a remembered id the API no longer has", () => {
  const plan: LinePlan = {
    lines: [
      { productCode: "KAFFE", description: "Kaffe", quantity: 1, unitPrice: 8_000, vat: "15" },
    ],
    total: 10_000,
    rounding: 0,
  };
  const header = {
    customerId: 7,
    reference: "lg:std:o:1001",
    currency: "NOK",
    date: "2026-03-01",
    customerReference: "W-1001",
  };
  const refusing = (answer: FakeAnswer) => fakeApi(() => answer);
  const noCustomer = {
    status: 404,
    body: { title: "Object(s) not found", detail: "Customer with id = 7 not found." },
  };
  const noProduct = {
    status: 404,
    body: { title: "Object(s) not found", detail: "Product with code = 'KAFFE' not found." },
  };

  it("reads what a refusal names as missing", () => {
    const reply = (status: number, detail: string) => ({
      operation: "POST /SalesOrders/Complete",
      status,
      body: { detail },
      detail,
    });
    expect(missingReference(reply(404, "Customer with id = 7 not found."))).toEqual({
      customer: true,
      products: false,
    });
    expect(missingReference(reply(400, "Product 'KAFFE' does not exist."))).toEqual({
      customer: false,
      products: true,
    });
    expect(missingReference(reply(400, "ExternalImportReference is already in use."))).toBeNull();
    expect(missingReference(reply(400, "CustomerReference is too long."))).toBeNull();
    expect(missingReference(reply(409, "Customer with id = 7 not found."))).toBeNull();
  });

  it("remembered: forgotten and answered gone (customer by its id, products by the plan's codes)", async () => {
    const mem = memory();
    await mem.m.learn({
      customer: {
        buyer: "b",
        known: { id: 7, number: null, subledgerAccountId: 1, warning: null },
      },
      products: [{ code: "KAFFE", salesAccount: 3030 }],
    });
    const remembered = { customer: true, products: true };
    expect(
      await createSalesOrder(refusing(noCustomer), header, plan, resolveMapping(), {
        remembered,
        memory: mem.m,
      }),
    ).toEqual({ kind: "gone", customer: true, products: false });
    expect(mem.customers.size).toBe(0);
    expect(
      await createSalesOrder(refusing(noProduct), header, plan, resolveMapping(), {
        remembered,
        memory: mem.m,
      }),
    ).toEqual({ kind: "gone", customer: false, products: true });
    expect(mem.products.size).toBe(0);
  });

  it("looked up just now: the refusal fails the step as before, and nothing is forgotten", async () => {
    const mem = memory();
    const remembered = { customer: false, products: false };
    await expect(
      createSalesOrder(refusing(noCustomer), header, plan, resolveMapping(), {
        remembered,
        memory: mem.m,
      }),
    ).rejects.toThrow(RunError);
    expect(mem.learned).toEqual([]);
  });
});

describe("settle step with memory", () => {
  it("looks the settlement ids up once per account number", async () => {
    const mem = memory();
    const api = fakeApi((_m, path) =>
      path === "/VatCodes" ? rows([{ Id: 3, Code: "0" }]) : rows([{ Id: 77 }]),
    );
    expect(await knownSettlementIds(api, mem.m, 1920)).toEqual({
      settlementAccountId: 77,
      noVatId: 3,
    });
    expect(await knownSettlementIds(api, mem.m, 1920)).toEqual({
      settlementAccountId: 77,
      noVatId: 3,
    });
    expect(api.log).toHaveLength(2);
  });
});
