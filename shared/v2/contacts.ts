/**
 * @module
 * Suppliers and the contact sub-resources (contact persons, bank accounts, delivery addresses,
 * groups), the client's own bank accounts and approvers, client administration and onboarding of
 * API v2: the POST bodies, the fields a JSON Patch may touch, and the response-only field names.
 * Shared by the gateway (validation before anything is sent) and the sandbox (validation of what it
 * receives), so both refuse the same input in the same words. Rules that need stored state
 * (uniqueness, "must exist", server defaults) are the sandbox's job, not these schemas'.
 */
import { z } from "zod";
import { ContactAddressPost } from "./customers";
import { enumCI, int64, isoDate, opt } from "./schema-kit";

// Shared field shapes. CountryCode and CurrencyCode are checked for form only: which codes a client
// has enabled is stored state.
const countryCode = z.string().regex(/^[A-Za-z]{2}$/, "must be an ISO 3166-1 alpha-2 code");
const currencyCode = z.string().regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 code");

/**
 * A string the spec lists as required: present, not null and not blank. ASP.NET's `[Required]`
 * refuses "" and whitespace too, so letting them through here would only move the 400 upstream.
 */
function requiredText(max?: number) {
  const s = z.string().regex(/\S/, "must not be empty");
  return max === undefined ? s : s.max(max);
}

/**
 * Adds an issue when both dates are set and `to` is before `from`. Both ends are inclusive in the
 * spec, so equal dates are a valid one-day period.
 */
function checkPeriod(v: { FromDate?: string | null; ToDate?: string | null }, ctx: z.RefinementCtx) {
  if (v.FromDate && v.ToDate && v.ToDate < v.FromDate) {
    ctx.addIssue({ code: "custom", path: ["ToDate"], message: `ToDate (${v.ToDate}) must not be before FromDate (${v.FromDate})` });
  }
}

/**
 * An access role id. Not `z.uuid()`: the built-in Administrator role is
 * `aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa` (per `UserDto.AccessRoleId`), a .NET Guid with no RFC 4122
 * version, which `z.uuid()` would refuse.
 */
const accessRoleId = z.guid();

// ---------------------------------------------------------------------------------------------
// Enums of these resources
// ---------------------------------------------------------------------------------------------

/** `Months`: the month a client's financial year ends. */
export const Months = enumCI([
  "January", "February", "March", "April", "May", "June",
  "July", "August", "September", "October", "November", "December",
]);

/** `ClientContactPersonRole`: role of a person in the client's organization settings. */
export const ClientContactPersonRole = enumCI(["Other", "GeneralManager", "ChairmanOfTheBoard", "BoardMember"]);

/** `UserStatus`: InvitePending is set only by the system, as the result of an invitation. */
export const UserStatus = enumCI(["Active", "Inactive", "InvitePending"]);

/** `AssignmentAgreementStatus` of a quality assignment. */
export const AssignmentAgreementStatus = enumCI(["Draft", "Active", "Archived"]);

/** `SubjectToAuditType` of a quality assignment's customer. */
export const SubjectToAuditType = enumCI(["Yes", "OptedOut", "No"]);

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

/**
 * `AddressPostDto` (client and contact-person mail address): like `ContactAddressPost` without
 * ExternalCode. City and ZipCode are in the spec's `required` list, so they must be present and set.
 */
export const AddressPost = z.strictObject({
  AddressLine1: opt(z.string().max(200)),
  AddressLine2: opt(z.string().max(200)),
  City: requiredText(100),
  CountryCode: opt(countryCode),
  ZipCode: requiredText(50),
});
export type AddressPost = z.output<typeof AddressPost>;

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
      if (!s[field]?.trim()) ctx.addIssue({ code: "custom", path: [field], message: `${field} is required when IsPerson is true` });
    }
  } else if (!s.Name?.trim()) {
    ctx.addIssue({ code: "custom", path: ["Name"], message: "Name is required for a company (IsPerson is false)" });
  }
});
export type SupplierPost = z.output<typeof SupplierPost>;

