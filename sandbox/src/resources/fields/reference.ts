/**
 * @module
 * The whole shapes of the read-only settings resources the sandbox serves from its seed: sub-ledger
 * number series, branding themes, organization settings, custom dimension settings, enterprises.
 */

/** `SubLedgerNumberSeriesDto` (read-only resource; its Id is a uuid). */
export const SUB_LEDGER_NUMBER_SERIES_DTO_FIELDS = [
  "FromInclusive",
  "GeneralLedgerAccountId",
  "GeneralLedgerAccountNo",
  "Id",
  "IsClientTrust",
  "IsDefault",
  "Name",
  "SubLedgerNumberSeriesType",
  "ToInclusive",
] as const;
/** `BrandingThemeDto` (read-only resource). */
export const BRANDING_THEME_DTO_FIELDS = [
  "Code",
  "CreatedDateTimeOffset",
  "Id",
  "IsDefault",
  "LanguageCode",
  "LastChangedDateTimeOffset",
  "Name",
] as const;
/**
 * `OrganizationSettingDto` (single object); `MailAddress` and `DeliveryAddress` are `Address`
 * objects.
 */
export const ORGANIZATION_SETTING_DTO_FIELDS = [
  "DefaultAgricultureDepartment",
  "DeliveryAddress",
  "EmailAddress",
  "Id",
  "InvoiceInboxEhf",
  "InvoiceInboxEmail",
  "InvoiceInboxEmailAddress",
  "IsAgricultureClient",
  "LastChangedDateTimeOffset",
  "LegalName",
  "MailAddress",
  "MailAddressIsDeliveryAddress",
  "Name",
  "OrganizationNumber",
  "PhoneNumber",
  "WebsiteUrl",
] as const;
/** `CustomDimensionSettingsDto` (one per ordinal). */
export const CUSTOM_DIMENSION_SETTINGS_DTO_FIELDS = ["IsActive", "Name", "Ordinal"] as const;
/** `EnterpriseDto` (read-only resource); `MailAddress` is an `AddressDto`. */
export const ENTERPRISE_DTO_FIELDS = [
  "CreatedDateTimeOffset",
  "EmployerContributionRule",
  "EmployerContributionZone",
  "EnterpriseNo",
  "Id",
  "IsDefault",
  "LastChangedDateTimeOffset",
  "MailAddress",
  "Municipality",
  "Name",
] as const;
