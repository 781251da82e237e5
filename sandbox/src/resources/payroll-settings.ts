/**
 * @module
 * The client's payroll reference data, all read-only through the API: the general payroll settings,
 * the pension schemes and the pay items. The seed stores pay items with their essentials only; the
 * rest of a PayItemDto is filled in here from what a standard Norwegian payroll sets for them.
 */
import { fail, listReply, ok, problems, uuidParam, type Ctx, type Handler } from "../engine/call";
import { filter, predicateOf } from "../engine/filters";
import { shape, type Dto } from "../engine/store";
import {
  PAY_ITEM_DTO_FIELDS,
  PAYROLL_SETTINGS_DTO_FIELDS,
  PENSION_SCHEME_DTO_FIELDS,
} from "./fields/payroll";
import { KIND } from "./payroll-shared";
import { SETTINGS } from "../engine/client-settings";

/** The id of the general ledger account numbered `no`, if the client has it. */
function accountId(ctx: Ctx, no: number): unknown {
  return ctx.store.findBy("GeneralLedgerAccount", "AccountNo", no)?.dto.Id ?? null;
}

/**
 * `PayrollSettingsDto`. The seed may not store one; the statutory Norwegian values (10.2 % holiday
 * pay, 2.3 % extra above 60, 25 + 5 days, 37.5 hour week) and the seeded accounts stand in for it.
 */
export function payrollSettings(ctx: Ctx): Dto {
  const primaryBank =
    ctx.store.all("ClientBankAccount").find((r) => r.dto.IsPrimaryAccount === true)?.dto.Id ?? null;
  const standard: Dto = {
    ...Object.fromEntries(PAYROLL_SETTINGS_DTO_FIELDS.map((f) => [f, null])),
    AddFinancialActivityTax: false,
    AllowAccrualOfWages: false,
    AllowDifferentRemunerationPeriodPerEmployee: false,
    DaysInWeekHolidayPay: "FiveDays",
    EmployerContributionResultAccountId: accountId(ctx, 5400),
    EmployerContributionRule: "GeneralIndustries",
    EmploymentType: "Ordinary",
    EnableFlexTimePayout: false,
    FullTimeHoursPerWeek: 37.5,
    HolidayPayAbove60Percentage: 2.3,
    HolidayPayPercentage: 10.2,
    HoursPerYearFno: 1950,
    LimitHolidayPayAbove60To6G: true,
    MergeImportedSalaryLines: false,
    MonthlyPayDay: 20,
    NumberOfHolidays: 25,
    NumberOfHolidaysAbove60: 5,
    OutstandingSalaryBalanceAccountId: accountId(ctx, 2930),
    OwedTaxedBalanceAccountId: accountId(ctx, 2600),
    PayslipDeliveryType: "EmailAndApp",
    PayslipLanguageType: "Nb_NO",
    PayslipPasswordType: "Last5DigitsOfSsn",
    PayslipSendScheduleType: "OnPaymentDate",
    PensionAgeFno: 67,
    PensionSchemesCount: ctx.store.all("PensionScheme").length,
    PostVoucherOnK27ImportFromNav: false,
    RemunerationPeriod: "Monthly",
    RemunerationType: "FixedWage",
    SalaryPaymentBankAccountId: primaryBank,
    ShowCommentsOnPayslip: true,
    ShowHolidayPayEarnedCurrentYearOnPayslip: true,
    ShowHolidayPayEarnedLastYearOnPayslip: true,
    ShowLogoOnPayslip: true,
    ShowPayItemsOnPayslip: true,
    ShowProjectOnPayslip: false,
    SuggestedAccrualDate: "None",
    TaxDeductionBankGuarantee: false,
    TaxRule: "Ordinary",
    WorkingHoursArrangement: "NonShift",
  };
  const stored = ctx.store.get(SETTINGS.payroll, "settings")?.dto ?? {};
  const known = new Set<string>(PAYROLL_SETTINGS_DTO_FIELDS);
  return {
    ...standard,
    ...Object.fromEntries(Object.entries(stored).filter(([k]) => known.has(k))),
  };
}

/**
 * What the API reports for the standard pay items, by code; other codes get the cash-salary
 * defaults.
 */
const BY_CODE: Record<string, Dto> = {
  "100": { BenefitDescription: "Fastloenn", ProcessingType: "FixedSalary" },
  "200": { BenefitDescription: "Timeloenn", ProcessingType: "HourlyWage" },
};

/** A stored pay item as a full `PayItemDto`. */
export function payItemDto(stored: Dto): Dto {
  const cash = stored.Benefit === undefined || stored.Benefit === "Cash";
  return {
    ...Object.fromEntries(PAY_ITEM_DTO_FIELDS.map((f) => [f, null])),
    Benefit: "Cash",
    BenefitDescription: "Annet",
    EmployerContributionBasis: cash,
    FnoReporting: "VariableSalary",
    FullTaxOnHalfTaxPayrolls: false,
    HolidayPayBasis: cash,
    IncludeInIncomeReport: true,
    IsActive: true,
    PensionBasis: cash,
    PostingType: "EmployeeLedgerAccount",
    ProcessingType: "QuantityAndRate",
    RoundingPrecision: "OneUnit",
    TaxDeduction: cash ? "TaxTable" : "NoTax",
    TradeUnionBasis: cash,
    ...BY_CODE[String(stored.Code)],
    ...stored,
  };
}

const PAY_ITEM_FILTERS = [
  filter("codes", "Code", "strings"),
  filter("createdDateTimeOffsetGreaterThan", "CreatedDateTimeOffset", "after"),
  filter("isActive", "IsActive", "bool"),
  filter("lastChangedDateTimeOffsetGreaterThan", "LastChangedDateTimeOffset", "after"),
];

const listPayItems: Handler = (ctx) => {
  const pred = predicateOf(PAY_ITEM_FILTERS, ctx.q);
  if (!pred.ok) return pred;
  return listReply(
    ctx,
    ctx.store
      .all(KIND.payItem)
      .map((r) => payItemDto(r.dto))
      .filter(pred.value),
    PAY_ITEM_DTO_FIELDS,
  );
};

const getPayItem: Handler = (ctx) => {
  const id = uuidParam(ctx, "id");
  if (!id.ok) return id;
  const r = ctx.store.get(KIND.payItem, id.value);
  return r ? ok(payItemDto(r.dto)) : fail(problems.notFound("Pay item", id.value));
};

const listPensionSchemes: Handler = (ctx) => {
  const rows = ctx.store.all("PensionScheme").map((r) => shape(PENSION_SCHEME_DTO_FIELDS, r.dto));
  return listReply(ctx, rows, PENSION_SCHEME_DTO_FIELDS);
};

export const payrollSettingsHandlers: Record<string, Handler> = {
  "GET /PayItems": listPayItems,
  "GET /PayItems/{id}": getPayItem,
  "GET /PayrollSettings": (ctx) => ok(payrollSettings(ctx)),
  "GET /PayrollSettings/PensionSchemes": listPensionSchemes,
};
