/**
 * @module
 * Customers and suppliers: contacts with a sub-ledger account, a number in their ledger's series,
 * a mail address whose country defaults to NO, and the person/company naming rule.
 */
import { BankApproverPost, ClientBankAccountPost } from "../../../shared/v2/clients";
import { ContactGroupPost, SupplierPost } from "../../../shared/v2/contacts";
import { CustomerPost } from "../../../shared/v2/customers";
import type { Ctx, Handler } from "../engine/call";
import { filter, type Filter } from "../engine/filters";
import { resourceHandlers, type ResourceSpec } from "../engine/resource";
import { shape, type Dto } from "../engine/store";
import {
  BANK_APPROVER_DTO_FIELDS,
  CLIENT_BANK_ACCOUNT_DTO_FIELDS,
  CONTACT_GROUP_DTO_FIELDS,
  CUSTOMER_DTO_FIELDS,
  SUPPLIER_DTO_FIELDS,
} from "./fields/contacts";

import { SERIES } from "./seed";

const ADDRESS_FIELDS = [
  "AddressLine1",
  "AddressLine2",
  "City",
  "ZipCode",
  "CountryCode",
  "ExternalCode",
] as const;

/**
 * A contact's mail address as a `ContactAddressDto`: the country defaults to NO, the address keeps
 * its Id across changes, and its timestamp moves only when it changes.
 */
export function contactAddress(given: Dto | null, prior: Dto | undefined, ctx: Ctx): Dto {
  const fields = shape(ADDRESS_FIELDS, given ?? {});
  fields.CountryCode =
    typeof fields.CountryCode === "string" ? fields.CountryCode.toUpperCase() : "NO";
  const same = prior !== undefined && ADDRESS_FIELDS.every((f) => prior[f] === fields[f]);
  return {
    ...fields,
    Id: prior?.Id ?? ctx.store.nextId(),
    LastChangedDateTimeOffset: same ? prior.LastChangedDateTimeOffset : ctx.now.toISOString(),
  };
}

/**
 * Whether a change from `prior` to `next` touched the mail address only: the API's
 * `LastChangedDateTimeOffset` "do not reflect changes in sub-entities (address, contact person
 * etc)", so such a change leaves it where it was (the address has its own). `keys` are the fields
 * a write sets (the POST schema's).
 */
function addressOnly(prior: Dto | undefined, next: Dto, keys: readonly string[]): boolean {
  if (!prior) return false;
  const same = (k: string) => JSON.stringify(prior[k] ?? null) === JSON.stringify(next[k] ?? null);
  return keys.every((k) => k === "MailAddress" || same(k));
}

/**
 * What customers and suppliers share: the contact's name, address, groups and sub-ledger account.
 * `keys` are the fields of the contact's POST schema.
 */
function contactDerive(kind: string, created: string, keys: readonly string[]) {
  return (d: Dto, ctx: Ctx): Dto => {
    const at = ctx.now.toISOString();
    const prior = ctx.store.get(kind, String(d.Id))?.dto;
    const isPerson = d.IsPerson === true;
    return {
      LastChangedDateTimeOffset: addressOnly(prior, d, keys)
        ? prior?.LastChangedDateTimeOffset
        : d.LastChangedDateTimeOffset,
      IsPerson: isPerson,
      Name: isPerson ? `${String(d.FirstName ?? "")} ${String(d.LastName ?? "")}`.trim() : d.Name,
      CurrencyCode: String(d.CurrencyCode ?? "NOK").toUpperCase(),
      ContactGroupIds: d.ContactGroupIds ?? [],
      IsArchived: d.IsArchived ?? false,
      IsActive: true,
      // A customer's ledger account is its own; the sandbox gives it an id of its own once.
      SubledgerAccountId: d.SubledgerAccountId ?? ctx.store.nextId(),
      ContactCreatedDateTimeOffset: d.ContactCreatedDateTimeOffset ?? at,
      [created]: d[created] ?? at,
      MailAddress: contactAddress(
        d.MailAddress as Dto | null,
        prior?.MailAddress as Dto | undefined,
        ctx,
      ),
    };
  };
}