/** Fields of `SupplierDto` that `SupplierPostDto` lacks (all server-assigned). */
export const SUPPLIER_DTO_FIELDS = [
  "ContactCreatedDateTimeOffset", "CreatedFromImportJournalId", "Id", "IsActive",
  "LastChangedDateTimeOffset", "SubledgerAccountId", "SupplierCreatedDateTimeOffset",
] as const;

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

/** Fields of `ContactPersonDto` that the POST body lacks. Its MailAddress (`AddressDto`) adds none. */
export const CONTACT_PERSON_DTO_FIELDS = ["ContactId", "CreatedDateTimeOffset", "Id", "LastChangedDateTimeOffset"] as const;

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

/** Fields of `ContactBankAccountDto` that the POST body lacks (`CreateDateTimeOffset` is the spec's spelling). */
export const CONTACT_BANK_ACCOUNT_DTO_FIELDS = ["ContactId", "CreateDateTimeOffset", "Id", "LastChangedDateTimeOffset"] as const;

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

/** Fields of `ContactDeliveryAddressDto` that the POST body lacks. */
export const CONTACT_DELIVERY_ADDRESS_DTO_FIELDS = ["ContactId", "CreatedDateTimeOffset", "Id", "LastChangedDateTimeOffset"] as const;

// ---------------------------------------------------------------------------------------------
// Contact groups
// ---------------------------------------------------------------------------------------------

const contactGroupFields = {
  Name: requiredText(400),
};

/** `ContactGroupPostDto` (`POST /ContactGroups`), strict. */
export const ContactGroupPost = z.strictObject(contactGroupFields);
export type ContactGroupPost = z.output<typeof ContactGroupPost>;

/** Fields of `ContactGroupDto` that the POST body lacks. */
export const CONTACT_GROUP_DTO_FIELDS = ["CreatedDateTimeOffset", "Id", "LastChangedDateTimeOffset"] as const;

// ---------------------------------------------------------------------------------------------
// Client bank accounts and bank approvers
// ---------------------------------------------------------------------------------------------

const clientBankAccountFields = {
  AllowOverdraft: opt(z.boolean()),
  BankAccountNumber: requiredText(50),
  BankName: opt(z.string().max(400)),
  BicSwift: requiredText(50),
  CountryCode: countryCode,
  CurrencyCode: currencyCode,
  GeneralLedgerAccountId: int64,
  IsActive: opt(z.boolean()),
  IsClientTrustAccount: opt(z.boolean()),
  OverdraftLimit: opt(z.number()),
};

/**
 * `ClientBankAccountPostDto` (`POST /ClientBankAccounts`), strict. The spec makes an overdraft limit
 * "available only for bank accounts with overdraft enabled", so a limit without AllowOverdraft is
 * refused rather than silently dropped.
 */
export const ClientBankAccountPost = z.strictObject(clientBankAccountFields).superRefine((a, ctx) => {
  if (a.OverdraftLimit != null && a.AllowOverdraft !== true) {
    ctx.addIssue({ code: "custom", path: ["OverdraftLimit"], message: "OverdraftLimit needs AllowOverdraft set to true" });
  }
});
export type ClientBankAccountPost = z.output<typeof ClientBankAccountPost>;

/** Fields of `ClientBankAccountDto` that the POST body lacks. */
export const CLIENT_BANK_ACCOUNT_DTO_FIELDS = [
  "ActiveIncomingPaymentService", "ActiveOutgoingPaymentServices", "AgricultureDepartment", "CreatedDateTimeOffset",
  "GeneralLedgerAccountNo", "Id", "IsPrimaryAccount", "LastChangedDateTimeOffset",
] as const;

/** `BankApproverPostDto` (`POST /ClientBankAccounts/BankApprovers`), strict; the period is inclusive. */
export const BankApproverPost = z
  .strictObject({
    BankAccountId: int64,
    FromDate: opt(isoDate),
    ToDate: opt(isoDate),
    UserId: z.uuid(),
  })
  .superRefine(checkPeriod);
export type BankApproverPost = z.output<typeof BankApproverPost>;

/** Fields of `BankApproverDto` that the POST body lacks. */
export const BANK_APPROVER_DTO_FIELDS = ["BankAccountNumber", "Id", "IsActiveApprover"] as const;

