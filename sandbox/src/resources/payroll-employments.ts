/**
 * @module
 * Employments (the employment relationships reported in the a-melding) and the lines under one: FTE
 * percentages, salaries, fixed salaries, leaves and layoffs. These endpoints word their problems as
 * "Employment … error(s)", an employment keeps counts of its lines, only one employment of an
 * employee is the default, and the last salary or FTE line of an employment cannot be deleted.
 */
import type { z } from "zod";
import {
  EmploymentFixedSalaryPost,
  EmploymentFtePercentagePost,
  EmploymentLayoffPost,
  EmploymentLeavePost,
  EmploymentPost,
  EmploymentSalaryPost,
} from "../../../shared/v2/payroll";
import { fail, listReply, problems, type Ctx, type Handler, type Reply } from "../engine/call";
import { filter, predicateOf } from "../engine/filters";
import { resourceHandlers, type ResourceSpec } from "../engine/resource";
import { shape, type Dto } from "../engine/store";
import type { Problem, Result } from "../lib/problem";
import { enterprises } from "./admin/reference";
import {
  EMPLOYMENT_DTO_FIELDS,
  EMPLOYMENT_FIXED_SALARY_DTO_FIELDS,
  EMPLOYMENT_FTE_PERCENTAGE_DTO_FIELDS,
  EMPLOYMENT_LAYOFF_DTO_FIELDS,
  EMPLOYMENT_LEAVE_DTO_FIELDS,
  EMPLOYMENT_LIGHT_DTO_FIELDS,
  EMPLOYMENT_SALARY_DTO_FIELDS,
} from "./fields/payroll";
import { KIND, afterwards, lineDefaults, lineRefProblem, reworded } from "./payroll-shared";

/** One kind of line under an employment. */
interface LineSpec {
  segment: string;
  idParam: string;
  kind: string;
  /** How the API names one line in a detail. */
  entity: string;
  post: z.ZodObject;
  fields: readonly string[];
  idType: "int" | "uuid";
  /** The employment's property that counts these lines. */
  count: string;
  /** The API's words when the last line of this kind may not go ("the last … line"). */
  lastOne?: string;
  derive?: (dto: Dto, ctx: Ctx) => Dto;
  check?: (dto: Dto, ctx: Ctx) => Problem | null;
}

const LINES: readonly LineSpec[] = [
  {
    segment: "FtePercentages",
    idParam: "ftePercentageId",
    kind: "EmploymentFtePercentage",
    entity: "Full-time equivalent (FTE) percentage (line)",
    post: EmploymentFtePercentagePost,
    fields: EMPLOYMENT_FTE_PERCENTAGE_DTO_FIELDS,
    idType: "int",
    count: "FtePercentageCount",
    lastOne: "FTE percentage",
  },
  {
    segment: "Salaries",
    idParam: "salaryId",
    kind: "EmploymentSalary",
    entity: "Salary (line)",
    post: EmploymentSalaryPost,
    fields: EMPLOYMENT_SALARY_DTO_FIELDS,
    idType: "int",
    count: "SalaryCount",
    lastOne: "salary",
    derive: hourlyRateOfFixedWage,
    check: (dto) => {
      if (dto.RemunerationType === "FixedWage" && dto.AnnualSalary === null)
        return problems.validation("Employment", "AnnualSalary is required for a fixed wage.");
      if (dto.RemunerationType === "HourlyWage" && dto.HourlyRate === null)
        return problems.validation("Employment", "HourlyRate is required for an hourly wage.");
      return null;
    },
  },
  {
    segment: "FixedSalaries",
    idParam: "fixedSalaryId",
    kind: "EmploymentFixedSalary",
    entity: "Fixed salary (line)",
    post: EmploymentFixedSalaryPost,
    fields: EMPLOYMENT_FIXED_SALARY_DTO_FIELDS,
    idType: "uuid",
    count: "FixedSalaryCount",
    derive: (dto) => ({ ...lineDefaults(dto), IsActive: dto.IsActive ?? true }),
    check: (dto, ctx) => lineRefProblem(dto, ctx, "Employment"),
  },
  {
    segment: "Leaves",
    idParam: "leaveId",
    kind: "EmploymentLeave",
    entity: "Leave (line)",
    post: EmploymentLeavePost,
    fields: EMPLOYMENT_LEAVE_DTO_FIELDS,
    idType: "uuid",
    count: "LeaveCount",
    derive: absenceDefaults,
  },
  {
    segment: "Layoffs",
    idParam: "layoffId",
    kind: "EmploymentLayoff",
    entity: "Layoff (line)",
    post: EmploymentLayoffPost,
    fields: EMPLOYMENT_LAYOFF_DTO_FIELDS,
    idType: "uuid",
    count: "LayoffCount",
    derive: absenceDefaults,
  },
];

