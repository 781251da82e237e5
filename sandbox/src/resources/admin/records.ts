/**
 * @module
 * Read-only views of records other flows write: incoming invoices (the sandbox's only incoming
 * invoices are posted supplier invoices, stored as kind `IncomingInvoice`) and the quality module's
 * assignments (kind `Assignment`, created by `POST /Assignments` in `../newer/quality.ts` or put
 * there by a test).
 */
import {
  fail,
  intParam,
  listReply,
  ok,
  problems,
  uuidParam,
  type Ctx,
  type Handler,
} from "../../engine/call";
import { filter, predicateOf } from "../../engine/filters";
import { shape, type Dto } from "../../engine/store";
import { stringList } from "../../lib/query";
import type { Result } from "../../lib/problem";
import { ASSIGNMENT_GENERAL_DTO_FIELDS, ASSIGNMENT_LIGHT_WEIGHT_DTO_FIELDS } from "../fields/admin";
import { INCOMING_INVOICE_LIST_ITEM_DTO_FIELDS } from "../fields/sales";

type Pred = (d: Dto) => boolean;
const all: Pred = () => true;

/** An optional boolean query parameter. */
function boolQuery(ctx: Ctx, name: string): Result<boolean | null> {
  const raw = ctx.q.get(name.toLowerCase())?.trim();
  if (!raw) return { ok: true, value: null };
  if (!/^(true|false)$/i.test(raw)) return fail(problems.cast(`${name} must be true or false.`));
  return { ok: true, value: raw.toLowerCase() === "true" };
}

/** `departmentCodes`: a comma list of codes, where -1 stands for "no department in the header". */
function departmentFilter(ctx: Ctx): Pred {
  const raw = ctx.q.get("departmentcodes")?.trim();
  if (!raw) return all;
  const codes = stringList(raw);
  return (d) =>
    d.DepartmentCode === null || d.DepartmentCode === undefined
      ? codes.includes("-1")
      : codes.includes(String(d.DepartmentCode).toLowerCase());
}

/**
 * `projectCodes`, with `includeSubProject` also taking the sub-projects, whose codes are
 * `parent.sub`.
 */
function projectFilter(ctx: Ctx): Result<Pred> {
  const raw = ctx.q.get("projectcodes")?.trim();
  const subs = boolQuery(ctx, "includeSubProject");
  if (!subs.ok) return subs;
  if (!raw) return { ok: true, value: all };
  const codes = stringList(raw);
  return {
    ok: true,
    value: (d) => {
      const code = String(d.ProjectCode ?? "").toLowerCase();
      return (
        code !== "" &&
        codes.some((c) => code === c || (subs.value === true && code.startsWith(`${c}.`)))
      );
    },
  };
}

const listIncomingInvoices: Handler = (ctx) => {
  const pred = predicateOf(
    [
      filter("fromDate", "VoucherDate", "from"),
      filter("toDate", "VoucherDate", "to"),
      filter(
        "balanceLastChangedDateTimeOffsetGreaterThan",
        "BalanceLastChangedDateTimeOffset",
        "after",
      ),
      filter("supplierNos", "SupplierNo", "ranges"),
      filter("voucherNos", "VoucherNo", "ranges"),
      filter("voucherTypes", "VoucherType", "strings"),
    ],
    ctx.q,
  );
  if (!pred.ok) return pred;
  const unpaid = boolQuery(ctx, "onlyUnpaidInvoices");
  if (!unpaid.ok) return unpaid;
  const project = projectFilter(ctx);
  if (!project.ok) return project;
  const department = departmentFilter(ctx);
  const rows = ctx.store
    .all("IncomingInvoice")
    .map((r) => shape(INCOMING_INVOICE_LIST_ITEM_DTO_FIELDS, r.dto))
    .filter(
      (d) =>
        pred.value(d) &&
        project.value(d) &&
        department(d) &&
        (unpaid.value !== true || Number(d.Balance ?? 0) !== 0),
    );
  return listReply(ctx, rows, INCOMING_INVOICE_LIST_ITEM_DTO_FIELDS);
};

const getIncomingInvoice: Handler = (ctx) => {
  const id = uuidParam(ctx, "id");
  if (!id.ok) return id;
  const invoice = ctx.store.get("IncomingInvoice", id.value);
  return invoice
    ? ok(shape(INCOMING_INVOICE_LIST_ITEM_DTO_FIELDS, invoice.dto))
    : fail(problems.notFound("IncomingInvoiceListItem", id.value));
};

const STATUSES = ["draft", "active", "archived"];

const listAssignments: Handler = (ctx) => {
  const pred = predicateOf(
    [
      filter("customerSubLedgerAccountIds", "CustomerSubledgerAccountId", "ids"),
      filter("managerSubLedgerAccountIds", "ManagerSubledgerAccountId", "ids"),
    ],
    ctx.q,
  );
  if (!pred.ok) return pred;
  const raw = ctx.q.get("status")?.trim();
  const wanted = raw ? stringList(raw) : ["draft", "active"];
  const bad = wanted.find((s) => !STATUSES.includes(s));
  if (bad) return fail(problems.cast(`status '${bad}' is not one of draft, active, archived.`));
  // Archived assignments are left out unless asked for (the spec's default).
  const rows = ctx.store
    .all("Assignment")
    .map((r) => shape(ASSIGNMENT_LIGHT_WEIGHT_DTO_FIELDS, r.dto))
    .filter((d) => wanted.includes(String(d.Status).toLowerCase()) && pred.value(d));
  return listReply(ctx, rows, ASSIGNMENT_LIGHT_WEIGHT_DTO_FIELDS);
};

const getAssignment: Handler = (ctx) => {
  const id = intParam(ctx, "id");
  if (!id.ok) return id;
  const assignment = ctx.store.get("Assignment", id.value);
  if (!assignment) return fail(problems.notFound("Assignment", id.value));
  // The seed spells the write bodies' auditor `AuidtorId`; the published read spells it
  // `AuditorId`.
  const { AuidtorId: auditor, ...dto } = assignment.dto;
  return ok(shape(ASSIGNMENT_GENERAL_DTO_FIELDS, { AuditorId: auditor, ...dto }));
};

export const recordHandlers: Record<string, Handler> = {
  "GET /IncomingInvoices": listIncomingInvoices,
  "GET /IncomingInvoices/{id}": getIncomingInvoice,
  "GET /Assignments": listAssignments,
  "GET /Assignments/{id}": getAssignment,
};
