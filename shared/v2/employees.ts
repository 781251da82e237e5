/**
 * @module
 * Employees of API v2: the body of `POST /Employees`, of their hourly rates, and what a PATCH may
 * set in an employee's payroll and pension settings. Shared by the gateway and the sandbox so both
 * refuse the same input in the same words; the response shapes are the sandbox's
 * (`sandbox/src/resources/fields/payroll.ts`).
 */
import { z } from "zod";
import { ContactAddressPost } from "./addresses";
import { Gender, InternationalIdType } from "./enums";
import { checkOrder, countryCode, enumCI, int64, isoDate, opt, percentage } from "./schema-kit";

/** `PayslipDeliveryType` of an employee's payroll settings. */
const PayslipDeliveryType = enumCI(["App", "EmailAndApp", "PrintAndApp"]);

/** `PayslipLanguageType`; the API says `Unknown` should never be seen, but it is a member. */
const PayslipLanguageType = enumCI(["Unknown", "En_US", "Nb_NO", "Nn_NO", "Sv_SE", "Da_DK"]);

/** `RemunerationPeriodType` of an employee's payroll settings. */
const RemunerationPeriodType = enumCI(["Monthly", "TwoWeeks"]);

/** `FnoStatusType` of an employee's pension settings. */
const FnoStatusType = enumCI(["Active", "AgreedLeave", "LaidOff", "Sick", "StatutoryLeave"]);

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

/**
 * `EmployeePostDto`. Number, ExternalNumber and ExternalImportReference uniqueness is the server's
 * job.
 */
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
          ctx.addIssue({
            code: "custom",
            path: [field],
            message: `${field} is required when InternationalIdReportToAltinn is true`,
          });
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

/**
 * What a PATCH on `/Employees/{id}/PayrollSettings` may set (`EmployeePayrollSettingsDto`, none of
 * it readOnly). Null means "use the client's general payroll settings".
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

/**
 * What a PATCH on `/Employees/{id}/PensionSettings` may set (`EmployeePensionSettingsDto`, none of
 * it readOnly).
 */
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
