/**
 * @module
 * The Customer resource of API v2: the body of `POST /Customers`. Shared by the gateway (validation
 * before anything is sent) and the sandbox (validation of what it receives), so both refuse the
 * same input in the same words.
 */
import { z } from "zod";
import { ContactAddressPost } from "./addresses";
import { currencyCode, enumCI, int64, isoDate, opt } from "./schema-kit";

/** How an invoice reaches the customer. */
const InvoiceDeliveryType = enumCI([
  "PdfByEmail",
  "Print",
  "EHF",
  "AvtaleGiro",
  "External",
  "Efaktura",
  "Factoring",
]);

/** How reminders and debt-collection notices reach the customer. */
const ReminderDeliveryType = enumCI(["PdfByEmail", "Print"]);

/** Writable customer fields, as `CustomerPostDto` names them. */
const customerFields = {
  Allowance: opt(z.number().min(-1000).max(100)),
  BillableRate: opt(z.number().nonnegative()),
  ContactGroupIds: opt(z.array(int64.positive())),
  CurrencyCode: opt(currencyCode),
  CustomerSince: opt(isoDate),
  DateOfBirth: opt(isoDate),
  DeliveryTerm: opt(z.string()),
  DeliveryTermId: opt(int64),
  DepartmentCode: opt(z.string()),
  DepartmentId: opt(int64),
  DoNotAddLatePaymentFees: opt(z.boolean()),
  DoNotAddLatePaymentInterest: opt(z.boolean()),
  DoNotAutomatePaymentNotifications: opt(z.boolean()),
  EmailAddress: opt(z.string()),
  ExternalImportReference: opt(z.string().max(50)),
  ExternalNumber: opt(int64),
  FirstName: opt(z.string()),
  InvoiceBrandingThemeCode: opt(z.string()),
  InvoiceBrandingThemeId: opt(int64),
  InvoiceDeliveryType: InvoiceDeliveryType.optional(),
  InvoiceEmailAddress: opt(z.string()),
  // The spec gives this length in prose only: "Max length of the string is 2000".
  InvoiceEmailAddressCC: opt(z.string().max(2000)),
  IsArchived: opt(z.boolean()),
  IsPerson: opt(z.boolean()),
  IsVatFree: opt(z.boolean()),
  LastName: opt(z.string()),
  LegalName: opt(z.string()),
  MailAddress: ContactAddressPost.optional(),
  Name: opt(z.string().max(400)),
  NationalIdNumber: opt(z.string()),
  NoticeOfDebtCollectionDeliveryType: ReminderDeliveryType.optional(),
  Number: opt(int64.positive()),
  OrganizationNumber: opt(z.string()),
  PaymentReminderEmailAddress: opt(z.string()),
  PaymentTerm: opt(z.int().nonnegative()),
  PaymentTermId: opt(int64),
  PhoneNumber: opt(z.string()),
  ReminderDeliveryType: ReminderDeliveryType.optional(),
  SalesPersonEmployeeId: opt(int64),
  SalesPersonEmployeeNumber: opt(int64),
  SendPaymentReminders: opt(z.boolean()),
  SubLedgerNumberSeriesId: opt(z.uuid()),
  TransferToDebtCollectionAgency: opt(z.boolean()),
  UseInvoiceFee: opt(z.boolean()),
  WebsiteUrl: opt(z.string()),
};

/**
 * `CustomerPostDto`, strict: an unknown or misspelt property is refused (the API would ignore it,
 * which is how camelCase bodies get lost silently). The person/company rule is checked here too.
 */
export const CustomerPost = z.strictObject(customerFields).superRefine((c, ctx) => {
  if (c.IsPerson === true) {
    for (const field of ["FirstName", "LastName"] as const) {
      if (!c[field]?.trim())
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `${field} is required when IsPerson is true`,
        });
    }
  } else if (!c.Name?.trim()) {
    ctx.addIssue({
      code: "custom",
      path: ["Name"],
      message: "Name is required for a company (IsPerson is false)",
    });
  }
});
export type CustomerPost = z.output<typeof CustomerPost>;
