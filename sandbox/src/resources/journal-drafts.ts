/**
 * @module
 * Journal-entry vouchers (drafts) as the sandbox keeps them: one record of kind
 * `JournalEntryVoucher` per draft, holding its header, its lines and its state, shared by the four
 * kinds (manual, bank, supplier invoice, supplier credit note). Here are the kinds, who may see a
 * draft, when it may be changed, the references a draft may make, and the DTOs the API answers
 * with.
 */
import type { z } from "zod";
import { pointerTokens, JsonPatch, type PatchOperation } from "../../../shared/v2/json-patch";
import {
  BankJournalEntryVoucherLinePost,
  BankJournalEntryVoucherPost,
  ManualJournalEntryVoucherLinePost,
  ManualJournalEntryVoucherPost,
  SupplierCreditNoteJournalEntryVoucherPost,
  SupplierInvoiceJournalEntryVoucherPost,
  SupplierVoucherLinePost,
} from "../../../shared/v2/journal-entries";
import { fail, uuidParam, type Ctx } from "../engine/call";
import type { Dto, Store, Stored } from "../engine/store";
import { applyPatch } from "../lib/json-patch";
import { problems, schemaProblem, type Problem, type Result } from "../lib/problem";
import {
  BANK_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS,
  BANK_JOURNAL_ENTRY_VOUCHER_LINE_DTO_FIELDS,
  MANUAL_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS,
  MANUAL_JOURNAL_ENTRY_VOUCHER_LINE_DTO_FIELDS,
  SUPPLIER_CREDIT_NOTE_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS,
  SUPPLIER_INVOICE_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS,
  SUPPLIER_VOUCHER_LINE_DTO_FIELDS,
} from "./fields/journal";
import { pagesOf } from "./journal-files";

export const DRAFT_KIND = "JournalEntryVoucher";
/** Entity name in validation problem titles. */
export const ENTITY = "JournalEntryVoucher";

export type Route = "ManualJournals" | "BankJournals" | "SupplierInvoices" | "SupplierCreditNotes";

/** What differs between the four kinds of draft. */
export interface KindSpec {
  route: Route;
  post: z.ZodObject;
  line: z.ZodObject;
  /**
   * Property the lines come in by, and the one they are answered in (they differ for bank
   * journals).
   */
  linesIn: string;
  linesOut: string;
  fields: readonly string[];
  lineFields: readonly string[];
  /**
   * `VoucherType` in the list and of the posted voucher; `ApprovalVoucherType` in the approval
   * list.
   */
  voucherType: string;
  approvalType: string;
}

export const KINDS: Record<Route, KindSpec> = {
  ManualJournals: {
    route: "ManualJournals",
    post: ManualJournalEntryVoucherPost,
    line: ManualJournalEntryVoucherLinePost,
    linesIn: "ManualVoucherLines",
    linesOut: "ManualVoucherLines",
    fields: MANUAL_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS,
    lineFields: MANUAL_JOURNAL_ENTRY_VOUCHER_LINE_DTO_FIELDS,
    voucherType: "ManualJournal",
    approvalType: "ManualJournal",
  },
  BankJournals: {
    route: "BankJournals",
    post: BankJournalEntryVoucherPost,
    line: BankJournalEntryVoucherLinePost,
    linesIn: "BankJournalLines",
    linesOut: "BankVoucherLines",
    fields: BANK_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS,
    lineFields: BANK_JOURNAL_ENTRY_VOUCHER_LINE_DTO_FIELDS,
    voucherType: "BankJournal",
    approvalType: "BankJournal",
  },
  SupplierInvoices: {
    route: "SupplierInvoices",
    post: SupplierInvoiceJournalEntryVoucherPost,
    line: SupplierVoucherLinePost,
    linesIn: "SupplierVoucherLines",
    linesOut: "SupplierVoucherLines",
    fields: SUPPLIER_INVOICE_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS,
    lineFields: SUPPLIER_VOUCHER_LINE_DTO_FIELDS,
    voucherType: "IncomingInvoice",
    approvalType: "SupplierInvoice",
  },
  SupplierCreditNotes: {
    route: "SupplierCreditNotes",
    post: SupplierCreditNoteJournalEntryVoucherPost,
    line: SupplierVoucherLinePost,
    linesIn: "SupplierVoucherLines",
    linesOut: "SupplierVoucherLines",
    fields: SUPPLIER_CREDIT_NOTE_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS,
    lineFields: SUPPLIER_VOUCHER_LINE_DTO_FIELDS,
    voucherType: "IncomingCreditNote",
    approvalType: "SupplierCreditNote",
  },
};