/** The employment the path's `employmentId` names (already checked to exist by the engine). */
function employmentOf(ctx: Ctx): Dto | undefined {
  return ctx.store.get(KIND.employment, ctx.call.params.employmentId ?? "")?.dto;
}

/** A fixed wage without an hourly rate gets annual salary / (full-time hours per week × 52). */
function hourlyRateOfFixedWage(dto: Dto, ctx: Ctx): Dto {
  const hours = Number(employmentOf(ctx)?.FullTimeHoursPerWeek ?? 0);
  if (
    dto.RemunerationType !== "FixedWage" ||
    dto.HourlyRate !== null ||
    typeof dto.AnnualSalary !== "number" ||
    hours <= 0
  )
    return {};
  return { HourlyRate: Math.round((dto.AnnualSalary / (hours * 52)) * 100) / 100 };
}

function absenceDefaults(dto: Dto): Dto {
  return {
    AdjustFixedWage: dto.AdjustFixedWage ?? false,
    EndedAndReported: dto.EndedAndReported ?? false,
    ExcludeEmployeeFromPayroll: dto.ExcludeEmployeeFromPayroll ?? false,
  };
}

/**
 * The API's titles on these endpoints; a missing pay item, account or department keeps the general
 * 404.
 */
function employmentWording(ownEntities: readonly string[]) {
  const own = ["Employment ", "Employee ", ...ownEntities.map((e) => `${e} `)];
  return (p: Problem): Problem => {
    if (
      p.status === 404 &&
      p.title === "Object(s) not found" &&
      own.some((o) => p.detail?.startsWith(o))
    )
      return { ...p, title: "Employment not found error(s)" };
    if (p.status === 400 && p.title.endsWith(" validation error(s)"))
      return { ...p, title: "Employment validation error(s)" };
    if (p.status === 409 && p.title.endsWith(" conflict"))
      return { ...p, title: "Employment conflict error(s)" };
    return p;
  };
}

const employment: ResourceSpec = {
  path: "/Employees/{employeeId}/Employments",
  itemParam: "employmentId",
  entity: "Employment",
  kind: KIND.employment,
  post: EmploymentPost,
  fields: EMPLOYMENT_DTO_FIELDS,
  parent: { param: "employeeId", kind: KIND.employee, entity: "Employee", field: "EmployeeId" },
  derive: (dto) => ({
    EmploymentSpecification: dto.EmploymentSpecification ?? "None",
    TaxRule: dto.TaxRule ?? "Ordinary",
    EndedAndReported: dto.EndedAndReported ?? false,
    ...Object.fromEntries(LINES.map((l) => [l.count, dto[l.count] ?? 0])),
  }),
  // An employment is reported under one of the client's enterprises (the default one is created on
  // first use).
  check: (dto, ctx) =>
    enterprises(ctx.store, ctx.now).some((e) => e.id === String(dto.EnterpriseId))
      ? null
      : problems.notFound("Enterprise", String(dto.EnterpriseId)),
};

/** An employee has one default employment: a new default takes the mark from the others. */
function oneDefault(ctx: Ctx, reply: Reply): Result<Reply> {
  const dto = reply.json as Dto;
  if (dto.IsDefault !== true) return { ok: true, value: reply };
  for (const r of ctx.store.all(KIND.employment, String(dto.EmployeeId))) {
    if (r.id !== String(dto.Id) && r.dto.IsDefault === true)
      ctx.store.put(
        KIND.employment,
        r.id,
        { ...r.dto, IsDefault: false },
        { parent: r.parent, owner: r.owner },
      );
  }
  return { ok: true, value: reply };
}

/** The lines of an employment go with it. */
function dropLines(ctx: Ctx, reply: Reply): Result<Reply> {
  for (const l of LINES) ctx.store.removeChildren(l.kind, ctx.call.params.employmentId ?? "");
  return { ok: true, value: reply };
}

/**
 * Keeps the employment's line counts; its LastChangedDateTimeOffset is unaffected, as the API
 * documents.
 */
