/**
 * @module
 * Editing journal-entry drafts: create, read and patch the header of each kind, add, patch and
 * delete its lines, delete a draft, and list all drafts of the client. Only drafts change; a
 * voucher that is posted or waiting for approval answers 409.
 */
import {
  empty,
  fail,
  intParam,
  listReply,
  ok,
  uuidParam,
  type Ctx,
  type Handler,
} from "../engine/call";
import { filter, predicateOf } from "../engine/filters";
import type { Dto, Stored } from "../engine/store";
import { problems, schemaProblem, type Result } from "../lib/problem";
import { JOURNAL_ENTRY_VOUCHER_LIST_ITEM_FIELDS } from "./fields/journal";
import {
  alreadyPosted,
  DRAFT_KIND,
  findDraft,
  headerKeys,
  KINDS,
  lineKeys,
  missingRef,
  newLine,
  notEditable,
  patchView,
  presentDraft,
  presentLine,
  saveDraft,
  stripUndefined,
  viewOf,
  visible,
  type KindSpec,
  type Route,
} from "./journal-drafts";
import { removeFilesOf } from "./journal-files";

const linesOf = (r: Stored) => (r.dto.Lines as Dto[] | undefined) ?? [];

function create(spec: KindSpec): Handler {
  return (ctx) => {
    // The catalog has already parsed the body with the kind's schema.
    const body = ctx.call.body as Dto;
    const header = Object.fromEntries(headerKeys(spec).map((k) => [k, body[k] ?? null]));
    const lines = ((body[spec.linesIn] as Dto[] | null | undefined) ?? []).map((l) =>
      newLine(ctx, spec, l),
    );
    const missing =
      missingRef(ctx, header) ?? lines.map((l) => missingRef(ctx, l)).find((p) => p !== null);
    if (missing) return fail(missing);
    const id = crypto.randomUUID();
    const at = ctx.now.toISOString();
    const dto: Dto = {
      ...header,
      Id: id,
      Route: spec.route,
      Lines: lines,
      VoucherState: "IsDraft",
      InApprovalWorkflow: false,
      ApprovalState: null,
      AvailableFromDateTimeOffset: null,
      CreatedDateTimeOffset: at,
      LastChangedDateTimeOffset: at,
    };
    ctx.store.put(DRAFT_KIND, id, dto, { owner: ctx.call.integration });
    return ok(presentDraft(ctx, { id, parent: null, owner: ctx.call.integration, dto }), 201);
  };
}

function get(spec: KindSpec): Handler {
  return (ctx) => {
    const r = findDraft(ctx, spec.route);
    return r.ok ? ok(presentDraft(ctx, r.value)) : r;
  };
}

/** The draft named by the path, of `spec`'s kind, that may be changed now. */
function editableDraft(ctx: Ctx, spec: KindSpec): Result<Stored> {
  const r = findDraft(ctx, spec.route);
  if (!r.ok) return r;
  const blocked = notEditable(r.value);
  return blocked ? fail(blocked) : r;
}

function patchHeader(spec: KindSpec): Handler {
  return (ctx) => {
    const r = editableDraft(ctx, spec);
    if (!r.ok) return r;
    const keys = headerKeys(spec);
    const why = `The lines are changed through /JournalEntryVouchers/${spec.route}/{id}/VoucherLines.`;
    const patched = patchView(viewOf(r.value.dto, keys), ctx.call.body, keys, {
      key: spec.linesIn,
      why,
    });
    if (!patched.ok) return patched;
    const parsed = spec.post.safeParse(patched.value);
    if (!parsed.success) return fail(schemaProblem(parsed.error));
    const header = Object.fromEntries(keys.map((k) => [k, (parsed.data as Dto)[k] ?? null]));
    const missing = missingRef(ctx, header);
    if (missing) return fail(missing);
    return ok(presentDraft(ctx, saveDraft(ctx, r.value, { ...r.value.dto, ...header })));
  };
}

function addLine(spec: KindSpec): Handler {
  return (ctx) => {
    const r = editableDraft(ctx, spec);
    if (!r.ok) return r;
    const line = newLine(ctx, spec, ctx.call.body as Dto);
    const missing = missingRef(ctx, line);
    if (missing) return fail(missing);
    return ok(
      presentDraft(
        ctx,
        saveDraft(ctx, r.value, { ...r.value.dto, Lines: [...linesOf(r.value), line] }),
      ),
      201,
    );
  };
}

/**
 * The draft and the index of the line the path names; the line must exist before the state is
 * judged.
 */
function lineOf(ctx: Ctx, spec: KindSpec): Result<{ r: Stored; index: number }> {
  const r = findDraft(ctx, spec.route);
  if (!r.ok) return r;
  const lineId = intParam(ctx, "lineId");
  if (!lineId.ok) return lineId;
  const index = linesOf(r.value).findIndex((l) => l.Id === lineId.value);
  if (index < 0) return fail(problems.notFound("VoucherLine", lineId.value));
  const blocked = notEditable(r.value);
  return blocked ? fail(blocked) : { ok: true, value: { r: r.value, index } };
}

