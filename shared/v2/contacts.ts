/**
 * @module
 * Suppliers and the contact sub-resources of API v2 (contact persons, bank accounts, delivery
 * addresses, groups): the POST bodies. Shared by the gateway (validation before anything is sent)
 * and the sandbox (validation of what it receives), so both refuse the same input in the same
 * words. Rules that need stored state (uniqueness, "must exist", server defaults) are the sandbox's
 * job, not these schemas'; so are the response shapes (`sandbox/src/resources/fields/contacts.ts`).
 */
import { z } from "zod";
import { AddressPost, ContactAddressPost } from "./addresses";
import { countryCode, currencyCode, int64, isoDate, opt, requiredText } from "./schema-kit";

// ---------------------------------------------------------------------------------------------
// Suppliers
// ---------------------------------------------------------------------------------------------

/** Writable supplier fields, as `SupplierPostDto` names them. */
const supplierFields = {
  ContactGroupIds: opt(z.array(int64.positive())),
  CurrencyCode: opt(currencyCode),
  DateOfBirth: opt(isoDate),
  EmailAddress: opt(z.string()),
  ExternalImportReference: opt(z.string().max(50)),
  ExternalNumber: opt(int64),
  FirstName: opt(z.string()),
  IsArchived: opt(z.boolean()),
  IsPerson: opt(z.boolean()),
  LastName: opt(z.string()),
  LegalName: opt(z.string()),
  MailAddress: ContactAddressPost.optional(),
  Name: opt(z.string()),
  Number: opt(int64.positive()),
  OrganizationNumber: opt(z.string()),
  Payout: opt(z.boolean()),
  PhoneNumber: opt(z.string()),
  SubLedgerNumberSeriesId: opt(z.uuid()),
  WebsiteUrl: opt(z.string()),
};

/**
 * `SupplierPostDto`, strict. Same person/company rule as a customer: a person needs FirstName and
 * LastName, a company (IsPerson false or absent, the API's default) needs Name.
 */
export const SupplierPost = z.strictObject(supplierFields).superRefine((s, ctx) => {
  if (s.IsPerson === true) {
    for (const field of ["FirstName", "LastName"] as const) {
      if (!s[field]?.trim())
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `${field} is required when IsPerson is true`,
        });
    }
  } else if (!s.Name?.trim()) {
    ctx.addIssue({
      code: "custom",
      path: ["Name"],
      message: "Name is required for a company (IsPerson is false)",
    });
  }
});
export type SupplierPost = z.output<typeof SupplierPost>;

// ---------------------------------------------------------------------------------------------
// Contact persons (customers and suppliers only, not employees)
// ---------------------------------------------------------------------------------------------

const contactPersonFields = {
  EmailAddress: opt(z.string()),
  ExternalCode: opt(z.string().max(50)),
  FirstName: requiredText(),
  IsActive: opt(z.boolean()),
  IsDefault: opt(z.boolean()),
  LastName: requiredText(),
  MailAddress: AddressPost.optional(),
  PhoneNumber: opt(z.string()),
  Title: opt(z.string()),
};

/** `ContactPersonPostDto` (`POST /ContactPersons/{contactId}`), strict. */
export const ContactPersonPost = z.strictObject(contactPersonFields);
export type ContactPersonPost = z.output<typeof ContactPersonPost>;

// ---------------------------------------------------------------------------------------------
// Contact bank accounts
// ---------------------------------------------------------------------------------------------

const contactBankAccountFields = {
  BankAccountNumber: requiredText(),
  BankCode: opt(z.string()),
  BicSwift: opt(z.string()),
  CountryCode: opt(countryCode),
  IsActive: opt(z.boolean()),
};

/** `ContactBankAccountPostDto` (`POST /ContactBankAccounts/{contactId}`), strict. */
export const ContactBankAccountPost = z.strictObject(contactBankAccountFields);
export type ContactBankAccountPost = z.output<typeof ContactBankAccountPost>;

// ---------------------------------------------------------------------------------------------
// Contact delivery addresses
// ---------------------------------------------------------------------------------------------

const contactDeliveryAddressFields = {
  AddressLine1: opt(z.string().max(200)),
  AddressLine2: opt(z.string().max(200)),
  City: requiredText(100),
  CountryCode: opt(countryCode),
  ExternalCode: opt(z.string().max(50)),
  IsPrimary: opt(z.boolean()),
  ZipCode: requiredText(50),
};

/** `ContactDeliveryAddressPostDto` (`POST /ContactDeliveryAddresses/{contactId}`), strict. */
export const ContactDeliveryAddressPost = z.strictObject(contactDeliveryAddressFields);
export type ContactDeliveryAddressPost = z.output<typeof ContactDeliveryAddressPost>;

// ---------------------------------------------------------------------------------------------
// Contact groups
// ---------------------------------------------------------------------------------------------

const contactGroupFields = {
  Name: requiredText(400),
};

/** `ContactGroupPostDto` (`POST /ContactGroups`), strict. */
export const ContactGroupPost = z.strictObject(contactGroupFields);
export type ContactGroupPost = z.output<typeof ContactGroupPost>;
