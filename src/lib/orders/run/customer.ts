/**
 * @module
 * Step "customer": find the buyer among the client's customers, or create them. One lookup by the
 * strongest key the order has (a valid organization number, else the e-mail, else the shop's
 * customer id as ExternalImportReference); a create carries an ExternalImportReference, so a
 * repeated step that finds its create already done reads the customer back instead of duplicating it.
 */
import type { z } from "zod";
import type { CustomerPost } from "../../../../shared/v2/customers";
import type { OrderMapping } from "../mapping";
import type { Buyer, Order } from "../order";
import { isValidOrgNumber, normalizeOrgNumber } from "../orgnr";
import { expectStatus, isDuplicate, type RunApi } from "./api";
import { reference } from "./refs";
import { CustomerReply, parseBody, parseRows } from "./replies";

/** What the run posts to `POST /Customers`. */
type CustomerBody = z.input<typeof CustomerPost>;

/** The customer an order is invoiced to. */
export interface CustomerRef {
  id: number;
  number: number | null;
  subledgerAccountId: number;
  created: boolean;
  /** Set when the buyer gave an organization number that failed its MOD11 check (it was left out). */
  warning: string | null;
}

function refOf(c: CustomerReply, created: boolean, warning: string | null = null): CustomerRef {
  return { id: c.Id, number: c.Number ?? null, subledgerAccountId: c.SubledgerAccountId, created, warning };
}

async function findBy(api: RunApi, query: string): Promise<CustomerReply | null> {
  const found = parseRows(expectStatus(await api.call("GET", `/Customers?${query}`), "Finding the customer", 200, 204), CustomerReply);
  return found.find((c) => !c.IsArchived) ?? found[0] ?? null;
}

/** The CustomerPostDto of a buyer: a company when it has a company name, else a person. */
function customerBody(b: Buyer, orgNumber: string | null, externalRef: string): CustomerBody {
  const address = b.address && {
    AddressLine1: b.address.line1, AddressLine2: b.address.line2, ZipCode: b.address.zip, City: b.address.city, CountryCode: b.address.countryCode ?? "NO",
  };
  const person = [b.firstName, b.lastName].filter(Boolean).join(" ");
  const common = { EmailAddress: b.email, InvoiceEmailAddress: b.email, PhoneNumber: b.phone, MailAddress: address ?? undefined, ExternalImportReference: externalRef };
  if (b.company || orgNumber) return { ...common, IsPerson: false, Name: b.company ?? person, OrganizationNumber: orgNumber ?? undefined };
  return { ...common, IsPerson: true, FirstName: b.firstName || person || b.email || "Ukjent", LastName: b.lastName || "Kunde" };
}

/** Finds or creates the customer of `order`. */
export async function findOrCreateCustomer(api: RunApi, order: Order, mapping: OrderMapping): Promise<CustomerRef> {
  if (mapping.customers === "webshop") {
    const ref = reference(order.source, "c", "webshop");
    const existing = await findBy(api, `externalImportReference=${encodeURIComponent(ref)}`);
    if (existing) return refOf(existing, false);
    return create(api, { IsPerson: false, Name: mapping.webshopCustomerName, ExternalImportReference: ref }, ref, null);
  }
  const b = order.buyer;
  const digits = b.organizationNumber ? normalizeOrgNumber(b.organizationNumber) : null;
  const orgNumber = digits && isValidOrgNumber(digits) ? digits : null;
  const warning = b.organizationNumber && !orgNumber ? `Organization number '${b.organizationNumber}' failed its MOD11 check; the customer was created without it.` : null;
  const externalRef = reference(order.source, b.externalId ? "c" : "e", b.externalId ?? order.id);
  const query = orgNumber
    ? `organizationNumbers=${orgNumber}`
    : b.email
      ? `emailAddresses=${encodeURIComponent(b.email)}`
      : `externalImportReference=${encodeURIComponent(externalRef)}`;
  const existing = await findBy(api, query);
  if (existing) return refOf(existing, false, warning);
  return create(api, customerBody(b, orgNumber, externalRef), externalRef, warning);
}

async function create(api: RunApi, body: CustomerBody, externalRef: string, warning: string | null): Promise<CustomerRef> {
  const reply = await api.call<CustomerBody>("POST", "/Customers", body);
  if (isDuplicate(reply, "ExternalImportReference")) {
    // An earlier attempt of this step created it and did not live to say so.
    const existing = await findBy(api, `externalImportReference=${encodeURIComponent(externalRef)}`);
    if (existing) return refOf(existing, false, warning);
  }
  return refOf(parseBody(expectStatus(reply, "Creating the customer", 200, 201), CustomerReply), true, warning);
}
