/**
 * @module
 * Step "customer": find the buyer among the client's customers, or create them. Under
 * `customerMatch: "verified"` a record is the buyer only when every key the buyer typed agrees with
 * it (`agrees`); a typed organization number that is another record's is left off the new customer.
 * Every create carries a reference derived from the buyer, so a repeat reads that customer back.
 * The answer is remembered under a hash of what decided it. See docs/design/order-runs.md.
 */
import type { z } from "zod";
import type { CustomerPost } from "../../../shared/v2/customers";
import { sha256Hex } from "../../kernel/crypto";
import type { OrderMapping } from "../../ledger/mapping";
import type { Buyer, Order } from "../order";
import { isValidOrgNumber, normalizeOrgNumber } from "../orgnr";
import { expectStatus, isDuplicate, RunError, type RunApi } from "../../ledger/run-api";
import { NO_MEMORY, type RunMemory } from "./memory";
import { guestReference, reference } from "../../ledger/refs";
import { CustomerReply, parseBody, parseRows } from "../../ledger/replies";

/** What the run posts to `POST /Customers`. */
type CustomerBody = z.input<typeof CustomerPost>;

/** The customer an order is invoiced to. */
export interface CustomerRef {
  id: number;
  number: number | null;
  subledgerAccountId: number;
  created: boolean;
  /** Why the buyer's organization number was left out (failed MOD11, or another's), if it was. */
  warning: string | null;
  /** From an earlier run's answer, no call made; the sales order tells whether it still exists. */
  remembered: boolean;
}

/** What the buyer gave, checked: e-mail, a valid organization number, the customer's reference. */
export interface BuyerKeys {
  email: string | null;
  orgNumber: string | null;
  externalRef: string;
}

function refOf(c: CustomerReply, created: boolean, warning: string | null = null): CustomerRef {
  return {
    id: c.Id,
    number: c.Number ?? null,
    subledgerAccountId: c.SubledgerAccountId,
    created,
    warning,
    remembered: false,
  };
}

async function list(api: RunApi, query: string): Promise<CustomerReply[]> {
  return parseRows(
    expectStatus(await api.call("GET", `/Customers?${query}`), "Finding the customer", 200, 204),
    CustomerReply,
  );
}

/** The first record that is not archived, else the first. */
const pick = (rows: CustomerReply[]): CustomerReply | null =>
  rows.find((c) => !c.IsArchived) ?? rows[0] ?? null;

const sameText = (a: string | null | undefined, b: string | null): boolean =>
  a != null && b != null && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Whether the record `c` is the buyer under "verified": created for this buyer, or carrying the
 * buyer's e-mail and exactly the buyer's organization number (none for none).
 *
 * @example agrees({ Id: 1, SubledgerAccountId: 2, OrganizationNumber: "923609016", EmailAddress:
 * "post@firma.no" }, { email: "kari@gmail.com", orgNumber: "923609016", externalRef: "lg:shp:g:#…"
 * }) // false
 */
export function agrees(c: CustomerReply, keys: BuyerKeys): boolean {
  if (c.ExternalImportReference === keys.externalRef) return true;
  const email = sameText(c.EmailAddress, keys.email) || sameText(c.InvoiceEmailAddress, keys.email);
  const org = c.OrganizationNumber ? normalizeOrgNumber(c.OrganizationNumber) : null;
  return email && org === keys.orgNumber;
}

/** The CustomerPostDto of a buyer: a company when it has a company name, else a person. */
function customerBody(b: Buyer, orgNumber: string | null, externalRef: string): CustomerBody {
  const address = b.address && {
    AddressLine1: b.address.line1,
    AddressLine2: b.address.line2,
    ZipCode: b.address.zip,
    City: b.address.city,
    CountryCode: b.address.countryCode ?? "NO",
  };
  const person = [b.firstName, b.lastName].filter(Boolean).join(" ");
  const common = {
    EmailAddress: b.email,
    InvoiceEmailAddress: b.email,
    PhoneNumber: b.phone,
    MailAddress: address ?? undefined,
    ExternalImportReference: externalRef,
  };
  if (b.company || orgNumber)
    return {
      ...common,
      IsPerson: false,
      Name: b.company ?? person,
      OrganizationNumber: orgNumber ?? undefined,
    };
  return {
    ...common,
    IsPerson: true,
    FirstName: b.firstName || person || b.email || "Ukjent",
    LastName: b.lastName || "Kunde",
  };
}

/**
 * Finds or creates the customer of `order`: from `memory` with no call when a lookup already
 * answered for the same policy and keys; a lookup's or a create's answer is remembered.
 */
