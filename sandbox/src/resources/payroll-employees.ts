/**
 * @module
 * `/Employees`: employees are contacts (their Id comes from the client's contact id space),
 * numbered from the employee sub-ledger series, with unique external references,
 * Department/Location/manager references where Id wins over Code, and the API's privacy rule that
 * national and international id numbers (and gender) read back as "hidden". Also the payout bank
 * accounts of an employee.
 */
import { z } from "zod";
import { EmployeePost } from "../../../shared/v2/employees";
import { int64 } from "../../../shared/v2/schema-kit";
import { fail, ok, problems, type Ctx, type Handler } from "../engine/call";
import { filter } from "../engine/filters";
import { resourceHandlers, type ResourceSpec } from "../engine/resource";
import type { Dto } from "../engine/store";
import type { Problem } from "../lib/problem";
import { EMPLOYEE_DTO_FIELDS } from "./fields/payroll";
import { KIND, afterwards, employeeOf, patched, reshaped, withoutNulls } from "./payroll-shared";
import { contactAddress, contactFilters } from "./contacts-core";
import { SERIES } from "./seed";

const spec: ResourceSpec = {
  path: "/Employees",
  itemParam: "employeeId",
  entity: "Employee",
  post: EmployeePost,
  fields: EMPLOYEE_DTO_FIELDS,
  // The body names the series to number from (read below); EmployeeDto does not show it.
  omit: ["SubLedgerNumberSeriesId"],
  filters: [
    ...contactFilters("employee"),
    // Not in the published document; the newer API filters employees by their id numbers, one or a
    // comma list.
    filter("nationalIdNumber", "NationalIdNumber", "eq"),
    filter("nationalIdNumbers", "NationalIdNumber", "strings"),
    filter("internationalIdNumber", "InternationalIdNumber", "eq"),
    filter("internationalIdNumbers", "InternationalIdNumber", "strings"),
  ],
  refs: [
    { id: "DepartmentId", code: "DepartmentCode", kind: "Department", entity: "Department" },
    { id: "LocationId", code: "LocationCode", kind: "Location", entity: "Location" },
    {
      id: "ManagerEmployeeId",
      code: "ManagerEmployeeNo",
      kind: KIND.employee,
      entity: "Employee",
      by: "Number",
    },
  ],
  numbered: { field: "Number", first: SERIES.Employee.from, last: SERIES.Employee.to },
  // "Unique within each class of Contacts": among employees, whatever customers or suppliers use.
  unique: ["Number", "ExternalNumber", "ExternalImportReference"],
  label: "contact",
  derive: defaults,
  check: rules,
  inUse,
};

/**
 * Server-set parts: contact timestamps, the sub-ledger account, and the address as a
 * ContactAddressDto.
 */
function defaults(dto: Dto, ctx: Ctx): Dto {
  const prior = ctx.store.get(KIND.employee, String(dto.Id))?.dto;
  const at = ctx.now.toISOString();
  return {
    ContactGroupIds: dto.ContactGroupIds ?? [],
    IsArchived: dto.IsArchived ?? false,
    InternationalIdReportToAltinn: dto.InternationalIdReportToAltinn ?? false,
    MailAddress: contactAddress(
      dto.MailAddress as Dto | null,
      prior?.MailAddress as Dto | undefined,
      ctx,
    ),
    SubledgerAccountId: dto.SubledgerAccountId ?? ctx.store.nextId(),
    ContactCreatedDateTimeOffset: dto.ContactCreatedDateTimeOffset ?? at,
    EmployeeCreatedDateTimeOffset: dto.EmployeeCreatedDateTimeOffset ?? at,
  };
}

function rules(dto: Dto, ctx: Ctx): Problem | null {
  const seriesId = dto.SubLedgerNumberSeriesId;
  if (typeof seriesId === "string") {
    const series = ctx.store.get("SubLedgerNumberSeries", seriesId);
    if (!series) return problems.notFound("SubLedgerNumberSeries", seriesId);
    const s = series.dto;
    if (s.SubLedgerNumberSeriesType !== "Employee")
      return problems.validation(
        "Employee",
        `Sub-ledger number series ${seriesId} is not an employee series.`,
      );
    const n = dto.Number as number;
    if (n < (s.FromInclusive as number) || n > (s.ToInclusive as number)) {
      return problems.validation(
        "Employee",
        `Number ${n} is outside the number series ${String(s.FromInclusive)}-${String(s.ToInclusive)}.`,
      );
    }
  }
  const groups = (dto.ContactGroupIds as number[] | null) ?? [];
  const missing = groups.filter((g) => !ctx.store.get("ContactGroup", g));
  if (missing.length > 0) return groupsNotFound(missing);
  if (dto.ManagerEmployeeId !== null && dto.ManagerEmployeeId === dto.Id)
    return problems.validation("Employee", "An employee cannot be their own manager.");
  return null;
}

