/**
 * @module
 * The approval workflow of journal-entry drafts: `POST
 * /JournalEntryVouchers/{id}/submitForApproval` puts a draft that would post in the approval list
 * (`GET /VoucherApproval`); `POST /VoucherApproval/{voucherId}` approves it, which posts it to the
 * ledger under the draft's own id, or rejects it back to draft.
 */
import type { VoucherApprovalPost } from "../../../shared/v2/journal-entries";
import { fail, listReply, ok, uuidParam, type Ctx, type Handler } from "../engine/call";
import { filter, predicateOf } from "../engine/filters";
import { fromOre, nokRate, postVoucher, toOre, type PostingLine } from "../engine/ledger";
import type { Dto, Store, Stored } from "../engine/store";
import { problems, type Result } from "../lib/problem";
import { VOUCHER_FOR_APPROVAL_DTO_FIELDS } from "./fields/journal";
import {
  accountOf,
  alreadyPosted,
  DRAFT_KIND,
  ENTITY,
  findDraft,
  KINDS,
  saveDraft,
  type Route,
} from "./journal-drafts";

const invalid = (detail: string): Result<never> => fail(problems.validation(ENTITY, detail));

/**
 * A line's own dimension, else the header's; -1 on the line means "none" and overrides the header.
 */
function dimension(line: Dto, header: Dto, field: string): number | null {
  const own = line[field];
  if (own === -1) return null;
  const v = own ?? header[field];
  return typeof v === "number" && v > 0 ? v : null;
}

/**
 * The VAT code an account takes when the line names none: the account's locked code, else no VAT
 * (id 1).
 */
function defaultVat(store: Store, accountId: number): number {
  const a = accountOf(store, accountId);
  return typeof a?.account?.VatCodeId === "number" ? a.account.VatCodeId : 1;
}

/**
 * The postings a draft makes. A draft line carries both sides: the debit account takes the amount,
 * the credit account takes it negated. On supplier vouchers the supplier's account is the side a
 * line leaves empty, carrying the invoice number so the supplier ledger can match payments to it.
 */
export function postingLines(store: Store, d: Dto): Result<PostingLine[]> {
  const route = d.Route as Route;
  const supplier = route === "SupplierInvoices" || route === "SupplierCreditNotes";
  const lines = (d.Lines as Dto[] | undefined) ?? [];
  if (lines.length === 0) return invalid("The voucher has no lines.");
  if (supplier && (d.SupplierAccountId === null || d.SupplierAccountId === undefined))
    return invalid("SupplierAccountId is required before a supplier voucher can be posted.");
  const out: PostingLine[] = [];
  for (const [i, l] of lines.entries()) {
    const where = `Lines[${i}]`;
    const amount = Number(l.CurrencyAmount ?? 0);
    if (amount === 0)
      return invalid(`${where}.CurrencyAmount must be a positive or negative number, not 0.`);
    let debit = (l.DebitAccountId as number | null) ?? null;
    let credit = (l.CreditAccountId as number | null) ?? null;
    if (route === "SupplierInvoices") credit ??= d.SupplierAccountId as number;
    if (route === "SupplierCreditNotes") debit ??= d.SupplierAccountId as number;
    if (debit === null && credit === null)
      return invalid(`${where} needs a DebitAccountId or a CreditAccountId.`);
    if (supplier && (debit === null || credit === null))
      return invalid(`${where} needs the account the amount is posted to.`);
    const invoiceNo =
      route === "SupplierInvoices"
        ? d.InvoiceNo
        : route === "SupplierCreditNotes"
          ? (d.AppliesInvoiceNo ?? d.CreditNoteNo)
          : l.InvoiceNo;
    const base = {
      PostingDate: String(supplier ? d.VoucherDate : (l.PostingDate ?? d.VoucherDate)),
      Description: (l.Description ?? d.Description ?? null) as string | null,
      CurrencyCode: (supplier ? d.CurrencyCode : (l.CurrencyCode ?? d.CurrencyCode)) as
        string | null,
      CurrencyExchangeRate: ((supplier ? d.CurrencyExchangeRate : l.CurrencyExchangeRate) ??
        null) as number | null,
      DepartmentId: dimension(l, d, "DepartmentId"),
      ProjectId: dimension(l, d, "ProjectId"),
      LocationId: dimension(l, d, "LocationId"),
      ProductId: (l.ProductId ?? null) as number | null,
      Quantity: (l.Quantity ?? null) as number | null,
    };
    // The supplier's side is the one that settles against payments: only it carries the invoice
    // number and due date.
    const onSupplier = (accountId: number) => supplier && accountId === d.SupplierAccountId;
    const side = (accountId: number, sign: 1 | -1, vat: unknown): PostingLine => ({
      ...base,
      AccountId: accountId,
      CurrencyAmount: sign * amount,
      VatId: typeof vat === "number" ? vat : defaultVat(store, accountId),
      InvoiceNo: onSupplier(accountId) || !supplier ? ((invoiceNo ?? null) as string | null) : null,
      DueDate: onSupplier(accountId) ? ((d.DueDate ?? d.VoucherDate) as string) : null,
    });
    if (debit !== null) out.push(side(debit, 1, l.DebitVatId));
    if (credit !== null) out.push(side(credit, -1, l.CreditVatId));
  }
  const gross = out.reduce(
    (n, p) =>
      n + toOre(p.CurrencyAmount * (p.CurrencyExchangeRate ?? nokRate(p.CurrencyCode) ?? 1)),
    0,
  );
  if (gross !== 0)
    return invalid(
      `The voucher does not balance: its lines sum to ${fromOre(gross).toFixed(2)} NOK, and must sum to 0.`,
    );
  if (supplier && typeof d.CurrencyAmount === "number" && d.CurrencyAmount !== 0) {
    const lineSum = lines.reduce((n, l) => n + toOre(Number(l.CurrencyAmount)), 0);
    if (Math.abs(lineSum) !== Math.abs(toOre(d.CurrencyAmount))) {
      return invalid(
        `The lines sum to ${fromOre(lineSum).toFixed(2)}, but the voucher's CurrencyAmount is ${d.CurrencyAmount.toFixed(2)}.`,
      );
    }
  }
  return { ok: true, value: out };
}

