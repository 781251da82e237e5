/**
 * @module
 * Employments of API v2 and the lines that hang off an employment (FTE percentages, salaries, fixed
 * salaries, leaves, layoffs), and salary lines for the next payroll. Shared by the gateway and the
 * sandbox so both refuse the same input in the same words; employees themselves are in
 * `employees.ts`, and the response shapes are the sandbox's
 * (`sandbox/src/resources/fields/payroll.ts`).
 */
import { z } from "zod";
import { checkOrder, countryCode, enumCI, int64, isoDate, opt, percentage } from "./schema-kit";

/**
 * Form of an employment (`EmploymentFormType`); the three "…HiredOut"/"…Coverstaff" forms exist
 * from 2025.
 */
const EmploymentFormType = enumCI([
  "Permanent",
  "Temporary",
  "PermanentEmploymentAndHiredOut",
  "TemporaryEmploymentAndHiredOut",
  "TemporaryEmploymentAsOnCallCoverstaff",
]);

/** `EmploymentSpecificationType`: a cross-border commuter may only be taxed in FI or SE. */
const EmploymentSpecificationType = enumCI(["None", "CrossBorderCommuter"]);

/** Type of employment as reported in the a-melding (`EmploymentType`). */
const EmploymentType = enumCI(["Ordinary", "Maritime", "FreelancersEtc", "PensionEtc"]);

/** Why an employment ended (`EndDateReasonType`); must accompany an end date. */
const EndDateReasonType = enumCI([
  "EmploymentRelationshipShouldNeverHaveBeenReported",
  "EmployerHasDismissedTheEmployee",
  "EmployeeHasResigned",
  "ChangeOfPayrollSystemOrAccountant",
  "ChangeOfOrganizationStructureOrChangedJobInternally",
  "ContractCommitmentOrTemporaryEmploymentExpired",
]);

/** `TaxRuleType` of an employment or a salary line. */
const TaxRuleType = enumCI([
  "Ordinary",
  "Svalbard",
  "JanMayenAndDependencies",
  "SpecialAllowanceForSeafarers",
  "TaxFreeOrganisation",
]);

/** `WorkingHoursArrangementType` of an employment. */
const WorkingHoursArrangementType = enumCI([
  "NonShift",
  "SemiContinuousShift",
  "ContinuousShift",
  "ShiftWork",
  "Offshore",
  "OtherShifts",
]);

/** `CommuterPersonType` of a salary line. */
const CommuterPersonType = enumCI([
  "ForeignCommuterWithTaxCardWithoutStandardDeduction",
  "ForeignerWithResidenceInNorway",
]);

/** `DeductionType` of a salary line: a fixed amount or a percentage of the start amount. */
const DeductionType = enumCI(["Amount", "Percent"]);

/** `TaxDeductionType` of a fixed salary line or a pay item. */
const TaxDeductionType = enumCI(["NoTax", "Percentage", "TaxTable"]);

/** `SalaryRemunerationType` of an employment salary. */
const SalaryRemunerationType = enumCI(["Commission", "FixedWage", "HourlyWage"]);

/** `LeaveType` of an employment leave. */
const LeaveType = enumCI([
  "EducationalNonStatutory",
  "EducationalStatutory",
  "Maternity",
  "Military",
  "OtherNonStatutory",
  "OtherStatutory",
]);

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
      ctx.addIssue({
        code: "custom",
        path: ["EndDateReason"],
        message: "EndDateReason is required when EndDate is set",
      });
    }
    checkOrder(ctx, e.StartDate, e.EndDate, "StartDate", "EndDate");
    const country = e.TaxCountryCode?.toUpperCase();
    if (
      e.EmploymentSpecification === "CrossBorderCommuter" &&
      country &&
      country !== "FI" &&
      country !== "SE"
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["TaxCountryCode"],
        message:
          "TaxCountryCode can only be FI or SE when EmploymentSpecification is CrossBorderCommuter",
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

/**
 * `EmploymentSalaryPostDto`: the hourly rate of a fixed wage is derived by the server when omitted.
 */
export const EmploymentSalaryPost = z.strictObject({
  AnnualSalary: opt(z.number().nonnegative()),
  FromDate: isoDate,
  HourlyRate: opt(z.number().nonnegative()),
  RemunerationType: SalaryRemunerationType,
});
export type EmploymentSalaryPost = z.output<typeof EmploymentSalaryPost>;

/**
 * Fields a fixed salary line and a salary line share; which of them matter depends on the pay item.
 */
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

type LineRules = {
  FromDate?: string | null;
  ToDate?: string | null;
  MinAmount?: number | null;
  MaxAmount?: number | null;
};

/**
 * Rules a salary line carries whatever its pay item: a period that runs forward, a sane trade-union
 * band.
 */
function checkLine(l: LineRules, ctx: z.RefinementCtx) {
  checkOrder(ctx, l.FromDate, l.ToDate, "FromDate", "ToDate");
  if (l.MinAmount != null && l.MaxAmount != null && l.MaxAmount < l.MinAmount) {
    ctx.addIssue({
      code: "custom",
      path: ["MaxAmount"],
      message: `MaxAmount (${l.MaxAmount}) is below MinAmount (${l.MinAmount})`,
    });
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

function checkAbsence(a: AbsenceRules, ctx: z.RefinementCtx) {
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
