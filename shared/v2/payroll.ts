/**
 * @module
 * The payroll resources of API v2: employees and their hourly rates, employments and the lines that
 * hang off an employment (FTE percentages, salaries, fixed salaries, leaves, layoffs), salary lines,
 * and the per-employee payroll and pension settings, which only PATCH changes. Shared by the gateway
 * and the sandbox so both refuse the same input in the same words; the `*_DTO_FIELDS` lists name what
 * a response carries beyond the body, which is what the sandbox has to fill in itself.
 */
import { z } from "zod";
import { ContactAddressPost } from "./customers";
import { Gender, InternationalIdType } from "./enums";
import { enumCI, int64, isoDate, opt } from "./schema-kit";

/** Form of an employment (`EmploymentFormType`); the three "…HiredOut"/"…Coverstaff" forms exist from 2025. */
export const EmploymentFormType = enumCI([
  "Permanent",
  "Temporary",
  "PermanentEmploymentAndHiredOut",
  "TemporaryEmploymentAndHiredOut",
  "TemporaryEmploymentAsOnCallCoverstaff",
]);

/** `EmploymentSpecificationType`: a cross-border commuter may only be taxed in FI or SE. */
export const EmploymentSpecificationType = enumCI(["None", "CrossBorderCommuter"]);

/** Type of employment as reported in the a-melding (`EmploymentType`). */
export const EmploymentType = enumCI(["Ordinary", "Maritime", "FreelancersEtc", "PensionEtc"]);

/** Why an employment ended (`EndDateReasonType`); must accompany an end date. */
export const EndDateReasonType = enumCI([
  "EmploymentRelationshipShouldNeverHaveBeenReported",
  "EmployerHasDismissedTheEmployee",
  "EmployeeHasResigned",
  "ChangeOfPayrollSystemOrAccountant",
  "ChangeOfOrganizationStructureOrChangedJobInternally",
  "ContractCommitmentOrTemporaryEmploymentExpired",
]);

/** `TaxRuleType` of an employment or a salary line. */
export const TaxRuleType = enumCI(["Ordinary", "Svalbard", "JanMayenAndDependencies", "SpecialAllowanceForSeafarers", "TaxFreeOrganisation"]);

/** `WorkingHoursArrangementType` of an employment. */
export const WorkingHoursArrangementType = enumCI(["NonShift", "SemiContinuousShift", "ContinuousShift", "ShiftWork", "Offshore", "OtherShifts"]);

/** `CommuterPersonType` of a salary line. */
export const CommuterPersonType = enumCI(["ForeignCommuterWithTaxCardWithoutStandardDeduction", "ForeignerWithResidenceInNorway"]);

/** `DeductionType` of a salary line: a fixed amount or a percentage of the start amount. */
export const DeductionType = enumCI(["Amount", "Percent"]);

/** `TaxDeductionType` of a fixed salary line or a pay item. */
export const TaxDeductionType = enumCI(["NoTax", "Percentage", "TaxTable"]);

/** `SalaryRemunerationType` of an employment salary. */
export const SalaryRemunerationType = enumCI(["Commission", "FixedWage", "HourlyWage"]);

/** `LeaveType` of an employment leave. */
export const LeaveType = enumCI(["EducationalNonStatutory", "EducationalStatutory", "Maternity", "Military", "OtherNonStatutory", "OtherStatutory"]);

/** `PayslipDeliveryType` of an employee's payroll settings. */
export const PayslipDeliveryType = enumCI(["App", "EmailAndApp", "PrintAndApp"]);

/** `PayslipLanguageType`; the API says `Unknown` should never be seen, but it is a member. */
export const PayslipLanguageType = enumCI(["Unknown", "En_US", "Nb_NO", "Nn_NO", "Sv_SE", "Da_DK"]);

/** `RemunerationPeriodType` of an employee's payroll settings. */
export const RemunerationPeriodType = enumCI(["Monthly", "TwoWeeks"]);

/** `FnoStatusType` of an employee's pension settings. */
export const FnoStatusType = enumCI(["Active", "AgreedLeave", "LaidOff", "Sick", "StatutoryLeave"]);

