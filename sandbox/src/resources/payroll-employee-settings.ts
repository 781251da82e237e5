/**
 * @module
 * What hangs off one employee besides employments: the payroll and pension settings (one each, read
 * and changed, never created: they inherit from the client's payroll settings until overridden) and
 * the sets of hourly rates, each valid from its date until the next set starts.
 */
import type { z } from "zod";
import {
  EmployeeHourlyRatePost,
  EmployeePayrollSettingsWritable,
  EmployeePensionSettingsWritable,
} from "../../../shared/v2/employees";
import { fail, listReply, ok, problems, type Ctx, type Handler, type Reply } from "../engine/call";
import { parentOf, resourceHandlers, type ResourceSpec } from "../engine/resource";
import type { Dto } from "../engine/store";
import type { Result } from "../lib/problem";
import {
  EMPLOYEE_HOURLY_RATE_DTO_FIELDS,
  EMPLOYEE_PAYROLL_SETTINGS_DTO_FIELDS,
  EMPLOYEE_PENSION_SETTINGS_DTO_FIELDS,
} from "./fields/payroll";
import { KIND, afterwards, employeeOf, patched, withoutNulls } from "./payroll-shared";
import { payrollSettings } from "./payroll-settings";

interface SettingsSpec {
  kind: string;
  entity: string;
  dtoName: string;
  schema: z.ZodObject;
  fields: readonly string[];
  /** The values the employee has while nothing is overridden. */
  inherited: (ctx: Ctx, employee: Dto) => Dto;
}

/** The stored overrides over what is inherited: the settings as the employee has them. */
function effective(spec: SettingsSpec, ctx: Ctx, employee: { id: string; dto: Dto }): Dto {
  const overrides = ctx.store.get(spec.kind, employee.id)?.dto ?? {};
  const inherited = spec.inherited(ctx, employee.dto);
  return Object.fromEntries(spec.fields.map((f) => [f, overrides[f] ?? inherited[f] ?? null]));
}

function settingsHandlers(path: string, spec: SettingsSpec): Record<string, Handler> {
  return {
    [`GET ${path}`]: (ctx) => {
      const e = employeeOf(ctx);
      return e.ok ? ok(effective(spec, ctx, e.value)) : e;
    },
    [`PATCH ${path}`]: (ctx) => {
      const e = employeeOf(ctx);
      if (!e.ok) return e;
      const next = patched(
        ctx,
        withoutNulls(effective(spec, ctx, e.value)),
        spec.schema,
        spec.entity,
        spec.dtoName,
      );
      if (!next.ok) return next;
      // Only what differs from the inherited value is an override, so a removed or equal value
      // follows the client's setting again.
      const inherited = spec.inherited(ctx, e.value.dto);
      const given = next.value as Dto;
      const overrides = Object.fromEntries(
        spec.fields.map((f) => [
          f,
          given[f] === undefined || given[f] === inherited[f] ? null : given[f],
        ]),
      );
      ctx.store.put(spec.kind, e.value.id, overrides, {
        parent: e.value.id,
        owner: ctx.call.integration,
      });
      return ok(effective(spec, ctx, e.value));
    },
  };
}

const payroll: SettingsSpec = {
  kind: KIND.payrollSettings,
  entity: "Employee payroll settings",
  dtoName: "EmployeePayrollSettingsPatchDto",
  schema: EmployeePayrollSettingsWritable,
  fields: EMPLOYEE_PAYROLL_SETTINGS_DTO_FIELDS,
  inherited: (ctx, employee) => {
    const s = payrollSettings(ctx);
    return {
      ...s,
      OmitECOnHolidayPayProvision: false,
      PayslipEmailAddress: employee.EmailAddress ?? null,
      RemunerationPeriodType: s.RemunerationPeriod,
    };
  },
};

