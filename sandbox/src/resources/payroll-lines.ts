/**
 * @module
 * `/SalaryLines`: one-off lines for the next payroll. An integration sees and changes only the
 * lines it created; another integration's line answers 404, as if it did not exist. The employee
 * and the pay item must exist (404), the pay item must be active, and an ExternalImportReference
 * can exist only once, which is what makes it a duplicate check.
 */
import { SalaryLinePost } from "../../../shared/v2/payroll";
import { fail, intParam, listReply, problems, type Handler } from "../engine/call";
import { present, resourceHandlers, type ResourceSpec } from "../engine/resource";
import { SALARY_LINE_DTO_FIELDS } from "./fields/payroll";
import { KIND, lineDefaults, lineRefProblem } from "./payroll-shared";

const ENTITY = "Salary line";

const spec: ResourceSpec = {
  path: "/SalaryLines",
  entity: ENTITY,
  kind: KIND.salaryLine,
  post: SalaryLinePost,
  fields: SALARY_LINE_DTO_FIELDS,
  refs: [{ id: "EmployeeId", kind: KIND.employee, entity: "Employee" }],
  derive: (dto) => ({
    ...lineDefaults(dto),
    IsCarPool: dto.IsCarPool ?? false,
    IsDeletedByUser: false,
    // Lines lock when a payroll takes them in; the sandbox runs no payrolls, so they stay open.
    IsLocked: false,
    UseRemittance: dto.UseRemittance ?? false,
    WorkDriveExceedsKilometerLimit: dto.WorkDriveExceedsKilometerLimit ?? false,
  }),
  check: (dto, ctx, self) => {
    const ref = dto.ExternalImportReference;
    // Client-wide, not per integration: the API keeps "only one instance of the reference".
    if (typeof ref === "string" && ref !== "") {
      const taken = ctx.store
        .all(KIND.salaryLine)
        .find(
          (r) =>
            r.id !== (self ?? String(dto.Id)) &&
            String(r.dto.ExternalImportReference).toLowerCase() === ref.toLowerCase(),
        );
      if (taken)
        return problems.validation(
          ENTITY,
          `ExternalImportReference is already in use. '${ref}' is used on salary line with Id = ${taken.id}.`,
        );
    }
    return lineRefProblem(dto, ctx, ENTITY);
  },
};

const base = resourceHandlers(spec);

/** Another integration's line is not there for this one. */
function ownOnly(handler: Handler): Handler {
  return (ctx) => {
    const id = intParam(ctx, "id");
    if (!id.ok) return id;
    const r = ctx.store.get(KIND.salaryLine, id.value);
    if (r && r.owner !== ctx.call.integration) return fail(problems.notFound(ENTITY, id.value));
    return handler(ctx);
  };
}

const list: Handler = (ctx) => {
  const rows = ctx.store
    .all(KIND.salaryLine)
    .filter((r) => r.owner === ctx.call.integration)
    .map((r) => present(r, ctx));
  return listReply(ctx, rows, [...Object.keys(spec.post.shape), ...spec.fields]);
};

export const salaryLineHandlers: Record<string, Handler> = {
  "GET /SalaryLines": list,
  "POST /SalaryLines": base["POST /SalaryLines"] as Handler,
  "GET /SalaryLines/{id}": ownOnly(base["GET /SalaryLines/{id}"] as Handler),
  "PATCH /SalaryLines/{id}": ownOnly(base["PATCH /SalaryLines/{id}"] as Handler),
  "DELETE /SalaryLines/{id}": ownOnly(base["DELETE /SalaryLines/{id}"] as Handler),
};