/** Contact groups named on a contact must exist. */
function groupsExist(d: Dto, ctx: Ctx) {
  const missing = ((d.ContactGroupIds as number[] | null) ?? []).find(
    (id) => !ctx.store.get("ContactGroup", id),
  );
  return missing === undefined
    ? null
    : {
        status: 404,
        title: "Object(s) not found",
        detail: `Could not find contact group(s) with id = ${missing}.`,
      };
}

/** A contact is in use once its sub-ledger has entries or a sales order names it. */
function contactInUse(kind: string) {
  return (id: string, ctx: Ctx): string | null => {
    if (ctx.store.all("Posting").some((p) => String(p.dto.ContactId) === id))
      return "It has ledger entries.";
    if (
      kind === "Customer" &&
      ctx.store.all("SalesOrder").some((o) => String(o.dto.CustomerId) === id)
    )
      return "It is used on sales orders.";
    return null;
  };
}

/**
 * The list filters of every kind of contact (customers, suppliers, employees); `kind` names its
 * number and creation-time filters.
 */
export const contactFilters = (kind: "customer" | "supplier" | "employee"): Filter[] => [
  filter(`${kind}Nos`, "Number", "ranges"),
  filter("externalNos", "ExternalNumber", "ranges"),
  filter("externalImportReference", "ExternalImportReference", "eq"),
  filter("contactGroupIds", "ContactGroupIds", "contains", {
    kind: "ContactGroup",
    entity: "ContactGroup",
  }),
  filter(
    `${kind}CreatedDateTimeOffsetGreaterThan`,
    `${kind[0]?.toUpperCase() ?? ""}${kind.slice(1)}CreatedDateTimeOffset`,
    "after",
  ),
  filter("lastChangedDateTimeOffsetGreaterThan", "LastChangedDateTimeOffset", "after"),
];

/** Customers and suppliers also filter on these. */
const companyContactFilters = (kind: "customer" | "supplier"): Filter[] => [
  ...contactFilters(kind),
  // Newer API versions filter on these; the published document predates them.
  filter("organizationNumber", "OrganizationNumber", "strings"),
  filter("organizationNumbers", "OrganizationNumber", "strings"),
  filter("emailAddress", "EmailAddress", "strings"),
  filter("emailAddresses", "EmailAddress", "strings"),
  filter("phoneNumber", "PhoneNumber", "strings"),
  filter("phoneNumbers", "PhoneNumber", "strings"),
  filter("subledgerAccountIds", "SubledgerAccountId", "ids"),
];

const customers: ResourceSpec = {
  path: "/Customers",
  entity: "Customer",
  post: CustomerPost,
  fields: CUSTOMER_DTO_FIELDS,
  // CustomerPostDto takes the series to number the customer from; CustomerDto does not show it.
  omit: ["SubLedgerNumberSeriesId"],
  filters: companyContactFilters("customer"),
  unique: ["Number", "ExternalImportReference", "ExternalNumber"],
  label: "contact",
  numbered: { field: "Number", first: SERIES.Customer.from, last: SERIES.Customer.to },
  refs: [
    { id: "DepartmentId", code: "DepartmentCode", kind: "Department", entity: "Department" },
    { id: "PaymentTermId", kind: "PaymentTerm", entity: "PaymentTerm" },
    {
      id: "DeliveryTermId",
      code: "DeliveryTerm",
      kind: "DeliveryTerm",
      entity: "DeliveryTerm",
      by: "Name",
    },
    {
      id: "InvoiceBrandingThemeId",
      code: "InvoiceBrandingThemeCode",
      kind: "BrandingTheme",
      entity: "BrandingTheme",
    },
    {
      id: "SalesPersonEmployeeId",
      code: "SalesPersonEmployeeNumber",
      kind: "Employee",
      entity: "Employee",
      by: "Number",
    },
  ],
  derive: (d, ctx) => ({
    ...contactDerive(
      "Customer",
      "CustomerCreatedDateTimeOffset",
      Object.keys(CustomerPost.shape),
    )(d, ctx),
    InvoiceDeliveryType: d.InvoiceDeliveryType ?? "Print",
    ReminderDeliveryType: d.ReminderDeliveryType ?? "Print",
    NoticeOfDebtCollectionDeliveryType: d.NoticeOfDebtCollectionDeliveryType ?? "Print",
    SendPaymentReminders: d.SendPaymentReminders ?? true,
    TransferToDebtCollectionAgency: d.TransferToDebtCollectionAgency ?? true,
    UseInvoiceFee: d.UseInvoiceFee ?? true,
    PaymentTerm: d.PaymentTerm ?? 14,
  }),
  check: groupsExist,
  inUse: contactInUse("Customer"),
};