const pension: SettingsSpec = {
  kind: KIND.pensionSettings,
  entity: "Employee pension settings",
  dtoName: "EmployeePensionSettingsPatchDto",
  schema: EmployeePensionSettingsWritable,
  fields: EMPLOYEE_PENSION_SETTINGS_DTO_FIELDS,
  inherited: (ctx) => {
    const s = payrollSettings(ctx);
    return {
      FnoStatus: "Active",
      FnoStatusPercentage: 100,
      HoursPerYearFno: s.HoursPerYearFno,
      IncludeInFnoPensionReport: true,
      IsReceivingAfp: false,
      IsUnfitForWork: false,
      PensionAgeFno: s.PensionAgeFno,
    };
  },
};

const rates: ResourceSpec = {
  path: "/Employees/{employeeId}/HourlyRates",
  itemParam: "hourlyRateId",
  entity: "Employee Hourly Rates",
  kind: KIND.hourlyRate,
  post: EmployeeHourlyRatePost,
  fields: EMPLOYEE_HOURLY_RATE_DTO_FIELDS,
  parent: { param: "employeeId", kind: KIND.employee, entity: "Employee" },
  check: (dto, ctx, self) => {
    const twin = ctx.store
      .all(KIND.hourlyRate, ctx.call.params.employeeId)
      .find((r) => r.id !== (self ?? String(dto.Id)) && r.dto.ValidFromDate === dto.ValidFromDate);
    return twin
      ? problems.validation(
          "Employee Hourly Rates",
          `A set of hourly rates already starts on ${String(dto.ValidFromDate)} (Id = ${twin.id}).`,
        )
      : null;
  },
};

/** Each set is valid until the next one starts: ValidToDate is the next set's ValidFromDate. */
function chain(ctx: Ctx, reply: Reply): Result<Reply> {
  const employeeId = ctx.call.params.employeeId ?? "";
  const all = ctx.store
    .all(KIND.hourlyRate, employeeId)
    .sort((a, b) => String(a.dto.ValidFromDate).localeCompare(String(b.dto.ValidFromDate)));
  all.forEach((r, i) => {
    const to = all[i + 1]?.dto.ValidFromDate ?? null;
    if (r.dto.ValidToDate !== to)
      ctx.store.put(
        KIND.hourlyRate,
        r.id,
        { ...r.dto, ValidToDate: to },
        { parent: r.parent, owner: r.owner },
      );
  });
  const json = reply.json as Dto | undefined;
  if (!json) return { ok: true, value: reply };
  const fresh = ctx.store.get(KIND.hourlyRate, String(json.Id));
  return { ok: true, value: { ...reply, json: fresh?.dto ?? json } };
}

/** `validNow=true` keeps the set in effect today. */
const listRates: Handler = (ctx) => {
  const parent = parentOf(rates, ctx);
  if (!parent.ok) return parent;
  const raw = ctx.q.get("validnow")?.trim().toLowerCase();
  if (raw && raw !== "true" && raw !== "false")
    return fail(problems.cast("validNow must be true or false."));
  const today = ctx.now.toISOString().slice(0, 10);
  const rows = ctx.store
    .all(KIND.hourlyRate, parent.value)
    .map((r) => r.dto)
    .filter(
      (d) =>
        raw !== "true" ||
        (String(d.ValidFromDate) <= today &&
          (d.ValidToDate === null || today < String(d.ValidToDate))),
    );
  return listReply(ctx, rows, [...Object.keys(rates.post.shape), ...rates.fields]);
};

const rateBase = resourceHandlers(rates);
const item = "/Employees/{employeeId}/HourlyRates/{hourlyRateId}";

export const employeeSettingsHandlers: Record<string, Handler> = {
  ...settingsHandlers("/Employees/{employeeId}/PayrollSettings", payroll),
  ...settingsHandlers("/Employees/{employeeId}/PensionSettings", pension),
  "GET /Employees/{employeeId}/HourlyRates": listRates,
  "POST /Employees/{employeeId}/HourlyRates": afterwards(
    rateBase["POST /Employees/{employeeId}/HourlyRates"] as Handler,
    chain,
  ),
  [`GET ${item}`]: rateBase[`GET ${item}`] as Handler,
  [`PATCH ${item}`]: afterwards(rateBase[`PATCH ${item}`] as Handler, chain),
  [`DELETE ${item}`]: afterwards(rateBase[`DELETE ${item}`] as Handler, chain),
};