/** The writable header properties of a kind: its POST body without the lines. */
export const headerKeys = (spec: KindSpec) =>
  Object.keys(spec.post.shape).filter((k) => k !== spec.linesIn);
export const lineKeys = (spec: KindSpec) => Object.keys(spec.line.shape);

const notFound = (id: string) => problems.notFound("Voucher", id);

/**
 * A draft is seen by the integration that created it, and by the approver while it waits for
 * approval. Every integration holding VoucherApproval_Full counts as the client's approver in the
 * sandbox.
 */
export function visible(ctx: Ctx, r: Stored): boolean {
  return (
    r.owner === ctx.call.integration ||
    (r.dto.InApprovalWorkflow === true && ctx.call.privileges.includes("VoucherApproval_Full"))
  );
}

/**
 * The draft the path's `id` names, if this integration may see it (and it is of `route`, when
 * given).
 */
export function findDraft(ctx: Ctx, route?: Route): Result<Stored> {
  const id = uuidParam(ctx, "id");
  if (!id.ok) return id;
  const r = ctx.store.get(DRAFT_KIND, id.value);
  if (!r || !visible(ctx, r) || (route && r.dto.Route !== route)) return fail(notFound(id.value));
  return { ok: true, value: r };
}

/** The API's answer to any change of a voucher that has left the draft state. */
export const alreadyPosted = (id: string): Problem => ({
  status: 409,
  title: "Object conflict",
  detail: `Voucher with id = ${id} is already posted.`,
});

/** Why a draft cannot be changed now, if it cannot: posted, or waiting in the approval workflow. */
export function notEditable(r: Stored): Problem | null {
  if (r.dto.VoucherState === "IsPosted") return alreadyPosted(r.id);
  if (r.dto.InApprovalWorkflow === true)
    return {
      status: 409,
      title: "Object conflict",
      detail: `Voucher with id = ${r.id} is in the approval workflow; it can be changed when it is rejected.`,
    };
  return null;
}

export function saveDraft(ctx: Ctx, r: Stored, dto: Dto): Stored {
  const next = { ...dto, LastChangedDateTimeOffset: ctx.now.toISOString() };
  ctx.store.put(DRAFT_KIND, r.id, next, { owner: r.owner });
  return { ...r, dto: next };
}

/**
 * What a line's account id names: a general ledger account, or a customer's, supplier's or
 * employee's sub-ledger account.
 */
export function accountOf(
  store: Store,
  id: unknown,
): {
  type: "General" | "Customer" | "Supplier" | "Employee";
  contactId: number | null;
  account: Dto | null;
} | null {
  if (typeof id !== "number") return null;
  const gl = store.get("GeneralLedgerAccount", id);
  if (gl) return { type: "General", contactId: null, account: gl.dto };
  for (const kind of ["Customer", "Supplier", "Employee"] as const) {
    const c = store.findBy(kind, "SubledgerAccountId", id);
    if (c) return { type: kind, contactId: Number(c.dto.Id), account: null };
  }
  return null;
}

/** Dimensions and products a header or line may name; -1 means "none" and names nothing. */
const NAMED: [field: string, kind: string][] = [
  ["DepartmentId", "Department"],
  ["ProjectId", "Project"],
  ["LocationId", "Location"],
  ["ProductId", "Product"],
  ["ClientBankAccountId", "ClientBankAccount"],
];

/** The first reference of a header or line that names nothing, as the API's 404. */
export function missingRef(ctx: Ctx, d: Dto): Problem | null {
  const { store } = ctx;
  for (const f of ["DebitAccountId", "CreditAccountId"])
    if (d[f] !== null && d[f] !== undefined && !accountOf(store, d[f]))
      return problems.notFound("Account", String(d[f]));
  for (const f of ["DebitVatId", "CreditVatId"])
    if (d[f] !== null && d[f] !== undefined && !store.get("VatCode", String(d[f])))
      return problems.notFound("VatCode", String(d[f]));
  for (const [f, kind] of NAMED)
    if (typeof d[f] === "number" && d[f] > 0 && !store.get(kind, d[f]))
      return problems.notFound(kind, d[f]);
  if (
    d.SupplierAccountId !== null &&
    d.SupplierAccountId !== undefined &&
    accountOf(store, d.SupplierAccountId)?.type !== "Supplier"
  ) {
    return problems.notFound("SupplierAccount", String(d.SupplierAccountId));
  }
  return null;
}

/** The supplier a supplier account id belongs to. */
export const supplierContactId = (store: Store, accountId: unknown) =>
  accountOf(store, accountId)?.type === "Supplier"
    ? (accountOf(store, accountId)?.contactId ?? null)
    : null;

