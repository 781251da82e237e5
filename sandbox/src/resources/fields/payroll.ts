/**
 * @module
 * What the payroll responses carry beyond their bodies (`shared/v2/payroll.ts`): employees,
 * employments and the lines under them, hourly rates, salary lines, and the GET- or PATCH-only
 * resources (pay items, payroll settings, pension schemes, per-employee settings), which are listed
 * whole since no body supplies any of their fields.
 */

/** `EmployeeDto` beyond `EmployeePostDto`. */
export const EMPLOYEE_DTO_FIELDS = [
  "ContactCreatedDateTimeOffset",
  "CreatedFromImportJournalId",
  "EmployeeCreatedDateTimeOffset",
  "ExpenseBankAccountId",
  "Id",
  "LastChangedDateTimeOffset",
  "SalaryBankAccountId",
  "SubledgerAccountId",
  "TravelExpenseBankAccountId",
] as const;

/** `EmploymentDto` beyond `EmploymentPostDto`; the counts are of the lines under the employment. */
export const EMPLOYMENT_DTO_FIELDS = [
  "CreatedDateTimeOffset",
  "EmployeeId",
  "EndedAndReported",
  "FixedSalaryCount",
  "FtePercentageCount",
  "Id",
  "LastChangedDateTimeOffset",
  "LayoffCount",
  "LeaveCount",
  "ProfessionTitle",
  "SalaryCount",
] as const;

/** `EmploymentLightDto`, the slim shape of `GET /Employees/Employments` (all of it). */
export const EMPLOYMENT_LIGHT_DTO_FIELDS = [
  "CreatedDateTimeOffset",
  "EmployeeId",
  "EmploymentForm",
  "EndDate",
  "EnterpriseId",
  "Id",
  "LastChangedDateTimeOffset",
  "StartDate",
] as const;

/** `EmployeeHourlyRateDto` beyond the body; ValidToDate is the date the rate stops being used. */
export const EMPLOYEE_HOURLY_RATE_DTO_FIELDS = ["Id", "ValidToDate"] as const;

/**
 * Lines under an employment (`EmploymentFtePercentageDto`, `…FixedSalaryDto`, `…SalaryDto`,
 * `…LeaveDto`, `…LayoffDto`) beyond their bodies.
 */
const EMPLOYMENT_LINE_FIELDS = [
  "CreatedDateTimeOffset",
  "EmployeeId",
  "EmploymentId",
  "Id",
  "LastChangedDateTimeOffset",
] as const;
/** `EmploymentFtePercentageDto` beyond its body. */
export const EMPLOYMENT_FTE_PERCENTAGE_DTO_FIELDS = EMPLOYMENT_LINE_FIELDS;
/** `EmploymentFixedSalaryDto` beyond its body; Id is a uuid here. */
export const EMPLOYMENT_FIXED_SALARY_DTO_FIELDS = EMPLOYMENT_LINE_FIELDS;
/** `EmploymentSalaryDto` beyond its body. */
export const EMPLOYMENT_SALARY_DTO_FIELDS = EMPLOYMENT_LINE_FIELDS;
/** `EmploymentLeaveDto` beyond its body; Id is a uuid here. */
export const EMPLOYMENT_LEAVE_DTO_FIELDS = EMPLOYMENT_LINE_FIELDS;
/** `EmploymentLayoffDto` beyond its body; Id is a uuid here. */
export const EMPLOYMENT_LAYOFF_DTO_FIELDS = EMPLOYMENT_LINE_FIELDS;

/** `SalaryLineDto` beyond `SalaryLinePostDto`. */
export const SALARY_LINE_DTO_FIELDS = [
  "CreatedDateTimeOffset",
  "Id",
  "IsDeletedByUser",
  "IsLocked",
  "LastChangedDateTimeOffset",
] as const;

/** `PayItemDto` (GET only). */
export const PAY_ITEM_DTO_FIELDS = [
  "AccountId",
  "Benefit",
  "BenefitDescription",
  "Code",
  "CreatedDateTimeOffset",
  "DeductionPayItemId",
  "EarnedContinentalShelf",
  "EarnedSupportVessel",
  "EarningsCountryCode",
  "EmployerContributionBasis",
  "FnoReporting",
  "FullTaxOnHalfTaxPayrolls",
  "HolidayPayBasis",
  "Id",
  "IncludeInIncomeReport",
  "IsActive",
  "LastChangedDateTimeOffset",
  "Name",
  "OppositeAccountId",
  "PensionBasis",
  "Percentage",
  "PostingType",
  "ProcessingType",
  "Rate",
  "RoundingPrecision",
  "SpecialIncomeCondition",
  "TaxCountryCode",
  "TaxDeduction",
  "TradeUnionBasis",
] as const;

