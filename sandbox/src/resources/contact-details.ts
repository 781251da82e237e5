/**
 * @module
 * Contact persons, contact bank accounts and contact delivery addresses: records that hang under a
 * customer, supplier or employee (`/X/{contactId}`), listed across all contacts at `/X`. Contact
 * persons exist for customers and suppliers only. These endpoints never write the contact itself:
 * a delivery address is a record of its own, so the contact's MailAddress stays as the contact's
 * own endpoint left it.
 */
import {
  ContactBankAccountPost,
  ContactDeliveryAddressPost,
  ContactPersonPost,
} from "../../../shared/v2/contacts";
import type { Ctx, Handler } from "../engine/call";
import { filter } from "../engine/filters";
import type { Dto } from "../engine/store";
import { detailHandlers, type DetailSpec } from "./contact-scope";
import {
  CONTACT_BANK_ACCOUNT_DTO_FIELDS,
  CONTACT_DELIVERY_ADDRESS_DTO_FIELDS,
  CONTACT_PERSON_DTO_FIELDS,
} from "./fields/contacts";

/** Country codes default to NO and are stored upper-case, as the API answers them. */
const country = (code: unknown) =>
  typeof code === "string" && code !== "" ? code.toUpperCase() : "NO";

/** A contact person's MailAddress (`AddressDto`): every property present, the country defaulted. */
function address(a: unknown): Dto | null {
  if (!a || typeof a !== "object") return null;
  return {
    AddressLine1: null,
    AddressLine2: null,
    ...(a as Dto),
    CountryCode: country((a as Dto).CountryCode),
  };
}

/** A detail is in use while a sales order names it. */
const usedOnSalesOrders = (field: string) => (id: string, ctx: Ctx) =>
  ctx.store.all("SalesOrder").some((o) => String(o.dto[field]) === id)
    ? "It is used on sales orders."
    : null;

const timestamps = (created: string) => [
  filter("createdDateTimeOffsetGreaterThan", created, "after"),
  filter("lastChangedDateTimeOffsetGreaterThan", "LastChangedDateTimeOffset", "after"),
];

const persons: DetailSpec = {
  path: "/ContactPersons",
  privilege: "ContactPerson",
  kinds: ["Customer", "Supplier"],
  wrongKind: "Contact persons are not available for employee contacts.",
  filters: [
    filter("contactIds", "ContactId", "ids"),
    filter("externalCodes", "ExternalCode", "strings"),
    ...timestamps("CreatedDateTimeOffset"),
  ],
  resource: {
    entity: "Contact person",
    kind: "ContactPerson",
    post: ContactPersonPost,
    fields: CONTACT_PERSON_DTO_FIELDS,
    unique: ["ExternalCode"],
    derive: (d) => ({
      IsActive: d.IsActive ?? true,
      IsDefault: d.IsDefault ?? false,
      MailAddress: address(d.MailAddress),
    }),
    inUse: usedOnSalesOrders("CustomerReferenceContactPersonId"),
  },
  exclusive: "IsDefault",
};

const bankAccounts: DetailSpec = {
  path: "/ContactBankAccounts",
  privilege: "ContactBankAccount",
  kinds: ["Customer", "Supplier", "Employee"],
  filters: [
    filter("contactIds", "ContactId", "ids"),
    filter("bankAccountNumbers", "BankAccountNumber", "strings"),
    ...timestamps("CreateDateTimeOffset"),
  ],
  resource: {
    entity: "Contact bank account",
    kind: "ContactBankAccount",
    post: ContactBankAccountPost,
    fields: CONTACT_BANK_ACCOUNT_DTO_FIELDS,
    // The DTO spells its creation stamp CreateDateTimeOffset, which the engine does not stamp
    // itself.
    derive: (d, ctx) => ({
      CountryCode: country(d.CountryCode),
      IsActive: d.IsActive ?? true,
      CreateDateTimeOffset: d.CreateDateTimeOffset ?? ctx.now.toISOString(),
    }),
  },
};

const deliveryAddresses: DetailSpec = {
  path: "/ContactDeliveryAddresses",
  privilege: "ContactDeliveryAddress",
  kinds: ["Customer", "Supplier", "Employee"],
  filters: [
    filter("contactIds", "ContactId", "ids"),
    filter("externalCodes", "ExternalCode", "strings"),
    ...timestamps("CreatedDateTimeOffset"),
  ],
  resource: {
    entity: "Contact delivery address",
    kind: "ContactDeliveryAddress",
    post: ContactDeliveryAddressPost,
    fields: CONTACT_DELIVERY_ADDRESS_DTO_FIELDS,
    unique: ["ExternalCode"],
    derive: (d, ctx) => ({
      CountryCode: country(d.CountryCode),
      // "The first delivery address created for a contact will automatically be set as primary";
      // a contact with addresses keeps one primary, so only naming another one moves it.
      IsPrimary:
        d.IsPrimary === true ||
        !ctx.store
          .all("ContactDeliveryAddress", String(d.ContactId))
          .some((r) => r.id !== String(d.Id) && r.dto.IsPrimary === true),
    }),
    inUse: usedOnSalesOrders("ContactDeliveryAddressId"),
  },
  exclusive: "IsPrimary",
  keepHolder: true,
};

/** The spec's PATCH note: CountryCode "will default to NO if provided as null or empty string". */
function blankCountryIsDefault(handler: Handler): Handler {
  return (ctx) => {
    const body = Array.isArray(ctx.call.body)
      ? (ctx.call.body as Dto[]).map((op) =>
          String(op.path).toLowerCase() === "/countrycode" && op.value === ""
            ? { ...op, value: null }
            : op,
        )
      : ctx.call.body;
    return handler({ ...ctx, call: { ...ctx.call, body } });
  };
}

const addressHandlers = detailHandlers(deliveryAddresses);
const addressPatch = "PATCH /ContactDeliveryAddresses/{contactId}/{id}";

export const contactDetailHandlers: Record<string, Handler> = {
  ...detailHandlers(persons),
  ...detailHandlers(bankAccounts),
  ...addressHandlers,
  [addressPatch]: blankCountryIsDefault(addressHandlers[addressPatch] as Handler),
};