function groupsNotFound(ids: number[]): Problem {
  return {
    status: 404,
    title: "Object(s) not found",
    detail: `Could not find contact group(s) with id = ${ids.join(", ")}.`,
  };
}

/** Ledger entries, employments, salary lines and reports make an employee part of the history. */
function inUse(id: string, ctx: Ctx): string | null {
  if (ctx.store.all("Posting").some((p) => String(p.dto.ContactId) === id))
    return "It has ledger entries.";
  const employments = ctx.store.all(KIND.employment, id).length;
  if (employments > 0) return `It has ${employments} employment(s).`;
  const lines = ctx.store
    .all(KIND.salaryLine)
    .filter((r) => String(r.dto.EmployeeId) === id).length;
  if (lines > 0) return `It has ${lines} salary line(s).`;
  const reports = ctx.store
    .all(KIND.employee)
    .filter((r) => String(r.dto.ManagerEmployeeId) === id).length;
  if (reports > 0) return `It is the manager of ${reports} employee(s).`;
  return null;
}

/**
 * Without the special privilege the API grants on request, id numbers read back as 'hidden' when
 * set and gender as Hidden; the sandbox never holds that privilege, so integrations meet what most
 * will.
 */
export function masked(dto: Dto): Dto {
  const out = { ...dto };
  for (const f of ["NationalIdNumber", "InternationalIdNumber"])
    if (out[f] !== null && out[f] !== undefined) out[f] = "hidden";
  if ("Gender" in out) out.Gender = "Hidden";
  return out;
}

const base = resourceHandlers(spec);

/** The employee's own sub-records go with it. */
const remove = afterwards(base["DELETE /Employees/{employeeId}"] as Handler, (ctx, reply) => {
  const id = ctx.call.params.employeeId ?? "";
  ctx.store.removeChildren(KIND.hourlyRate, id);
  ctx.store.remove(KIND.payrollSettings, id);
  ctx.store.remove(KIND.pensionSettings, id);
  return { ok: true, value: reply };
});

/** What `PATCH /Employees/{id}/BankAccounts` may set (EmployeeBankAccountsPatchDto). */
const BankAccountsWritable = z.strictObject({
  ExpenseBankAccountId: int64.positive().nullish(),
  SalaryBankAccountId: int64.positive().nullish(),
  TravelExpenseBankAccountId: int64.positive().nullish(),
});

/** Payout accounts must be bank accounts of the employee's own contact. */
const patchBankAccounts: Handler = (ctx) => {
  const employee = employeeOf(ctx);
  if (!employee.ok) return employee;
  const e = employee.value;
  const view = withoutNulls(
    Object.fromEntries(Object.keys(BankAccountsWritable.shape).map((k) => [k, e.dto[k]])),
  );
  const next = patched(
    ctx,
    view,
    BankAccountsWritable,
    "Employee bank accounts",
    "EmployeeBankAccountsPatchDto",
  );
  if (!next.ok) return next;
  const dto: Dto = { ...e.dto };
  const given: Record<string, number | null | undefined> = next.value;
  // A removed property clears that payout account.
  for (const field of Object.keys(BankAccountsWritable.shape)) {
    const value = given[field] ?? null;
    dto[field] = value;
    if (value === null) continue;
    const account = ctx.store.get("ContactBankAccount", value);
    if (!account) return fail(problems.notFound("Contact bank account", value));
    if (account.parent !== e.id && String(account.dto.ContactId) !== e.id) {
      return fail(
        problems.validation(
          "Employee bank accounts",
          `${field}: bank account with id = ${value} does not belong to the employee.`,
        ),
      );
    }
  }
  dto.LastChangedDateTimeOffset = ctx.now.toISOString();
  ctx.store.put(KIND.employee, e.id, dto, { parent: e.parent, owner: e.owner });
  return ok(masked(dto));
};

const hide = (h: Handler | undefined) => reshaped(h as Handler, masked);

export const employeeHandlers: Record<string, Handler> = {
  "GET /Employees": hide(base["GET /Employees"]),
  "POST /Employees": hide(base["POST /Employees"]),
  "GET /Employees/{employeeId}": hide(base["GET /Employees/{employeeId}"]),
  "PATCH /Employees/{employeeId}": hide(base["PATCH /Employees/{employeeId}"]),
  "DELETE /Employees/{employeeId}": remove,
  "PATCH /Employees/{employeeId}/BankAccounts": patchBankAccounts,
};