const countryCode = z.string().regex(/^[A-Za-z]{2}$/, "must be an ISO 3166-1 alpha-2 code");
const percentage = z.number().min(0).max(100);
/** A required name: null and whitespace-only are both "not given" to the API. */
const name = z.string().regex(/\S/, "must not be blank");

const NIN_WEIGHTS_1 = [3, 7, 6, 1, 8, 9, 4, 5, 2];
const NIN_WEIGHTS_2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/** The mod-11 control digit over `digits`, or 10 when no digit can make the number valid. */
function mod11(digits: readonly number[], weights: readonly number[]): number {
  const sum = weights.reduce((acc, w, i) => acc + w * (digits[i] ?? 0), 0);
  const k = 11 - (sum % 11);
  return k === 11 ? 0 : k;
}

/**
 * A Norwegian fødselsnummer or D-number. The API "validates the syntax" when it is set; the two
 * mod-11 control digits are that syntax, so a typo is caught here instead of by the API.
 */
const NationalIdNumber = z
  .string()
  .regex(/^\d{11}$/, "must be 11 digits (fødselsnummer or D-number)")
  .refine((s) => {
    const d = [...s].map(Number);
    return mod11(d, NIN_WEIGHTS_1) === d[9] && mod11(d, NIN_WEIGHTS_2) === d[10];
  }, "has wrong control digits: not a valid fødselsnummer or D-number");

type Issues = z.RefinementCtx;

/** ISO dates compare correctly as strings; flags `to` when it falls before `from`. */
function checkOrder(ctx: Issues, from: string | null | undefined, to: string | null | undefined, fromKey: string, toKey: string) {
  if (from && to && to < from) {
    ctx.addIssue({ code: "custom", path: [toKey], message: `${toKey} (${to}) is before ${fromKey} (${from})` });
  }
}

/** `EmployeePostDto`. Number, ExternalNumber and ExternalImportReference uniqueness is the server's job. */
export const EmployeePost = z
  .strictObject({
    ContactGroupIds: opt(z.array(int64.positive())),
    DateOfBirth: opt(isoDate),
    DepartmentCode: opt(z.string()),
    DepartmentId: opt(int64),
    EmailAddress: opt(z.string()),
    EndDate: opt(isoDate),
    ExternalImportReference: opt(z.string().max(50)),
    ExternalNumber: opt(int64),
    FirstName: name,
    Gender: Gender.optional(),
    HiredDate: opt(isoDate),
    InternationalIdCountryCode: opt(countryCode),
    InternationalIdNumber: opt(z.string()),
    InternationalIdReportToAltinn: opt(z.boolean()),
    InternationalIdType: InternationalIdType.optional(),
    IsArchived: opt(z.boolean()),
    JobTitle: opt(z.string()),
    LastName: name,
    LocationCode: opt(z.string()),
    LocationId: opt(int64),
    MailAddress: ContactAddressPost.optional(),
    ManagerEmployeeId: opt(int64),
    ManagerEmployeeNo: opt(int64),
    NationalIdNumber: opt(NationalIdNumber),
    Number: opt(int64.positive()),
    PhoneNumber: opt(z.string()),
    StartDate: opt(isoDate),
    SubLedgerNumberSeriesId: opt(z.uuid()),
  })
  .superRefine((e, ctx) => {
    if (e.InternationalIdReportToAltinn === true) {
      for (const field of ["InternationalIdCountryCode", "InternationalIdNumber"] as const) {
        if (!e[field]?.trim()) {
          ctx.addIssue({ code: "custom", path: [field], message: `${field} is required when InternationalIdReportToAltinn is true` });
        }
      }
    }
    checkOrder(ctx, e.StartDate, e.EndDate, "StartDate", "EndDate");
  });
export type EmployeePost = z.output<typeof EmployeePost>;

/** `EmployeeHourlyRatePostDto`: the rates apply from ValidFromDate until the next set starts. */
export const EmployeeHourlyRatePost = z.strictObject({
  BillableRate: opt(z.number().nonnegative()),
  CostRate: opt(z.number().nonnegative()),
  ValidFromDate: isoDate,
});
export type EmployeeHourlyRatePost = z.output<typeof EmployeeHourlyRatePost>;