function recount(ctx: Ctx, reply: Reply): Result<Reply> {
  const r = ctx.store.get(KIND.employment, ctx.call.params.employmentId ?? "");
  if (r) {
    const counts = Object.fromEntries(
      LINES.map((l) => [l.count, ctx.store.all(l.kind, r.id).length]),
    );
    ctx.store.put(
      KIND.employment,
      r.id,
      { ...r.dto, ...counts },
      { parent: r.parent, owner: r.owner },
    );
  }
  return { ok: true, value: reply };
}

function lineHandlers(l: LineSpec): Record<string, Handler> {
  const path = `/Employees/Employments/{employmentId}/${l.segment}`;
  const item = `${path}/{${l.idParam}}`;
  const base = resourceHandlers({
    path,
    itemParam: l.idParam,
    entity: l.entity,
    kind: l.kind,
    idType: l.idType,
    post: l.post,
    fields: l.fields,
    parent: {
      param: "employmentId",
      kind: KIND.employment,
      entity: "Employment",
      field: "EmploymentId",
    },
    derive: (dto, ctx) => ({
      EmployeeId: employmentOf(ctx)?.EmployeeId ?? null,
      ...l.derive?.(dto, ctx),
    }),
    check: l.check ? (dto, ctx) => l.check?.(dto, ctx) ?? null : undefined,
  });
  const lastOne = l.lastOne;
  const remove: Handler = lastOne
    ? (ctx) => {
        const id = ctx.call.params[l.idParam] ?? "";
        const siblings = ctx.store.all(l.kind, ctx.call.params.employmentId ?? "");
        if (siblings.length === 1 && siblings[0]?.id === id) {
          return fail(
            problems.conflict(
              "Employment",
              `${l.entity} with id = ${id} is the last ${lastOne} line on the employment and thus cannot be deleted.`,
            ),
          );
        }
        return (base[`DELETE ${item}`] as Handler)(ctx);
      }
    : (base[`DELETE ${item}`] as Handler);
  const handlers: Record<string, Handler> = {
    [`GET ${path}`]: base[`GET ${path}`] as Handler,
    [`POST ${path}`]: afterwards(base[`POST ${path}`] as Handler, recount),
    [`GET ${item}`]: base[`GET ${item}`] as Handler,
    [`PATCH ${item}`]: base[`PATCH ${item}`] as Handler,
    [`DELETE ${item}`]: afterwards(remove, recount),
  };
  const word = employmentWording([l.entity]);
  return Object.fromEntries(Object.entries(handlers).map(([k, h]) => [k, reworded(h, word)]));
}

/** `GET /Employees/Employments`: every employment of the client, slimmed to EmploymentLightDto. */
const listAll: Handler = (ctx) => {
  const pred = predicateOf(
    [
      filter("employmentForm", "EmploymentForm", "eq"),
      filter("lastChangedDateTimeOffsetGreaterThan", "LastChangedDateTimeOffset", "after"),
    ],
    ctx.q,
  );
  if (!pred.ok) return pred;
  const active = ctx.q.get("activeemployments")?.trim().toLowerCase();
  if (active && active !== "true" && active !== "false")
    return fail(problems.cast("activeEmployments must be true or false."));
  // Active: no end date, or one in the future; EndedAndReported does not matter, as the API
  // documents.
  const today = ctx.now.toISOString().slice(0, 10);
  const isActive = (d: Dto) => d.EndDate === null || String(d.EndDate) > today;
  const rows = ctx.store
    .all(KIND.employment)
    .map((r) => r.dto)
    .filter((d) => pred.value(d) && (!active || isActive(d) === (active === "true")))
    .map((d) => shape(EMPLOYMENT_LIGHT_DTO_FIELDS, d));
  return listReply(ctx, rows, EMPLOYMENT_LIGHT_DTO_FIELDS);
};

const base = resourceHandlers(employment);
const path = "/Employees/{employeeId}/Employments";
const item = `${path}/{employmentId}`;
const word = employmentWording([]);

export const employmentHandlers: Record<string, Handler> = {
  "GET /Employees/Employments": listAll,
  ...Object.fromEntries(
    Object.entries({
      [`GET ${path}`]: base[`GET ${path}`] as Handler,
      [`POST ${path}`]: afterwards(base[`POST ${path}`] as Handler, oneDefault),
      [`GET ${item}`]: base[`GET ${item}`] as Handler,
      [`PATCH ${item}`]: afterwards(base[`PATCH ${item}`] as Handler, oneDefault),
      [`DELETE ${item}`]: afterwards(base[`DELETE ${item}`] as Handler, dropLines),
    }).map(([k, h]) => [k, reworded(h, word)]),
  ),
  ...(Object.assign({}, ...LINES.map(lineHandlers)) as Record<string, Handler>),
};