/** A new stored line from a parsed line body. */
export function newLine(ctx: Ctx, spec: KindSpec, body: Dto): Dto {
  const at = ctx.now.toISOString();
  return {
    ...Object.fromEntries(lineKeys(spec).map((k) => [k, null])),
    ...stripUndefined(body),
    Id: ctx.store.nextId(),
    CreatedDateTimeOffset: at,
    LastChangedDateTimeOffset: at,
  };
}

export function stripUndefined(d: Dto): Dto {
  return Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined));
}

/** Non-null properties of `d` among `keys`: the document a JSON Patch of them works on. */
export function viewOf(d: Dto, keys: readonly string[]): Dto {
  return Object.fromEntries(
    keys.filter((k) => d[k] !== null && d[k] !== undefined).map((k) => [k, d[k]]),
  );
}

/**
 * Applies a JSON Patch to `view`. Property names match in any casing, as ASP.NET's JSON Patch does
 * (the spec's own examples write `/departmentId`); `forbidden` names a property only its own
 * endpoints change.
 */
export function patchView(
  view: Dto,
  body: unknown,
  keys: readonly string[],
  forbidden?: { key: string; why: string },
): Result<Dto> {
  const doc = JsonPatch.safeParse(body);
  if (!doc.success) return fail(schemaProblem(doc.error, "patch"));
  const canonical = new Map(
    [...keys, ...(forbidden ? [forbidden.key] : [])].map((k) => [k.toLowerCase(), k]),
  );
  const fix = (pointer: string) => {
    const tokens = pointerTokens(pointer);
    const first = tokens[0];
    if (first === undefined) return pointer;
    tokens[0] = canonical.get(first.toLowerCase()) ?? first;
    return tokens.map((t) => `/${t.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
  };
  const ops = doc.data.map(
    (op) =>
      ({
        ...op,
        path: fix(op.path),
        ...("from" in op ? { from: fix(op.from) } : {}),
      }) as PatchOperation,
  );
  if (forbidden) {
    const hit = ops.find((op) =>
      [op.path, "from" in op ? op.from : ""].some((p) => pointerTokens(p)[0] === forbidden.key),
    );
    if (hit) return fail(problems.validation(ENTITY, forbidden.why));
  }
  const applied = applyPatch(view, ops);
  if (!applied.ok)
    return fail(problems.validation(ENTITY, `Operation ${applied.index}: ${applied.message}.`));
  return { ok: true, value: applied.value as Dto };
}

/**
 * A stored line as the kind's line DTO answers it: enums and amounts never null, accounts resolved.
 */
export function presentLine(ctx: Ctx, spec: KindSpec, line: Dto): Dto {
  const out: Dto = Object.fromEntries(
    [...lineKeys(spec), ...spec.lineFields].map((k) => [k, line[k] ?? null]),
  );
  out.CurrencyAmount = line.CurrencyAmount ?? 0;
  for (const side of ["Debit", "Credit"] as const) {
    const account = accountOf(ctx.store, line[`${side}AccountId`]);
    out[`${side}VatReturnSpecification`] = line[`${side}VatReturnSpecification`] ?? "None";
    out[`${side}AccountAgricultureDepartment`] = account?.account?.AgricultureDepartment ?? "None";
    if (spec.lineFields.includes(`${side}AccountType`)) {
      out[`${side}AccountType`] = account?.type ?? null;
      out[`${side}ContactId`] = account?.contactId ?? null;
    }
  }
  return out;
}

/**
 * A stored draft as its kind's DTO answers it. `Comment` goes into the voucher's history and is
 * never returned.
 */
export function presentDraft(ctx: Ctx, r: Stored): Dto {
  const spec = KINDS[r.dto.Route as Route];
  const out: Dto = Object.fromEntries(
    [...headerKeys(spec), ...spec.fields]
      .filter((k) => k !== "Comment")
      .map((k) => [k, r.dto[k] ?? null]),
  );
  out.Id = r.id;
  out.Pages = pagesOf(ctx.store, r.id);
  out[spec.linesOut] = ((r.dto.Lines as Dto[] | undefined) ?? []).map((l) =>
    presentLine(ctx, spec, l),
  );
  if (spec.fields.includes("VoucherState")) {
    Object.assign(out, {
      CurrencyAmount: r.dto.CurrencyAmount ?? 0,
      CurrencyRegistryCode: r.dto.CurrencyRegistryCode ?? "None",
      OriginatedFromEhf: false,
      SupplierContactId: supplierContactId(ctx.store, r.dto.SupplierAccountId),
    });
  }
  return out;
}