/** `EmploymentPostDto`: an employment relationship as reported in the a-melding. */
export const EmploymentPost = z
  .strictObject({
    EmploymentForm: EmploymentFormType,
    EmploymentSpecification: EmploymentSpecificationType.optional(),
    EmploymentType,
    EndDate: opt(isoDate),
    EndDateReason: EndDateReasonType.optional(),
    EnterpriseId: int64,
    FullTimeHoursPerWeek: z.number().positive().max(168),
    IsDefault: z.boolean(),
    ProfessionCode: z.string().regex(/^\d{7}$/, "must be a 7-digit STYRK-98 profession code"),
    ReportingId: opt(z.string()),
    StartDate: isoDate,
    TaxCountryCode: opt(countryCode),
    TaxRule: TaxRuleType.optional(),
    WorkingHoursArrangement: WorkingHoursArrangementType,
  })
  .superRefine((e, ctx) => {
    if (e.EndDate && !e.EndDateReason) {
      ctx.addIssue({ code: "custom", path: ["EndDateReason"], message: "EndDateReason is required when EndDate is set" });
    }
    checkOrder(ctx, e.StartDate, e.EndDate, "StartDate", "EndDate");
    const country = e.TaxCountryCode?.toUpperCase();
    if (e.EmploymentSpecification === "CrossBorderCommuter" && country && country !== "FI" && country !== "SE") {
      ctx.addIssue({
        code: "custom",
        path: ["TaxCountryCode"],
        message: "TaxCountryCode can only be FI or SE when EmploymentSpecification is CrossBorderCommuter",
      });
    }
  });
export type EmploymentPost = z.output<typeof EmploymentPost>;

/** `EmploymentFtePercentagePostDto`. */
export const EmploymentFtePercentagePost = z.strictObject({
  FromDate: isoDate,
  FtePercentage: percentage,
});
export type EmploymentFtePercentagePost = z.output<typeof EmploymentFtePercentagePost>;

/** `EmploymentSalaryPostDto`: the hourly rate of a fixed wage is derived by the server when omitted. */
export const EmploymentSalaryPost = z.strictObject({
  AnnualSalary: opt(z.number().nonnegative()),
  FromDate: isoDate,
  HourlyRate: opt(z.number().nonnegative()),
  RemunerationType: SalaryRemunerationType,
});
export type EmploymentSalaryPost = z.output<typeof EmploymentSalaryPost>;

/** Fields a fixed salary line and a salary line share; which of them matter depends on the pay item. */
const salaryLineFields = {
  AccountId: opt(int64),
  Amount: opt(z.number()),
  CarListPrice: opt(z.number()),
  CarRegistrationDate: opt(isoDate),
  CarRegistrationNo: opt(z.string()),
  Cid: opt(z.string()),
  Comment: opt(z.string()),
  CommuterPersonType: CommuterPersonType.optional(),
  DeductionType: DeductionType.optional(),
  DepartmentId: opt(int64),
  FromDate: opt(isoDate),
  HomeWorkKilometers: opt(z.number()),
  IncomeYear: opt(z.int()),
  IsCarPool: opt(z.boolean()),
  MaxAmount: opt(z.number()),
  MemberNo: opt(z.string()),
  MinAmount: opt(z.number()),
  Number: opt(z.int()),
  OppositeAccountId: opt(int64),
  PayItemId: z.uuid(),
  PrivateDrivenKilometers: opt(z.number()),
  ProjectId: opt(int64),
  Quantity: opt(z.number()),
  Rate: opt(z.number()),
  StartAmount: opt(z.number()),
  SupplierAccountId: opt(int64),
  SupplierBankAccountId: opt(int64),
  TaxRule: TaxRuleType.optional(),
  ToDate: opt(isoDate),
  UseRemittance: opt(z.boolean()),
  VatCodeId: opt(z.int()),
  WorkDriveExceedsKilometerLimit: opt(z.boolean()),
};

type LineRules = { FromDate?: string | null; ToDate?: string | null; MinAmount?: number | null; MaxAmount?: number | null };