/** `ClientContactDto` (`GET /ClientContacts`, read-only): all fields. */
export const CLIENT_CONTACT_DTO_FIELDS = ["Email", "FirstName", "Id", "LastName", "Phone", "Role", "YearOfBirth"] as const;

// ---------------------------------------------------------------------------------------------
// Client administration (partner integrations)
// ---------------------------------------------------------------------------------------------

/** `ClientPostDto` (`POST /ClientAdmin/CreateNewClient`), strict. */
export const ClientPost = z.strictObject({
  AdminUserId: z.uuid(),
  ClientName: requiredText(),
  ConversionDate: opt(isoDate),
  FinancialYearEndMonth: Months.optional(),
  IsVatRegistered: opt(z.boolean()),
  LegalName: requiredText(),
  MailAddress: AddressPost,
  OrganizationNumber: requiredText(),
  TemplateClientId: opt(z.uuid()),
  UseVatCompensation: opt(z.boolean()),
});
export type ClientPost = z.output<typeof ClientPost>;

/** Fields of `ClientDto` that `ClientPostDto` lacks. */
export const CLIENT_DTO_FIELDS = ["Id", "IsActive"] as const;

/** `InviteUserPostDto` (`POST /ClientAdmin/{clientId}/Users/Invite`), strict; the period is inclusive. */
export const InviteUserPost = z
  .strictObject({
    AccessRoleId: accessRoleId,
    EmailAddress: requiredText(),
    FirstName: requiredText(),
    FromDate: opt(isoDate),
    InviteAsEmployee: opt(z.boolean()),
    LastName: requiredText(),
    ToDate: opt(isoDate),
  })
  .superRefine(checkPeriod);
export type InviteUserPost = z.output<typeof InviteUserPost>;

/** `AddPartnerUserPostDto` (`POST /ClientAdmin/{clientId}/Users/AddPartnerUser`), strict. */
export const AddPartnerUserPost = z
  .strictObject({
    AccessRoleId: accessRoleId,
    FromDate: opt(isoDate),
    PartnerUserId: z.uuid(),
    ToDate: opt(isoDate),
  })
  .superRefine(checkPeriod);
export type AddPartnerUserPost = z.output<typeof AddPartnerUserPost>;

/**
 * Top-level properties a JSON Patch on `/ClientAdmin/{clientId}/Users/{userId}` may change. The
 * spec dropped `UserPatchDto`; this is what its request example patches.
 */
export const userPatchableFields: ReadonlySet<string> = new Set(["AccessRoleId", "FromDate", "ToDate"]);

/**
 * Fields of `UserDto` that `InviteUserPostDto` lacks. (Against `AddPartnerUserPostDto`, the
 * response also adds EmailAddress, FirstName and LastName.)
 */
export const USER_DTO_FIELDS = ["Id", "Status"] as const;

/** `AccessRoleDto` (`GET /ClientAdmin/{clientId}/AccessRoles`, read-only): all fields. */
export const ACCESS_ROLE_DTO_FIELDS = ["AccessRoleId", "AccessRoleName"] as const;

/** `UserAccessRoleDto` (`GET /ClientAdmin/{userId}/UserAccessRoles`, read-only): all fields. */
export const USER_ACCESS_ROLE_DTO_FIELDS = ["AccessRoleId", "ClientId", "ClientName"] as const;

/** `NewIntegrationDto` (`POST /ClientAdmin/AddIntegrationToClient/{clientId}`, no body): all fields. */
export const NEW_INTEGRATION_DTO_FIELDS = ["ClientId", "ClientKey", "ClientName", "OrganizationNumber"] as const;

// ---------------------------------------------------------------------------------------------
// Onboarding (anonymous: the spec gives these two operations an empty security requirement)
// ---------------------------------------------------------------------------------------------

/**
 * `InitiateOnboardingPostDto` (`POST /Onboarding/Initiate`), strict. ApplicationKey "must be set"
 * per its description although the schema has no `required` list. Whether RedirectUri is
 * whitelisted is stored state; here only its form (an http(s) URL) is checked.
 */