function patchLine(spec: KindSpec): Handler {
  return (ctx) => {
    const found = lineOf(ctx, spec);
    if (!found.ok) return found;
    const { r, index } = found.value;
    const lines = linesOf(r);
    const current = lines[index] as Dto;
    const keys = lineKeys(spec);
    const patched = patchView(viewOf(current, keys), ctx.call.body, keys);
    if (!patched.ok) return patched;
    const parsed = spec.line.safeParse(patched.value);
    if (!parsed.success) return fail(schemaProblem(parsed.error));
    const line: Dto = {
      ...current,
      ...Object.fromEntries(keys.map((k) => [k, null])),
      ...stripUndefined(parsed.data as Dto),
      LastChangedDateTimeOffset: ctx.now.toISOString(),
    };
    const missing = missingRef(ctx, line);
    if (missing) return fail(missing);
    saveDraft(ctx, r, { ...r.dto, Lines: lines.map((l, i) => (i === index ? line : l)) });
    return ok(presentLine(ctx, spec, line));
  };
}

function deleteLine(spec: KindSpec): Handler {
  return (ctx) => {
    const found = lineOf(ctx, spec);
    if (!found.ok) return found;
    const { r, index } = found.value;
    saveDraft(ctx, r, { ...r.dto, Lines: linesOf(r).filter((_, i) => i !== index) });
    return empty(200);
  };
}

/** `DELETE /JournalEntryVouchers/{id}`: a draft of any kind, with its lines and pages. */
const deleteDraft: Handler = (ctx) => {
  const id = uuidParam(ctx, "id");
  if (!id.ok) return id;
  const r = ctx.store.get(DRAFT_KIND, id.value);
  if (!r || !visible(ctx, r)) return fail(problems.notFound("Voucher", id.value));
  // The API answers "already posted" for a voucher in the approval workflow too.
  if (
    r.dto.VoucherState === "IsPosted" ||
    r.dto.InApprovalWorkflow === true ||
    r.owner !== ctx.call.integration
  )
    return fail(alreadyPosted(r.id));
  ctx.store.remove(DRAFT_KIND, r.id);
  removeFilesOf(ctx.store, r.id);
  return empty(200);
};

const LIST_FILTERS = [
  filter("createdDateTimeOffsetGreaterThan", "CreatedDateTimeOffset", "after"),
  filter("lastChangedDateTimeOffsetGreaterThan", "LastChangedDateTimeOffset", "after"),
  filter("inApprovalWorkflow", "InApprovalWorkflow", "bool"),
  filter("isPosted", "IsPosted", "bool"),
];

/**
 * `GET /JournalEntryVouchers`: every draft of the client, posted or not, marked with whether this
 * integration created it.
 */
const list: Handler = (ctx) => {
  const pred = predicateOf(LIST_FILTERS, ctx.q);
  if (!pred.ok) return pred;
  const rows = ctx.store
    .all(DRAFT_KIND)
    .map((r) => ({
      CreatedDateTimeOffset: r.dto.CreatedDateTimeOffset,
      Id: r.id,
      InApprovalWorkflow: r.dto.InApprovalWorkflow === true,
      IsCreatedByCurrentIntegration: r.owner === ctx.call.integration,
      IsPosted: r.dto.VoucherState === "IsPosted",
      LastChangedDateTimeOffset: r.dto.LastChangedDateTimeOffset,
      OriginatedFromEhf: false,
      VoucherType: KINDS[r.dto.Route as Route].voucherType,
    }))
    .filter(pred.value);
  return listReply(ctx, rows, JOURNAL_ENTRY_VOUCHER_LIST_ITEM_FIELDS);
};

export const draftHandlers: Record<string, Handler> = {
  "GET /JournalEntryVouchers": list,
  "DELETE /JournalEntryVouchers/{id}": deleteDraft,
  // Drafts made through the API never come from EHF, so there is never an EHF file to return.
  "GET /JournalEntryVouchers/{id}/ehf": (ctx) => {
    const r = findDraft(ctx);
    return r.ok ? empty(204) : r;
  },
  ...(Object.fromEntries(
    Object.values(KINDS).flatMap((spec) => {
      const base = `/JournalEntryVouchers/${spec.route}`;
      return [
        [`POST ${base}`, create(spec)],
        [`GET ${base}/{id}`, get(spec)],
        [`PATCH ${base}/{id}`, patchHeader(spec)],
        [`POST ${base}/{id}/VoucherLines`, addLine(spec)],
        [`PATCH ${base}/{id}/VoucherLines/{lineId}`, patchLine(spec)],
        [`DELETE ${base}/{id}/VoucherLines/{lineId}`, deleteLine(spec)],
      ];
    }),
  ) as Record<string, Handler>),
};
