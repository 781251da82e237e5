/**
 * @module
 * The quality module beyond the published assignment reads: creating, patching and deleting
 * assignments, their deadlines and service tasks, and the auditing company. What the seed states:
 * `DELETE /Assignments/{id}` only for drafts; the assignment PATCH body has no status; deadlines
 * are per accounting year; tasks filter on `includeInternal` and `includeAvailable`.
 *
 * Assignments are the records the published `GET /Assignments` and `/Assignments/{id}` read (kind
 * `Assignment`): a POST stores the caller's object as it is, with an `Id` and, unless the caller
 * gave one, the published `Status` a new assignment starts in (Draft). The reads keep their
 * published shapes, so properties that are not in them are answered only by the POST and PATCH
 * themselves.
 */
import { empty, fail, intParam, ok, type Ctx, type Handler } from "../../engine/call";
import {
  bodyObject,
  createFromBody,
  freeDto,
  freeMeta,
  listFree,
  patchedObject,
  patchFree,
  removeFree,
  withFree,
  type FreeSpec,
} from "../../engine/free";
import type { Dto, Stored } from "../../engine/store";
import { problems, type Result } from "../../lib/problem";

const ASSIGNMENT = "Assignment";
/**
 * Assignments are stored as the published reads expect (`Id` and `Status` in the record), not as
 * free records.
 */
const SPEC: FreeSpec = { kind: ASSIGNMENT, entity: ASSIGNMENT, idType: "int" };
const DEADLINE: FreeSpec = { kind: "AssignmentDeadline", entity: "Deadline", idType: "int" };
/** Service tasks of an assignment. API v2 creates none; the sandbox serves what its store holds. */
const TASK: FreeSpec = { kind: "AssignmentTask", entity: "Task", idType: "int" };
const AUDITING_COMPANY: FreeSpec = {
  kind: "AuditingCompany",
  entity: "AuditingCompany",
  idType: "int",
};

/** `AssignmentAgreementStatus`, the published enum of `Status`. */
const STATUSES = ["Draft", "Active", "Archived"];

/** The published Status, spelled as the enum spells it; null when the value is not one of them. */
function statusOf(value: unknown): string | null {
  return (
    STATUSES.find((s) => typeof value === "string" && s.toLowerCase() === value.toLowerCase()) ??
    null
  );
}

function assignmentOf(ctx: Ctx, param: string): Result<Stored> {
  const id = intParam(ctx, param);
  if (!id.ok) return id;
  const r = ctx.store.get(ASSIGNMENT, id.value);
  return r ? { ok: true, value: r } : fail(problems.notFound(ASSIGNMENT, id.value));
}

const create: Handler = (ctx) => {
  const body = bodyObject(SPEC, ctx.call.body);
  if (!body.ok) return body;
  const status = body.value.Status === undefined ? "Draft" : statusOf(body.value.Status);
  if (!status)
    return fail(problems.validation(ASSIGNMENT, `Status must be one of ${STATUSES.join(", ")}.`));
  const id = ctx.store.nextId();
  const dto: Dto = { Id: id, ...body.value, Status: status };
  ctx.store.put(ASSIGNMENT, id, dto, { owner: ctx.call.integration });
  return ok(dto, 201);
};

/** JSON Patch of an assignment's own object; the seed's PATCH body has no status. */
function patch(ctx: Ctx, r: Stored): ReturnType<Handler> {
  const { Id: id, Status: status, ...own } = r.dto;
  const noStatus = (path: string) =>
    /^\/status(\/|$)/i.test(path)
      ? problems.validation(ASSIGNMENT, "Status cannot be changed with PATCH.")
      : null;
  const body = patchedObject(SPEC, own, ctx.call.body, noStatus);
  if (!body.ok) return body;
  const dto: Dto = { Id: id, ...body.value, Status: status };
  ctx.store.put(ASSIGNMENT, r.id, dto, { parent: r.parent, owner: r.owner });
  return ok(dto);
}

function remove(ctx: Ctx, r: Stored): ReturnType<Handler> {
  if (statusOf(r.dto.Status) !== "Draft")
    return fail(
      problems.conflict(
        ASSIGNMENT,
        `Assignment with id = ${r.id} is not a draft and cannot be deleted.`,
      ),
    );
  for (const kind of [DEADLINE.kind, TASK.kind]) ctx.store.removeChildren(kind, r.id);
  ctx.store.remove(ASSIGNMENT, r.id);
  return empty(200);
}