const suppliers: ResourceSpec = {
  path: "/Suppliers",
  entity: "Supplier",
  post: SupplierPost,
  fields: SUPPLIER_DTO_FIELDS,
  // As for customers: the body names the series to number from, the DTO does not show it.
  omit: ["SubLedgerNumberSeriesId"],
  filters: companyContactFilters("supplier"),
  unique: ["Number", "ExternalImportReference", "ExternalNumber"],
  label: "contact",
  numbered: { field: "Number", first: SERIES.Supplier.from, last: SERIES.Supplier.to },
  derive: (d, ctx) => ({
    ...contactDerive(
      "Supplier",
      "SupplierCreatedDateTimeOffset",
      Object.keys(SupplierPost.shape),
    )(d, ctx),
    Payout: d.Payout ?? true,
  }),
  check: groupsExist,
  inUse: contactInUse("Supplier"),
};

const contactGroups: ResourceSpec = {
  path: "/ContactGroups",
  entity: "ContactGroup",
  post: ContactGroupPost,
  fields: CONTACT_GROUP_DTO_FIELDS,
  inUse: (id, ctx) =>
    ["Customer", "Supplier", "Employee"].some((k) =>
      ctx.store
        .all(k)
        .some((r) => ((r.dto.ContactGroupIds as number[] | null) ?? []).includes(Number(id))),
    )
      ? "Contacts belong to it."
      : null,
};

const clientBankAccounts: ResourceSpec = {
  path: "/ClientBankAccounts",
  entity: "ClientBankAccount",
  post: ClientBankAccountPost,
  fields: CLIENT_BANK_ACCOUNT_DTO_FIELDS,
  unique: ["BankAccountNumber"],
  refs: [
    {
      id: "GeneralLedgerAccountId",
      code: "GeneralLedgerAccountNo",
      kind: "GeneralLedgerAccount",
      entity: "GeneralLedgerAccount",
      by: "AccountNo",
    },
  ],
  derive: (d) => ({
    IsPrimaryAccount: d.IsPrimaryAccount ?? false,
    AgricultureDepartment: d.AgricultureDepartment ?? "None",
  }),
};

const bankApprovers: ResourceSpec = {
  path: "/ClientBankAccounts/BankApprovers",
  entity: "BankApprover",
  post: BankApproverPost,
  fields: BANK_APPROVER_DTO_FIELDS,
  refs: [
    {
      id: "BankAccountId",
      code: "BankAccountNumber",
      kind: "ClientBankAccount",
      entity: "ClientBankAccount",
      by: "BankAccountNumber",
    },
  ],
  derive: (d, ctx) => ({
    IsActiveApprover: !d.ToDate || String(d.ToDate) >= ctx.now.toISOString().slice(0, 10),
  }),
};

export const contactCoreHandlers: Record<string, Handler> = {
  ...resourceHandlers(customers),
  ...resourceHandlers(suppliers),
  ...resourceHandlers(contactGroups),
  ...resourceHandlers(clientBankAccounts, ["list", "create", "get", "patch"]),
  ...resourceHandlers(bankApprovers, ["list", "create", "get", "patch"]),
};
