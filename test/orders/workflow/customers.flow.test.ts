/**
 * Whom an order is invoiced to, through the gateway and the sandbox: a buyer who types another
 * company's organization number does not get that company's record (nor its EHF delivery), and
 * concurrent orders of one new guest make one customer.
 */
import { describe, expect, it } from "vitest";
import { corpus, standardVariant } from "../../fixtures/orders/standard";
import { shopTenant, waitFor, type ShopTenant } from "../../helpers/orders";

type Json = Record<string, unknown>;
/** A NOK order of a person, tax included: its buyer is replaced in each test. */
const base = corpus().find(
  (c) => c.currency === "NOK" && c.orgNumber === null && c.payload["data"] !== undefined,
);
if (!base) throw new Error("the Standard Webhooks corpus has no NOK order of a person");
const ORG = "923609016";

/** Creates a customer in the tenant's books, as the client's own bookkeeper would. */
async function existingCustomer(t: ShopTenant, body: Json): Promise<number> {
  const res = await t.v2("/Customers", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { Id: number }).Id;
}

describe("order customers", () => {
  it("a buyer who types a company's organization number, with another e-mail, gets a new customer: not that company's record, not its EHF", async () => {
    const t = await shopTenant();
    const fjordkaffe = await existingCustomer(t, {
      IsPerson: false,
      Name: "Fjordkaffe AS",
      OrganizationNumber: ORG,
      EmailAddress: "post@fjordkaffe.no",
      InvoiceDeliveryType: "EHF",
    });
    const order = standardVariant(base.payload, "typed-org-1", {
      id: null,
      company: "Fjordkaffe AS",
      organizationNumber: ORG,
      email: "kari.hansen@gmail.com",
    });
    expect((await t.send("standard", order)).status).toBe(202);
    const run = await waitFor(t, "standard", "typed-org-1", ["settled", "failed"]);
    expect(run.state, JSON.stringify(run.error)).toBe("settled");
    expect(run.customer).toMatchObject({ created: true });
    expect(run.customer?.id).not.toBe(fjordkaffe);
    expect(run.steps.find((s) => s.name === "customer")?.result.warning).toContain(
      `Organization number ${ORG} belongs to customer`,
    );
    const [invoice] = await t.rows("/OutgoingInvoices");
    expect(invoice).toMatchObject({
      CustomerId: run.customer?.id,
      InvoiceDeliveryType: "PdfByEmail",
    });
    const created = (await t.rows("/Customers")).find((c) => c.Id === run.customer?.id);
    expect(created).toMatchObject({
      EmailAddress: "kari.hansen@gmail.com",
      OrganizationNumber: null,
    });

    // The company's own e-mail with its number: that is the company, and its record is used.
    const own = standardVariant(base.payload, "typed-org-2", {
      id: null,
      company: "Fjordkaffe AS",
      organizationNumber: ORG,
      email: "post@fjordkaffe.no",
    });
    expect((await t.send("standard", own)).status).toBe(202);
    const second = await waitFor(t, "standard", "typed-org-2", ["settled", "failed"]);
    expect(second.customer).toMatchObject({ id: fjordkaffe, created: false });
  });

  it("eight orders of one new guest at once make one customer", async () => {
    const t = await shopTenant();
    const ids = Array.from({ length: 8 }, (_, i) => `guest-${i + 1}`);
    const answers = await Promise.all(
      ids.map((id) =>
        t.send(
          "standard",
          standardVariant(base.payload, id, {
            id: null,
            email: "ola.nordmann@example.no",
            company: null,
            organizationNumber: null,
          }),
        ),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(ids.map(() => 202));
    const runs = [];
    for (const id of ids) runs.push(await waitFor(t, "standard", id, ["settled", "failed"]));
    expect(runs.map((r) => r.state)).toEqual(ids.map(() => "settled"));
    const customers = await t.rows("/Customers");
    expect(customers).toHaveLength(1);
    expect(new Set(runs.map((r) => r.customer?.id))).toEqual(new Set([customers[0]?.Id]));
    expect(runs.filter((r) => r.customer?.created)).toHaveLength(1);
  });
});
