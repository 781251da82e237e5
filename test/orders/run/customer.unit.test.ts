/**
 * Whom an order is invoiced to, against a fake API holding the client's customers: under the
 * default "verified" policy a typed organization number or e-mail selects an existing record only
 * when the buyer's other key agrees with it; "organizationNumber" trusts a valid number alone; a
 * second create of the same new buyer meets the API's duplicate check and reads the first one back.
 */
import { describe, expect, it } from "vitest";
import { resolveMapping, type OrderMappingInput } from "../../../src/ledger/mapping";
import type { Buyer, Order } from "../../../src/orders/order";
import { RunError } from "../../../src/ledger/run-api";
import { findOrCreateCustomer } from "../../../src/orders/run/customer";
import { guestReference } from "../../../src/ledger/refs";
import { DUPLICATE, fakeApi, rows } from "./fake-api";

const ORG = "923609016";
const company = {
  Id: 501,
  Number: 10_001,
  SubledgerAccountId: 9001,
  OrganizationNumber: ORG,
  EmailAddress: "post@fjordkaffe.no",
  InvoiceEmailAddress: "faktura@fjordkaffe.no",
  ExternalImportReference: null,
};
const person = {
  Id: 502,
  Number: 10_002,
  SubledgerAccountId: 9002,
  OrganizationNumber: null,
  EmailAddress: "kari@example.no",
  ExternalImportReference: null,
};

function order(buyer: Partial<Buyer>): Order {
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
    source: "shopify",
    id: "1001",
    number: "#1001",
    placedAt: "2026-03-01T10:00:00Z",
    paidAt: null,
    currency: "NOK",
    taxIncluded: true,
    buyer: b,
    lines: [
      {
        ref: "L1",
        kind: "item",
        sku: null,
        name: "Kaffe",
        quantity: 1,
        amount: 100,
        discount: 0,
        vat: "15",
      },
    ],
    total: 100,
  };
}

/**
 * The client's customers; the list filters of `GET /Customers`; a create answers 201 (or what
 * `post` says).
 */
function books(
  customers: Record<string, unknown>[],
  post: () => { status: number; body?: unknown } = () => ({
    status: 201,
    body: { Id: 900, Number: 10_900, SubledgerAccountId: 9900 },
  }),
) {
  const posted: Record<string, unknown>[] = [];
  const api = fakeApi((method, _path, q, body) => {
    if (method === "POST") {
      posted.push(body as Record<string, unknown>);
      return post();
    }
    const [key, value = ""] = [...q.entries()][0] ?? [];
    const field =
      {
        organizationNumbers: "OrganizationNumber",
        emailAddresses: "EmailAddress",
        externalImportReference: "ExternalImportReference",
      }[key ?? ""] ?? "";
    return rows(
      customers.filter((c) => String(c[field] ?? "").toLowerCase() === value.toLowerCase()),
    );
  });
  return { api, posted };
}

const find = (
  b: ReturnType<typeof books>,
  buyer: Partial<Buyer>,
  mapping: OrderMappingInput = {},
) => findOrCreateCustomer(b.api, order(buyer), resolveMapping(mapping));

describe("customer step: whom a typed organization number or e-mail may select", () => {
  it("a typed organization number of another party's record, with another e-mail: a new customer, without the number", async () => {
    const b = books([company]);
    const got = await find(b, {
      company: "Fjordkaffe AS",
      organizationNumber: ORG,
      email: "kari@gmail.com",
    });
    expect(got).toMatchObject({
      id: 900,
      created: true,
      warning: expect.stringContaining(`Organization number ${ORG} belongs to customer 10001`),
    });
    expect(b.posted).toEqual([
      expect.objectContaining({
        IsPerson: false,
        Name: "Fjordkaffe AS",
        EmailAddress: "kari@gmail.com",
        OrganizationNumber: undefined,
      }),
    ]);
  });

  it("the record's own e-mail (or invoice e-mail) with its organization number: that record", async () => {
    for (const email of ["POST@fjordkaffe.no", "faktura@fjordkaffe.no"]) {
      const b = books([company]);
      expect(
        await find(b, { company: "Fjordkaffe AS", organizationNumber: ORG, email }),
      ).toMatchObject({ id: 501, created: false, warning: null });
      expect(b.posted).toEqual([]);
    }
  });

  it("an e-mail selects a person's record, never a company's, and a number that is nobody's goes on the new customer", async () => {
    expect(await find(books([person]), { email: "kari@example.no" })).toMatchObject({
      id: 502,
      created: false,
    });
    const b = books([{ ...company, EmailAddress: "kari@example.no" }]);
    expect(await find(b, { email: "kari@example.no" })).toMatchObject({ created: true });
    const c = books([person]);
    expect(
      await find(c, {
        email: "kari@example.no",
        company: "Nordlys AS",
        organizationNumber: "974760673",
      }),
    ).toMatchObject({ created: true, warning: null });
    expect(c.posted[0]).toMatchObject({ OrganizationNumber: "974760673" });
  });

  it('"organizationNumber" trusts a valid organization number alone', async () => {
    const b = books([company]);
    expect(
      await find(
        b,
        { organizationNumber: ORG, email: "kari@gmail.com" },
        { customerMatch: "organizationNumber" },
      ),
    ).toMatchObject({ id: 501, created: false });
  });
});

describe("customer step: one customer per new buyer", () => {
  it("a guest's reference comes from what was typed, so every order of the buyer posts the same one", async () => {
    const b = books([]);
    await find(b, { email: "Kari@Example.no " });
    await find(b, { email: "kari@example.no" });
    expect(b.posted.map((p) => p.ExternalImportReference)).toEqual([
      guestReference("shopify", "kari@example.no", null),
      guestReference("shopify", "kari@example.no", null),
    ]);
    expect(guestReference("shopify", "kari@example.no", ORG)).not.toBe(
      guestReference("shopify", "kari@example.no", null),
    );
  });

  it("a create refused as a duplicate reads the first buyer's customer back; not listed yet, the step tries again", async () => {
    const ref = guestReference("shopify", "kari@example.no", null);
    let created: Record<string, unknown>[] = [];
    const b = books([], () => {
      created = [{ ...person, Id: 777, ExternalImportReference: ref }];
      return DUPLICATE;
    });
    const lagging = find(b, { email: "kari@example.no" });
    await expect(lagging).rejects.toThrow(RunError);
    await expect(lagging).rejects.toMatchObject({ retryable: true });
    const listed = books(
      [{ ...person, EmailAddress: "other@example.no", Id: 777, ExternalImportReference: ref }],
      () => DUPLICATE,
    );
    expect(await find(listed, { email: "kari@example.no" })).toMatchObject({
      id: 777,
      created: false,
    });
    expect(created).toHaveLength(1);
  });
});