/** Rules a salary line carries whatever its pay item: a period that runs forward, a sane trade-union band. */
function checkLine(l: LineRules, ctx: Issues) {
  checkOrder(ctx, l.FromDate, l.ToDate, "FromDate", "ToDate");
  if (l.MinAmount != null && l.MaxAmount != null && l.MaxAmount < l.MinAmount) {
    ctx.addIssue({ code: "custom", path: ["MaxAmount"], message: `MaxAmount (${l.MaxAmount}) is below MinAmount (${l.MinAmount})` });
  }
}

/** `EmploymentFixedSalaryPostDto`: a line repeated on every payroll while IsActive. */
export const EmploymentFixedSalaryPost = z
  .strictObject({
    ...salaryLineFields,
    IsActive: opt(z.boolean()),
    TaxDeduction: TaxDeductionType.optional(),
  })
  .superRefine(checkLine);
export type EmploymentFixedSalaryPost = z.output<typeof EmploymentFixedSalaryPost>;

/** `SalaryLinePostDto`: a one-off line for the next payroll. */
export const SalaryLinePost = z
  .strictObject({
    ...salaryLineFields,
    EmployeeId: int64,
    ExternalImportReference: opt(z.string()),
  })
  .superRefine(checkLine);
export type SalaryLinePost = z.output<typeof SalaryLinePost>;

/** Fields a leave and a layoff share. */
const absenceFields = {
  AdjustFixedWage: opt(z.boolean()),
  EndDate: opt(isoDate),
  EndedAndReported: opt(z.boolean()),
  ExcludeEmployeeFromPayroll: opt(z.boolean()),
  ReportingId: opt(z.string()),
  StartDate: isoDate,
};

type AbsenceRules = { StartDate: string; EndDate?: string | null };

function checkAbsence(a: AbsenceRules, ctx: Issues) {
  checkOrder(ctx, a.StartDate, a.EndDate, "StartDate", "EndDate");
}

/** `EmploymentLeavePostDto`: 100 means fully absent. */
export const EmploymentLeavePost = z
  .strictObject({ ...absenceFields, LeavePercentage: percentage, TypeOfLeave: LeaveType })
  .superRefine(checkAbsence);
export type EmploymentLeavePost = z.output<typeof EmploymentLeavePost>;

/** `EmploymentLayoffPostDto`: 100 means fully laid off. */
export const EmploymentLayoffPost = z
  .strictObject({ ...absenceFields, LayoffPercentage: percentage })
  .superRefine(checkAbsence);
export type EmploymentLayoffPost = z.output<typeof EmploymentLayoffPost>;

/**
 * What a PATCH on `/Employees/{id}/PayrollSettings` may set (`EmployeePayrollSettingsDto`, none of it
 * readOnly). Null means "use the client's general payroll settings".
 */
export const EmployeePayrollSettingsWritable = z.strictObject({
  HolidayPayAbove60Percentage: opt(percentage),
  HolidayPayPercentage: opt(percentage),
  LimitHolidayPayAbove60To6G: opt(z.boolean()),
  NumberOfHolidays: opt(z.int().nonnegative()),
  NumberOfHolidaysAbove60: opt(z.int().nonnegative()),
  OmitECOnHolidayPayProvision: opt(z.boolean()),
  PayslipDeliveryType: PayslipDeliveryType.optional(),
  PayslipEmailAddress: opt(z.string()),
  PayslipLanguageType: PayslipLanguageType.optional(),
  RemunerationPeriodType: RemunerationPeriodType.optional(),
});
export type EmployeePayrollSettingsWritable = z.output<typeof EmployeePayrollSettingsWritable>;

/** What a PATCH on `/Employees/{id}/PensionSettings` may set (`EmployeePensionSettingsDto`, none of it readOnly). */
export const EmployeePensionSettingsWritable = z.strictObject({
  FnoStatus: FnoStatusType.optional(),
  FnoStatusPercentage: opt(z.int().min(0).max(100)),
  HoursPerYearFno: opt(z.int().nonnegative()),
  IncludeInFnoPensionReport: opt(z.boolean()),
  IsReceivingAfp: opt(z.boolean()),
  IsUnfitForWork: opt(z.boolean()),
  PensionAgeFno: opt(z.int().nonnegative()),
});
export type EmployeePensionSettingsWritable = z.output<typeof EmployeePensionSettingsWritable>;