export async function findOrCreateCustomer(
  api: RunApi,
  order: Order,
  mapping: OrderMapping,
  memory: RunMemory = NO_MEMORY,
): Promise<CustomerRef> {
  const webshop = mapping.customers === "webshop" ? reference(order.source, "c", "webshop") : null;
  const { keys, invalid } = webshop ? { keys: null, invalid: null } : buyerKeys(order);
  // Hashed: no e-mail or organization number becomes a key in the tenant's storage.
  const buyer = await sha256Hex(
    JSON.stringify(
      keys
        ? [mapping.customerMatch, keys.externalRef, keys.orgNumber, keys.email]
        : ["webshop", webshop],
    ),
  );
  const known = await memory.customer(buyer);
  if (known)
    return {
      id: known.id,
      number: known.number,
      subledgerAccountId: known.subledgerAccountId,
      created: false,
      warning: known.warning ?? invalid,
      remembered: true,
    };
  const found = keys
    ? await lookUp(api, order.buyer, keys, mapping, invalid)
    : await webshopCustomer(api, mapping, webshop ?? "");
  const { id, number, subledgerAccountId } = found.ref;
  await memory.learn({
    customer: { buyer, known: { id, number, subledgerAccountId, warning: found.ownerWarning } },
  });
  return found.ref;
}

/** What the buyer gave, checked, and the warning for an organization number failing MOD11. */
function buyerKeys(order: Order): { keys: BuyerKeys; invalid: string | null } {
  const b = order.buyer;
  const digits = b.organizationNumber ? normalizeOrgNumber(b.organizationNumber) : null;
  const orgNumber = digits && isValidOrgNumber(digits) ? digits : null;
  const invalid =
    b.organizationNumber && !orgNumber
      ? `Organization number '${b.organizationNumber}' failed its MOD11 check; the customer was created without it.`
      : null;
  const email = b.email?.trim() || null;
  const externalRef = b.externalId
    ? reference(order.source, "c", b.externalId)
    : email || orgNumber
      ? guestReference(order.source, email, orgNumber)
      : reference(order.source, "e", order.id);
  return { keys: { email, orgNumber, externalRef }, invalid };
}

/** The customer found or created, and the lookup's warning (the number is another record's). */
interface Found {
  ref: CustomerRef;
  ownerWarning: string | null;
}

/** One web-shop customer for every order (mapping `customers: "webshop"`). */
async function webshopCustomer(api: RunApi, mapping: OrderMapping, ref: string): Promise<Found> {
  const existing = pick(await list(api, `externalImportReference=${encodeURIComponent(ref)}`));
  const customer = existing
    ? refOf(existing, false)
    : await create(
        api,
        { IsPerson: false, Name: mapping.webshopCustomerName, ExternalImportReference: ref },
        ref,
        null,
      );
  return { ref: customer, ownerWarning: null };
}

/** One lookup by the strongest key, then the policy; a new customer when no record is the buyer. */
async function lookUp(
  api: RunApi,
  b: Buyer,
  keys: BuyerKeys,
  mapping: OrderMapping,
  invalid: string | null,
): Promise<Found> {
  const { email, orgNumber, externalRef } = keys;
  const rows = await list(
    api,
    orgNumber
      ? `organizationNumbers=${orgNumber}`
      : email
        ? `emailAddresses=${encodeURIComponent(email)}`
        : `externalImportReference=${encodeURIComponent(externalRef)}`,
  );
  const existing = pick(
    mapping.customerMatch === "organizationNumber" ? rows : rows.filter((c) => agrees(c, keys)),
  );
  if (existing) return { ref: refOf(existing, false, invalid), ownerWarning: null };
  // Only under "verified": the typed number is another record's, so the new customer goes without.
  const owner = orgNumber !== null ? rows[0] : undefined;
  const ownerWarning = owner
    ? `Organization number ${String(orgNumber)} belongs to customer ${String(owner.Number ?? owner.Id)}, whose e-mail is not the buyer's: a new customer was created without the number, so nothing is sent to that company (order mapping customerMatch "verified").`
    : null;
  return {
    ref: await create(
      api,
      customerBody(b, owner ? null : orgNumber, externalRef),
      externalRef,
      ownerWarning ?? invalid,
    ),
    ownerWarning,
  };
}

async function create(
  api: RunApi,
  body: CustomerBody,
  externalRef: string,
  warning: string | null,
): Promise<CustomerRef> {
  const reply = await api.call<CustomerBody>("POST", "/Customers", body);
  if (isDuplicate(reply, "ExternalImportReference")) {
    const existing = pick(
      await list(api, `externalImportReference=${encodeURIComponent(externalRef)}`),
    );
    if (existing) return refOf(existing, false, warning);
    // Taken but not listed yet (lists may lag a create by a second or so): the step runs again.
    throw new RunError(`Customer reference ${externalRef} is in use but not listed yet.`, true);
  }
  return refOf(
    parseBody(expectStatus(reply, "Creating the customer", 200, 201), CustomerReply),
    true,
    warning,
  );
}