/** An optional `accountingYear` (required when `required`): a four-digit year. */
function yearOf(ctx: Ctx, required: boolean): Result<number | null> {
  const raw = ctx.q.get("accountingyear")?.trim();
  if (!raw)
    return required
      ? fail({
          status: 400,
          title: "One or more validation errors occurred.",
          detail: "The accountingYear field is required.",
          errors: { accountingYear: ["The accountingYear field is required."] },
        })
      : { ok: true, value: null };
  return /^\d{4}$/.test(raw)
    ? { ok: true, value: Number(raw) }
    : fail(problems.cast("accountingYear must be a year such as 2026."));
}

/** An optional boolean query flag, false when absent. */
function flag(ctx: Ctx, name: string): Result<boolean> {
  const raw = ctx.q.get(name.toLowerCase())?.trim();
  if (!raw) return { ok: true, value: false };
  return /^(true|false)$/i.test(raw)
    ? { ok: true, value: raw.toLowerCase() === "true" }
    : fail(problems.cast(`${name} must be true or false.`));
}

/** Runs `then` with the assignment `{assignmentId}`. */
const underAssignment =
  (then: (ctx: Ctx, a: Stored) => ReturnType<Handler>): Handler =>
  (ctx) => {
    const a = assignmentOf(ctx, "assignmentId");
    return a.ok ? then(ctx, a.value) : a;
  };

const deadline = (then: (ctx: Ctx, d: Stored) => ReturnType<Handler>) =>
  underAssignment((ctx, a) => withFree(ctx, DEADLINE, "deadlineId", (d) => then(ctx, d), a.id));

export const qualityHandlers: Record<string, Handler> = {
  "POST /Assignments": create,
  "PATCH /Assignments/{id}": (ctx) => {
    const a = assignmentOf(ctx, "id");
    return a.ok ? patch(ctx, a.value) : a;
  },
  "DELETE /Assignments/{id}": (ctx) => {
    const a = assignmentOf(ctx, "id");
    return a.ok ? remove(ctx, a.value) : a;
  },
  "GET /Assignments/{assignmentId}/Deadlines": underAssignment((ctx, a) => {
    const year = yearOf(ctx, false);
    if (!year.ok) return year;
    return listFree(
      ctx,
      DEADLINE,
      ctx.store
        .all(DEADLINE.kind, a.id)
        .filter((d) => year.value === null || freeMeta(d).year === year.value),
    );
  }),
  // A deadline belongs to one accounting year, given as the list's filter of the same name.
  "POST /Assignments/{assignmentId}/Deadlines": underAssignment((ctx, a) => {
    const year = yearOf(ctx, true);
    return year.ok
      ? createFromBody(ctx, DEADLINE, { parent: a.id, meta: { year: year.value } })
      : year;
  }),
  "GET /Assignments/{assignmentId}/Deadlines/{deadlineId}": deadline((_ctx, d) =>
    ok(freeDto(DEADLINE, d)),
  ),
  "PATCH /Assignments/{assignmentId}/Deadlines/{deadlineId}": deadline((ctx, d) =>
    patchFree(ctx, DEADLINE, d),
  ),
  "DELETE /Assignments/{assignmentId}/Deadlines/{deadlineId}": deadline((ctx, d) =>
    removeFree(ctx, DEADLINE, d),
  ),
  // Internal tasks, and tasks available to the assignment but not on it, only when asked for.
  "GET /Assignments/{assignmentId}/Services/Tasks": underAssignment((ctx, a) => {
    const internal = flag(ctx, "includeInternal");
    if (!internal.ok) return internal;
    const available = flag(ctx, "includeAvailable");
    if (!available.ok) return available;
    const keep = (m: Dto) =>
      (m.internal !== true || internal.value) && (m.available !== true || available.value);
    return listFree(
      ctx,
      TASK,
      ctx.store.all(TASK.kind, a.id).filter((t) => keep(freeMeta(t))),
    );
  }),
  // One auditing company per client at most, set up in Go itself; 204 when there is none.
  "GET /AuditingCompany": (ctx) => {
    const company = ctx.store.all(AUDITING_COMPANY.kind)[0];
    return company ? ok(freeDto(AUDITING_COMPANY, company)) : empty(204);
  },
};

/**
 * Kinds of the quality records, for tests that put what API v2 cannot create (tasks, the auditing
 * company).
 */
export const QUALITY_KINDS = { task: TASK.kind, auditingCompany: AUDITING_COMPANY.kind } as const;