// Response-only properties, i.e. what the server adds to a body. GET-only and PATCH-only resources
// list every property, since no body supplies any of them.

/** `EmployeeDto` beyond `EmployeePostDto`. */
export const EMPLOYEE_DTO_FIELDS = [
  "ContactCreatedDateTimeOffset", "CreatedFromImportJournalId", "EmployeeCreatedDateTimeOffset", "ExpenseBankAccountId",
  "Id", "LastChangedDateTimeOffset", "SalaryBankAccountId", "SubledgerAccountId", "TravelExpenseBankAccountId",
] as const;

/** `EmploymentDto` beyond `EmploymentPostDto`; the counts are of the lines under the employment. */
export const EMPLOYMENT_DTO_FIELDS = [
  "CreatedDateTimeOffset", "EmployeeId", "EndedAndReported", "FixedSalaryCount", "FtePercentageCount", "Id",
  "LastChangedDateTimeOffset", "LayoffCount", "LeaveCount", "ProfessionTitle", "SalaryCount",
] as const;

/** `EmploymentLightDto`, the slim shape of `GET /Employees/Employments` (all of it). */
export const EMPLOYMENT_LIGHT_DTO_FIELDS = [
  "CreatedDateTimeOffset", "EmployeeId", "EmploymentForm", "EndDate", "EnterpriseId", "Id", "LastChangedDateTimeOffset", "StartDate",
] as const;

/** `EmployeeHourlyRateDto` beyond the body; ValidToDate is the date the rate stops being used. */
export const EMPLOYEE_HOURLY_RATE_DTO_FIELDS = ["Id", "ValidToDate"] as const;

/** Lines under an employment (`EmploymentFtePercentageDto`, `…FixedSalaryDto`, `…SalaryDto`, `…LeaveDto`, `…LayoffDto`) beyond their bodies. */
const EMPLOYMENT_LINE_FIELDS = ["CreatedDateTimeOffset", "EmployeeId", "EmploymentId", "Id", "LastChangedDateTimeOffset"] as const;
export const EMPLOYMENT_FTE_PERCENTAGE_DTO_FIELDS = EMPLOYMENT_LINE_FIELDS;
/** Id is a uuid here. */
export const EMPLOYMENT_FIXED_SALARY_DTO_FIELDS = EMPLOYMENT_LINE_FIELDS;
export const EMPLOYMENT_SALARY_DTO_FIELDS = EMPLOYMENT_LINE_FIELDS;
/** Id is a uuid here. */
export const EMPLOYMENT_LEAVE_DTO_FIELDS = EMPLOYMENT_LINE_FIELDS;
/** Id is a uuid here. */
export const EMPLOYMENT_LAYOFF_DTO_FIELDS = EMPLOYMENT_LINE_FIELDS;

/** `SalaryLineDto` beyond `SalaryLinePostDto`. */
export const SALARY_LINE_DTO_FIELDS = ["CreatedDateTimeOffset", "Id", "IsDeletedByUser", "IsLocked", "LastChangedDateTimeOffset"] as const;

/** `PayItemDto` (GET only). */
export const PAY_ITEM_DTO_FIELDS = [
  "AccountId", "Benefit", "BenefitDescription", "Code", "CreatedDateTimeOffset", "DeductionPayItemId", "EarnedContinentalShelf",
  "EarnedSupportVessel", "EarningsCountryCode", "EmployerContributionBasis", "FnoReporting", "FullTaxOnHalfTaxPayrolls",
  "HolidayPayBasis", "Id", "IncludeInIncomeReport", "IsActive", "LastChangedDateTimeOffset", "Name", "OppositeAccountId",
  "PensionBasis", "Percentage", "PostingType", "ProcessingType", "Rate", "RoundingPrecision", "SpecialIncomeCondition",
  "TaxCountryCode", "TaxDeduction", "TradeUnionBasis",
] as const;

