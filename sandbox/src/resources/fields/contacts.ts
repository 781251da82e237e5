/**
 * @module
 * What the responses of customers, suppliers, contact details, contact groups, client bank accounts
 * and bank approvers carry beyond their POST bodies: the fields the sandbox fills in itself. The
 * bodies are shared with the gateway (`shared/v2/customers.ts`, `shared/v2/contacts.ts`); only the
 * sandbox answers, so these lists live here.
 */

/** Fields of `CustomerDto` that `CustomerPostDto` lacks (all server-assigned). */
export const CUSTOMER_DTO_FIELDS = [
  "Id",
  "SubledgerAccountId",
  "ContactCreatedDateTimeOffset",
  "CustomerCreatedDateTimeOffset",
  "LastChangedDateTimeOffset",
  "CreatedFromImportJournalId",
  "IsActive",
] as const;

/** Fields of `SupplierDto` that `SupplierPostDto` lacks (all server-assigned). */
export const SUPPLIER_DTO_FIELDS = [
  "ContactCreatedDateTimeOffset",
  "CreatedFromImportJournalId",
  "Id",
  "IsActive",
  "LastChangedDateTimeOffset",
  "SubledgerAccountId",
  "SupplierCreatedDateTimeOffset",
] as const;

/**
 * Fields of `ContactPersonDto` that the POST body lacks. Its MailAddress (`AddressDto`) adds none.
 */
export const CONTACT_PERSON_DTO_FIELDS = [
  "ContactId",
  "CreatedDateTimeOffset",
  "Id",
  "LastChangedDateTimeOffset",
] as const;

/**
 * Fields of `ContactBankAccountDto` that the POST body lacks (`CreateDateTimeOffset` is the spec's
 * spelling).
 */
export const CONTACT_BANK_ACCOUNT_DTO_FIELDS = [
  "ContactId",
  "CreateDateTimeOffset",
  "Id",
  "LastChangedDateTimeOffset",
] as const;

/** Fields of `ContactDeliveryAddressDto` that the POST body lacks. */
export const CONTACT_DELIVERY_ADDRESS_DTO_FIELDS = [
  "ContactId",
  "CreatedDateTimeOffset",
  "Id",
  "LastChangedDateTimeOffset",
] as const;

/** Fields of `ContactGroupDto` that the POST body lacks. */
export const CONTACT_GROUP_DTO_FIELDS = [
  "CreatedDateTimeOffset",
  "Id",
  "LastChangedDateTimeOffset",
] as const;

/** Fields of `ClientBankAccountDto` that the POST body lacks. */
export const CLIENT_BANK_ACCOUNT_DTO_FIELDS = [
  "ActiveIncomingPaymentService",
  "ActiveOutgoingPaymentServices",
  "AgricultureDepartment",
  "CreatedDateTimeOffset",
  "GeneralLedgerAccountNo",
  "Id",
  "IsPrimaryAccount",
  "LastChangedDateTimeOffset",
] as const;

/** Fields of `BankApproverDto` that the POST body lacks. */
export const BANK_APPROVER_DTO_FIELDS = ["BankAccountNumber", "Id", "IsActiveApprover"] as const;