const statusOf = (r: Stored) => ({
  InApprovalWorkflow: r.dto.InApprovalWorkflow === true,
  IsPosted: r.dto.VoucherState === "IsPosted",
  VoucherId: r.id,
});

const submit: Handler = (ctx) => {
  const r = findDraft(ctx);
  if (!r.ok) return r;
  const d = r.value.dto;
  if (d.VoucherState === "IsPosted") return fail(alreadyPosted(r.value.id));
  if (d.InApprovalWorkflow === true)
    return fail({
      status: 409,
      title: "Object conflict",
      detail: `Voucher with id = ${r.value.id} is already in the approval workflow.`,
    });
  const lines = postingLines(ctx.store, d);
  if (!lines.ok) return lines;
  const at = ctx.now.toISOString();
  const body = ctx.call.body as { Comment?: string | null } | null;
  const next = saveDraft(ctx, r.value, {
    ...d,
    InApprovalWorkflow: true,
    ApprovalState: "Submitted",
    AvailableFromDateTimeOffset: at,
    SubmitComment: body?.Comment ?? null,
  });
  return ok(statusOf(next));
};

function approve(ctx: Ctx, r: Stored): Result<Stored> {
  const d = r.dto;
  const lines = postingLines(ctx.store, d);
  if (!lines.ok) return lines;
  const posted = postVoucher(ctx, {
    VoucherType: KINDS[d.Route as Route].voucherType,
    VoucherDate: String(d.VoucherDate),
    Description: (d.Description ?? null) as string | null,
    CurrencyCode: (d.CurrencyCode ?? null) as string | null,
    lines: lines.value,
    entity: ENTITY,
    bank: d.Route === "BankJournals",
    // Posted through the approval workflow, not the API's POST /Vouchers/*: not "imported", and not
    // served by GET /Vouchers/*.
    route: "JournalEntryVouchers",
    imported: false,
    id: r.id,
  });
  if (!posted.ok) return posted;
  return {
    ok: true,
    value: saveDraft(ctx, r, {
      ...d,
      VoucherState: "IsPosted",
      InApprovalWorkflow: false,
      ApprovalState: "Approved",
      VoucherNo: posted.value.voucher.VoucherNo,
    }),
  };
}

const verdict: Handler = (ctx) => {
  const id = uuidParam(ctx, "voucherId");
  if (!id.ok) return id;
  const r = ctx.store.get(DRAFT_KIND, id.value);
  if (!r || r.dto.InApprovalWorkflow !== true) return fail(problems.notFound("Voucher", id.value));
  const body = ctx.call.body as VoucherApprovalPost;
  const history = { ...r.dto, ApprovalComment: body.Comment };
  if (body.VoucherApprovalStatus === "Reject") {
    return ok(
      statusOf(
        saveDraft(ctx, r, { ...history, InApprovalWorkflow: false, ApprovalState: "Rejected" }),
      ),
    );
  }
  const done = approve(ctx, { ...r, dto: history });
  return done.ok ? ok(statusOf(done.value)) : done;
};

/**
 * `GET /VoucherApproval`: every voucher waiting in the workflow; each integration with the
 * privilege is an approver.
 */
const approvalList: Handler = (ctx) => {
  const pred = predicateOf(
    [filter("availableFromDateTimeOffsetGreaterThan", "AvailableFromDateTimeOffset", "after")],
    ctx.q,
  );
  if (!pred.ok) return pred;
  const rows = ctx.store
    .all(DRAFT_KIND)
    .filter((r) => r.dto.InApprovalWorkflow === true)
    .map((r) => ({
      ApprovalVoucherType: KINDS[r.dto.Route as Route].approvalType,
      AvailableFromDateTimeOffset: r.dto.AvailableFromDateTimeOffset,
      Id: r.id,
      OriginatedFromEhf: false,
    }))
    .filter(pred.value);
  return listReply(ctx, rows, VOUCHER_FOR_APPROVAL_DTO_FIELDS);
};

export const approvalHandlers: Record<string, Handler> = {
  "POST /JournalEntryVouchers/{id}/submitForApproval": submit,
  "GET /VoucherApproval": approvalList,
  "POST /VoucherApproval/{voucherId}": verdict,
};