/** `PayrollSettingsDto` (GET only). */
export const PAYROLL_SETTINGS_DTO_FIELDS = [
  "AccrualOfEmployerContributionBalanceAccountId", "AccrualOfEmployerContributionResultAccountId",
  "AccrualOfHolidayPayBalanceAccountId", "AccrualOfHolidayPayResultAccountId", "AccrualOfWagesBalanceAccountId",
  "AccrualOfWagesResultAccountId", "AddFinancialActivityTax", "AllowAccrualOfWages", "AllowDifferentRemunerationPeriodPerEmployee",
  "AttachmentOfEarningsBalanceAccountId", "DaysInWeekHolidayPay", "EmployerContributionAllottedHolidayPayBalanceAccountId",
  "EmployerContributionAllottedHolidayPayResultAccountId", "EmployerContributionBalanceAccountId",
  "EmployerContributionFreeAllowanceAvailable", "EmployerContributionPaymentOfHolidayPayAccountId",
  "EmployerContributionPaymentOfHolidayPayBalanceAccountId", "EmployerContributionResultAccountId", "EmployerContributionRule",
  "EmploymentType", "EnableFlexTimePayout", "FinancialActivityAllottedHolidayPayBalanceAccountId",
  "FinancialActivityAllottedHolidayPayResultAccountId", "FinancialActivityPaymentOfHolidayPayAccountId",
  "FinancialActivityPaymentOfHolidayPayBalanceAccountId", "FinancialActivityTaxBalanceAccountId",
  "FinancialActivityTaxResultAccountId", "FullTimeHoursPerWeek", "HolidayPayAbove60BalanceAccountId",
  "HolidayPayAbove60Percentage", "HolidayPayAbove60ResultAccountId", "HolidayPayBalanceAccountId", "HolidayPayPercentage",
  "HolidayPayResultAccountId", "HoursPerYearFno", "IncludeTimeTransactionsFromDate", "LimitHolidayPayAbove60To6G",
  "MergeImportedSalaryLines", "MonthlyPayDay", "NegativeFlextimePayItemId", "NumberOfHolidays", "NumberOfHolidaysAbove60",
  "OutstandingSalaryBalanceAccountId", "OwedTaxedBalanceAccountId", "PayslipDeliveryType", "PayslipLanguageType",
  "PayslipPasswordType", "PayslipSendScheduleType", "PensionAgeFno", "PensionSchemesCount", "PositiveFlextimePayItemId",
  "PostVoucherOnK27ImportFromNav", "PostVoucherOnK27ImportFromNavAccountId", "RemunerationPeriod", "RemunerationType",
  "SalaryPaymentBankAccountId", "ShowCommentsOnPayslip", "ShowHolidayPayEarnedCurrentYearOnPayslip",
  "ShowHolidayPayEarnedLastYearOnPayslip", "ShowLogoOnPayslip", "ShowPayItemsOnPayslip", "ShowProjectOnPayslip",
  "SickPayRefundPayItemId", "SuggestedAccrualDate", "TaxDeductionBankAccountId", "TaxDeductionBankGuarantee", "TaxRule",
  "WorkingHoursArrangement",
] as const;

/** `PensionSchemeDto` (GET only). */
export const PENSION_SCHEME_DTO_FIELDS = ["IsActive", "PensionProviderName", "PensionProviderOrganizationNo"] as const;

/** `EmployeePayrollSettingsDto` (GET/PATCH only, no body creates it). */
export const EMPLOYEE_PAYROLL_SETTINGS_DTO_FIELDS = [
  "HolidayPayAbove60Percentage", "HolidayPayPercentage", "LimitHolidayPayAbove60To6G", "NumberOfHolidays",
  "NumberOfHolidaysAbove60", "OmitECOnHolidayPayProvision", "PayslipDeliveryType", "PayslipEmailAddress",
  "PayslipLanguageType", "RemunerationPeriodType",
] as const;

/** `EmployeePensionSettingsDto` (GET/PATCH only, no body creates it). */
export const EMPLOYEE_PENSION_SETTINGS_DTO_FIELDS = [
  "FnoStatus", "FnoStatusPercentage", "HoursPerYearFno", "IncludeInFnoPensionReport", "IsReceivingAfp", "IsUnfitForWork", "PensionAgeFno",
] as const;
