/**
 * @module
 * Small pieces the payroll resources share: handler wrappers that reshape a reply or a refusal
 * (the payroll endpoints word some problems their own way), the employee a path names, and the
 * JSON Patch of a resource that has no body of its own (settings, bank accounts).
 */
import type { z } from "zod";
import { JsonPatch } from "../../../shared/v2/json-patch";
import { fail, intParam, problems, type Ctx, type Handler, type Reply } from "../engine/call";
import type { Dto, Stored } from "../engine/store";
import { applyPatch } from "../lib/json-patch";
import { schemaProblem, type Problem, type Result } from "../lib/problem";

/** Storage kinds of the payroll area. */
export const KIND = {
  employee: "Employee",
  hourlyRate: "EmployeeHourlyRate",
  payrollSettings: "EmployeePayrollSettings",
  pensionSettings: "EmployeePensionSettings",
  employment: "Employment",
  salaryLine: "SalaryLine",
  payItem: "PayItem",
} as const;

/** Runs `handler` and passes a successful JSON reply through `shape` (each item, for a list). */
export function reshaped(handler: Handler, shape: (dto: Dto, ctx: Ctx) => Dto): Handler {
  return (ctx) => {
    const r = handler(ctx);
    if (!r.ok || r.value.json === undefined) return r;
    const json = r.value.json;
    const out = Array.isArray(json) ? json.map((d: Dto) => shape(d, ctx)) : shape(json as Dto, ctx);
    return { ok: true, value: { ...r.value, json: out } };
  };
}

/** Runs `handler` and rewrites the problem it answers with, if any. */
export function reworded(handler: Handler, word: (p: Problem) => Problem): Handler {
  return (ctx) => {
    const r = handler(ctx);
    return r.ok ? r : fail(word(r.problem));
  };
}

/**
 * Runs `after` once `handler` has succeeded, inside the same transaction; its reply may replace the
 * handler's. Not named `then`: a module exporting `then` is a thenable, and awaiting its import
 * hangs.
 */
export function afterwards(
  handler: Handler,
  after: (ctx: Ctx, reply: Reply) => Result<Reply>,
): Handler {
  return (ctx) => {
    const r = handler(ctx);
    return r.ok ? after(ctx, r.value) : r;
  };
}

/** The employee the path parameter `param` names, or the API's 404. */
export function employeeOf(ctx: Ctx, param = "employeeId"): Result<Stored> {
  const id = intParam(ctx, param);
  if (!id.ok) return id;
  const r = ctx.store.get(KIND.employee, id.value);
  return r ? { ok: true, value: r } : fail(problems.notFound("Employee", id.value));
}

/**
 * Applies the call's JSON Patch to `view` and validates the outcome with `schema`. `entity` words
 * the refusal of an operation that cannot be applied, `dtoName` names the patch DTO as the API
 * does.
 */
export function patched<T extends z.ZodType>(
  ctx: Ctx,
  view: Dto,
  schema: T,
  entity: string,
  dtoName: string,
): Result<z.output<T>> {
  const doc = JsonPatch.safeParse(ctx.call.body);
  if (!doc.success) return fail(schemaProblem(doc.error, "patch"));
  const applied = applyPatch(view, doc.data);
  if (!applied.ok)
    return fail(
      problems.validation(entity, `${dtoName}: operation ${applied.index}: ${applied.message}.`),
    );
  const parsed = schema.safeParse(applied.value);
  if (!parsed.success) return fail(schemaProblem(parsed.error));
  return { ok: true, value: parsed.data };
}

/** `dto` without its null properties: the document a JSON Patch sees (null reads as "not set"). */
export function withoutNulls(dto: Dto): Dto {
  return Object.fromEntries(Object.entries(dto).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * References a salary line or a fixed salary line may carry, checked by Id (they have no codes).
 */
const LINE_REFS = [
  { field: "DepartmentId", kind: "Department", entity: "Department" },
  { field: "ProjectId", kind: "Project", entity: "Project" },
  { field: "VatCodeId", kind: "VatCode", entity: "VatCode" },
] as const;

/** Contacts whose sub-ledger accounts a line may post to instead of a general ledger account. */
const LEDGER_OWNERS = ["Employee", "Customer", "Supplier"] as const;

/**
 * Why a (fixed) salary line's references do not hold, if they do not: the pay item must exist and
 * be active.
 */
export function lineRefProblem(dto: Dto, ctx: Ctx, entity: string): Problem | null {
  const payItem = ctx.store.get(KIND.payItem, String(dto.PayItemId));
  if (!payItem) return problems.notFound("Pay item", String(dto.PayItemId));
  if (payItem.dto.IsActive === false)
    return problems.validation(
      entity,
      `Pay item with id = ${String(dto.PayItemId)} is inactive and cannot be used.`,
    );
  for (const field of ["AccountId", "OppositeAccountId"] as const) {
    const id = dto[field];
    if (id === null || id === undefined) continue;
    const known =
      ctx.store.get("GeneralLedgerAccount", String(id)) ??
      LEDGER_OWNERS.flatMap((k) => ctx.store.all(k)).find((r) => r.dto.SubledgerAccountId === id);
    if (!known) return problems.notFound("GeneralLedgerAccount", String(id));
  }
  for (const ref of LINE_REFS) {
    const id = dto[ref.field];
    if (id !== null && id !== undefined && !ctx.store.get(ref.kind, String(id)))
      return problems.notFound(ref.entity, String(id));
  }
  return null;
}

/** Pay item ids are stored as the pay items are: lowercase. */
export function lineDefaults(dto: Dto): Dto {
  return {
    PayItemId: typeof dto.PayItemId === "string" ? dto.PayItemId.toLowerCase() : dto.PayItemId,
  };
}
