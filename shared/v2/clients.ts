/**
 * @module
 * The client's own side of API v2: its bank accounts and their approvers, client administration
 * (partner integrations: new clients, users) and onboarding. The POST bodies and the fields a JSON
 * Patch may touch, shared by the gateway and the sandbox so both refuse the same input in the same
 * words; rules that need stored state, and the response shapes, are the sandbox's job.
 */
import { z } from "zod";
import { AddressPost } from "./addresses";
import { countryCode, currencyCode, enumCI, int64, isoDate, opt, requiredText } from "./schema-kit";

/**
 * Adds an issue when both dates are set and `to` is before `from`. Both ends are inclusive in the
 * spec, so equal dates are a valid one-day period.
 */
function checkPeriod(
  v: { FromDate?: string | null; ToDate?: string | null },
  ctx: z.RefinementCtx,
) {
  if (v.FromDate && v.ToDate && v.ToDate < v.FromDate) {
    ctx.addIssue({
      code: "custom",
      path: ["ToDate"],
      message: `ToDate (${v.ToDate}) must not be before FromDate (${v.FromDate})`,
    });
  }
}

/**
 * An access role id. Not `z.uuid()`: the built-in Administrator role is
 * `aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa` (per `UserDto.AccessRoleId`), a .NET Guid with no RFC 4122
 * version, which `z.uuid()` would refuse.
 */
const accessRoleId = z.guid();

/** `Months`: the month a client's financial year ends. */
const Months = enumCI([
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
]);

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
 * `ClientBankAccountPostDto` (`POST /ClientBankAccounts`), strict. The spec makes an overdraft
 * limit "available only for bank accounts with overdraft enabled", so a limit without
 * AllowOverdraft is refused rather than silently dropped.
 */
export const ClientBankAccountPost = z
  .strictObject(clientBankAccountFields)
  .superRefine((a, ctx) => {
    if (a.OverdraftLimit != null && a.AllowOverdraft !== true) {
      ctx.addIssue({
        code: "custom",
        path: ["OverdraftLimit"],
        message: "OverdraftLimit needs AllowOverdraft set to true",
      });
    }
  });
export type ClientBankAccountPost = z.output<typeof ClientBankAccountPost>;

/**
 * `BankApproverPostDto` (`POST /ClientBankAccounts/BankApprovers`), strict; the period is
 * inclusive.
 */
export const BankApproverPost = z
  .strictObject({
    BankAccountId: int64,
    FromDate: opt(isoDate),
    ToDate: opt(isoDate),
    UserId: z.uuid(),
  })
  .superRefine(checkPeriod);
export type BankApproverPost = z.output<typeof BankApproverPost>;

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

/**
 * `InviteUserPostDto` (`POST /ClientAdmin/{clientId}/Users/Invite`), strict; the period is
 * inclusive.
 */
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
export const userPatchableFields: ReadonlySet<string> = new Set([
  "AccessRoleId",
  "FromDate",
  "ToDate",
]);

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

/**
 * `FinalizeOnboardingPostDto` (`POST /Onboarding/Finalize`), strict: the token is the whole point.
 */
export const FinalizeOnboardingPost = z.strictObject({
  OnboardingToken: requiredText(),
});
export type FinalizeOnboardingPost = z.output<typeof FinalizeOnboardingPost>;