export const InitiateOnboardingPost = z.strictObject({
  ApplicationKey: z.uuid(),
  ClientOrganizationNo: opt(z.string()),
  RedirectUri: opt(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" })),
});
export type InitiateOnboardingPost = z.output<typeof InitiateOnboardingPost>;

/** Fields of `InitiateOnboardingResponseDto` (none overlap the POST body). */
export const INITIATE_ONBOARDING_RESPONSE_DTO_FIELDS = ["TemporaryUrl", "ValidUntilDateTimeOffset"] as const;

/** `FinalizeOnboardingPostDto` (`POST /Onboarding/Finalize`), strict: the token is the whole point. */
export const FinalizeOnboardingPost = z.strictObject({
  OnboardingToken: requiredText(),
});
export type FinalizeOnboardingPost = z.output<typeof FinalizeOnboardingPost>;

/** Fields of `FinalizeOnboardingResponseDto`. */
export const FINALIZE_ONBOARDING_RESPONSE_DTO_FIELDS = ["OnboardedClientsInformation", "UserEmail"] as const;

/** Fields of `OnboardedClientInformation`, the items of `OnboardedClientsInformation`. */
export const ONBOARDED_CLIENT_INFORMATION_FIELDS = ["ClientKey", "ClientName", "ClientOrganizationNumber"] as const;

// ---------------------------------------------------------------------------------------------
// Read-only resources: quality assignments, supplier ledger
// ---------------------------------------------------------------------------------------------

/** `AssignmentGeneralDto` (`GET /Assignments/{id}`): all fields. */
export const ASSIGNMENT_GENERAL_DTO_FIELDS = [
  "AgreementSignedDate", "AssociateSubledgerAccountId", "AuditingCompanyId", "AuditorId", "CurrentAgreementDate",
  "CustomerContactPersonId", "CustomerSubledgerAccountId", "Description", "EndDate", "Id",
  "KeyAccountManagerSubledgerAccountId", "ManagerSubledgerAccountId", "NoticePeriod", "PayrollManagerSubledgerAccountId",
  "ProjectId", "PurposeForContact", "ReasonForContact", "RevisionDate", "StartDate", "Status", "SubjectToAudit",
] as const;

/** `AssignmentLightWeightDto` (`GET /Assignments`): all fields. */
export const ASSIGNMENT_LIGHT_WEIGHT_DTO_FIELDS = [
  "AgreementSignedDate", "AssociateSubledgerAccountId", "CurrentAgreementDate", "CustomerContactPersonId",
  "CustomerSubledgerAccountId", "Description", "EndDate", "Id", "KeyAccountManagerSubledgerAccountId",
  "ManagerSubledgerAccountId", "PayrollManagerSubledgerAccountId", "ProjectId", "RevisionDate", "StartDate", "Status",
] as const;

/** `SupplierBalanceDto` (`GET /Supplierledger/SupplierBalances`): all fields. */
export const SUPPLIER_BALANCE_DTO_FIELDS = ["Balance", "SupplierAccountNo", "SupplierExternalNo", "SupplierId", "SupplierName"] as const;

/** `SupplierLedgerEntryDto` (`GET /Supplierledger/OpenItems`, `/Statement`, `/EntriesByMatchId`): all fields. */
export const SUPPLIER_LEDGER_ENTRY_DTO_FIELDS = [
  "Amount", "Balance", "Cid", "CreatedDateTimeOffset", "CreatedFromImportJournalId", "CurrencyAmount", "CurrencyCode",
  "CustomMatchingReference", "DepartmentCode", "DepartmentId", "Dim1Code", "Dim1Id", "Dim2Code", "Dim2Id", "Dim3Code",
  "Dim3Id", "DueDate", "ExternalImportReference", "Id", "InvoiceNo", "IsCreatedByCurrentIntegration", "IsWriteOff",
  "LastChangedDateTimeOffset", "LocationCode", "LocationId", "MatchId", "PostingDate", "ProjectCode", "ProjectId",
  "SupplierAccountNo", "SupplierExternalNo", "SupplierId", "SupplierName", "VoucherDate", "VoucherId", "VoucherNo",
  "VoucherType",
] as const;