/** `PayrollSettingsDto` (GET only). */
export const PAYROLL_SETTINGS_DTO_FIELDS = [
  "AccrualOfEmployerContributionBalanceAccountId",
  "AccrualOfEmployerContributionResultAccountId",
  "AccrualOfHolidayPayBalanceAccountId",
  "AccrualOfHolidayPayResultAccountId",
  "AccrualOfWagesBalanceAccountId",
  "AccrualOfWagesResultAccountId",
  "AddFinancialActivityTax",
  "AllowAccrualOfWages",
  "AllowDifferentRemunerationPeriodPerEmployee",
  "AttachmentOfEarningsBalanceAccountId",
  "DaysInWeekHolidayPay",
  "EmployerContributionAllottedHolidayPayBalanceAccountId",
  "EmployerContributionAllottedHolidayPayResultAccountId",
  "EmployerContributionBalanceAccountId",
  "EmployerContributionFreeAllowanceAvailable",
  "EmployerContributionPaymentOfHolidayPayAccountId",
  "EmployerContributionPaymentOfHolidayPayBalanceAccountId",
  "EmployerContributionResultAccountId",
  "EmployerContributionRule",
  "EmploymentType",
  "EnableFlexTimePayout",
  "FinancialActivityAllottedHolidayPayBalanceAccountId",
  "FinancialActivityAllottedHolidayPayResultAccountId",
  "FinancialActivityPaymentOfHolidayPayAccountId",
  "FinancialActivityPaymentOfHolidayPayBalanceAccountId",
  "FinancialActivityTaxBalanceAccountId",
  "FinancialActivityTaxResultAccountId",
  "FullTimeHoursPerWeek",
  "HolidayPayAbove60BalanceAccountId",
  "HolidayPayAbove60Percentage",
  "HolidayPayAbove60ResultAccountId",
  "HolidayPayBalanceAccountId",
  "HolidayPayPercentage",
  "HolidayPayResultAccountId",
  "HoursPerYearFno",
  "IncludeTimeTransactionsFromDate",
  "LimitHolidayPayAbove60To6G",
  "MergeImportedSalaryLines",
  "MonthlyPayDay",
  "NegativeFlextimePayItemId",
  "NumberOfHolidays",
  "NumberOfHolidaysAbove60",
  "OutstandingSalaryBalanceAccountId",
  "OwedTaxedBalanceAccountId",
  "PayslipDeliveryType",
  "PayslipLanguageType",
  "PayslipPasswordType",
  "PayslipSendScheduleType",
  "PensionAgeFno",
  "PensionSchemesCount",
  "PositiveFlextimePayItemId",
  "PostVoucherOnK27ImportFromNav",
  "PostVoucherOnK27ImportFromNavAccountId",
  "RemunerationPeriod",
  "RemunerationType",
  "SalaryPaymentBankAccountId",
  "ShowCommentsOnPayslip",
  "ShowHolidayPayEarnedCurrentYearOnPayslip",
  "ShowHolidayPayEarnedLastYearOnPayslip",
  "ShowLogoOnPayslip",
  "ShowPayItemsOnPayslip",
  "ShowProjectOnPayslip",
  "SickPayRefundPayItemId",
  "SuggestedAccrualDate",
  "TaxDeductionBankAccountId",
  "TaxDeductionBankGuarantee",
  "TaxRule",
  "WorkingHoursArrangement",
] as const;

/** `PensionSchemeDto` (GET only). */
export const PENSION_SCHEME_DTO_FIELDS = [
  "IsActive",
  "PensionProviderName",
  "PensionProviderOrganizationNo",
] as const;

/** `EmployeePayrollSettingsDto` (GET/PATCH only, no body creates it). */
export const EMPLOYEE_PAYROLL_SETTINGS_DTO_FIELDS = [
  "HolidayPayAbove60Percentage",
  "HolidayPayPercentage",
  "LimitHolidayPayAbove60To6G",
  "NumberOfHolidays",
  "NumberOfHolidaysAbove60",
  "OmitECOnHolidayPayProvision",
  "PayslipDeliveryType",
  "PayslipEmailAddress",
  "PayslipLanguageType",
  "RemunerationPeriodType",
] as const;

/** `EmployeePensionSettingsDto` (GET/PATCH only, no body creates it). */
export const EMPLOYEE_PENSION_SETTINGS_DTO_FIELDS = [
  "FnoStatus",
  "FnoStatusPercentage",
  "HoursPerYearFno",
  "IncludeInFnoPensionReport",
  "IsReceivingAfp",
  "IsUnfitForWork",
  "PensionAgeFno",
] as const;
