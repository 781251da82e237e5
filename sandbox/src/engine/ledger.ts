/**
 * @module
 * The general ledger of a sandbox client. Every voucher that is posted (directly through
 * `/Vouchers/*`, by sending an invoice, by approving a draft) goes through `postVoucher`, which
 * checks it the way the API does and writes one posting per ledger effect: the line itself (on a
 * general ledger account, or on a customer's, supplier's or employee's sub-ledger account) and the
 * VAT it carries. Balances, open items, statements, account transactions and the trial balance are
 * all computed from these postings, so they move only when vouchers are posted. Amounts are kept
 * in øre (integers) while they are summed, so no floating-point drift reaches a balance.
 */
import { problems, type Problem, type Result } from "../lib/problem";
import {
  CURRENCIES,
  CUSTOMER_LEDGER_ACCOUNT,
  EMPLOYEE_LEDGER_ACCOUNT,
  INPUT_VAT_ACCOUNT,
  OUTPUT_VAT_ACCOUNT,
  SUPPLIER_LEDGER_ACCOUNT,
  VAT_CODES,
} from "./chart";
import { stampBalances } from "./balance-stamps";
import { SETTINGS } from "./client-settings";
import type { Ctx } from "./call";
import type { Dto, Store } from "./store";

/** One line of a voucher to post, as the voucher DTOs name its parts. */
export interface PostingLine {
  AccountId: number;
  CurrencyAmount: number;
  CurrencyCode?: string | null;
  CurrencyExchangeRate?: number | null;
  VatId?: number | null;
  PostingDate: string;
  Description?: string | null;
  InvoiceNo?: string | null;
  CustomMatchingReference?: string | null;
  DueDate?: string | null;
  DepartmentId?: number | null;
  ProjectId?: number | null;
  ProductId?: number | null;
  LocationId?: number | null;
  Quantity?: number | null;
}

/** A voucher to post. */
export interface VoucherInput {
  VoucherType: string;
  VoucherDate: string;
  Description?: string | null;
  ExternalImportReference?: string | null;
  CurrencyCode?: string | null;
  lines: PostingLine[];
  /** Entity name in problem titles, e.g. "BankVoucher". */
  entity: string;
  /** Bank vouchers refuse VAT on their lines with their own error. */
  bank?: boolean;
  /** The route the voucher came in by, for `GET /Vouchers/<route>/{id}`. */
  route: string;
  /**
   * Posted through the API's own POST endpoints ("imported"), which VoucherDocumentation requires.
   */
  imported: boolean;
  /** The voucher's id when it already has one (a draft keeps its id when it is posted). */
  id?: string;
  /** Header properties the voucher's own endpoint shows besides the ledger's (e.g. SaftBatchId). */
  header?: Dto;
  /** The lines as the voucher's endpoint shows them; each gets its line id. */
  lineDtos?: Dto[];
}

/** The sub-ledger a posting belongs to. */
export type SubLedger = "customer" | "supplier" | "employee";

const SUBLEDGER_KINDS: [kind: string, ledger: SubLedger, control: number][] = [
  ["Customer", "customer", CUSTOMER_LEDGER_ACCOUNT],
  ["Supplier", "supplier", SUPPLIER_LEDGER_ACCOUNT],
  ["Employee", "employee", EMPLOYEE_LEDGER_ACCOUNT],
];

export const toOre = (amount: number) => Math.round(amount * 100);
export const fromOre = (ore: number) => ore / 100;

/**
 * The account a line's AccountId names: a general ledger account, or a contact's sub-ledger
 * account.
 */
function accountOf(
  store: Store,
  accountId: number,
): { account: Dto; contact: Dto | null; ledger: SubLedger | null } | null {
  const gl = store.get("GeneralLedgerAccount", accountId);
  if (gl) return { account: gl.dto, contact: null, ledger: null };
  for (const [kind, ledger, control] of SUBLEDGER_KINDS) {
    const contact = store.findBy(kind, "SubledgerAccountId", accountId);
    const controlAccount = contact && store.findBy("GeneralLedgerAccount", "AccountNo", control);
    if (contact && controlAccount)
      return { account: controlAccount.dto, contact: contact.dto, ledger };
  }
  return null;
}

/** NOK per unit of `code` on a date: a fixed sandbox table. */
export function nokRate(code: string | null | undefined): number | null {
  if (!code) return 1;
  return CURRENCIES.find((c) => c.code === code.toUpperCase())?.nok ?? null;
}

/**
 * Posts a voucher: validates every line, splits VAT off gross amounts, writes the voucher and its
 * postings, and matches sub-ledger entries that settle each other.
 */
export function postVoucher(
  ctx: Ctx,
  v: VoucherInput,
): Result<{ voucher: Dto; lineIds: number[] }> {
  const { store } = ctx;
  const invalid = (detail: string): Result<never> => ({
    ok: false,
    problem: problems.validation(v.entity, detail),
  });
  if (v.lines.length === 0) return invalid("VoucherLines: a voucher needs at least one line.");
  const ref = v.ExternalImportReference;
  if (ref) {
    const taken = store
      .all("Voucher")
      .find((r) => r.dto.ExternalImportReference === ref && r.dto.IsReversed !== true);
    if (taken)
      return invalid(
        `ExternalImportReference is already in use. '${ref}' is used on (voucher) Id = ${taken.id}.`,
      );
  }
  const lockDate = String(store.get(SETTINGS.lockDate, "settings")?.dto.LockDate ?? "0000-00-00");
  // First every line in NOK øre; then the balance; then the postings.
  const lines = [];
  for (const [i, line] of v.lines.entries()) {
    const where = `VoucherLines[${i}]`;
    if (line.PostingDate <= lockDate)
      return invalid(
        `${where}.PostingDate ${line.PostingDate} is in a locked period (locked up to ${lockDate}).`,
      );
    const target = accountOf(store, line.AccountId);
    if (!target) return { ok: false, problem: problems.notFound("Account", line.AccountId) };
    const vat = resolveVat(
      store,
      v,
      line,
      target.ledger !== null ||
        target.account.AccountNo === 1920 ||
        target.account.AccountNo === 1900,
      where,
    );
    if (!vat.ok) return vat;
    const currency = line.CurrencyCode ?? v.CurrencyCode ?? "NOK";
    const rate = line.CurrencyExchangeRate ?? nokRate(currency);
    if (rate === null)
      return invalid(
        `${where}.CurrencyCode '${currency}' is not an active currency on the client.`,
      );
    lines.push({
      line,
      target,
      vat: vat.value,
      currency,
      rate,
      gross: toOre(line.CurrencyAmount * rate),
    });
  }
  const currencies = new Set(lines.map((l) => l.currency));
  const [only] = currencies;
  if (currencies.size === 1 && only !== "NOK") {
    // One foreign currency: the voucher balances in it. Converting line by line can leave an øre or
    // two in NOK; that conversion rounding goes to the largest general-ledger line, not to an
    // error, and never to a customer or supplier line: their entries then convert alike on an
    // invoice and on its payment, and settle each other to the øre in NOK too.
    const inCurrency = lines.reduce((n, l) => n + toOre(l.line.CurrencyAmount), 0);
    if (inCurrency !== 0)
      return invalid(
        `The voucher does not balance: its lines sum to ${fromOre(inCurrency).toFixed(2)} ${only}, and must sum to 0.`,
      );
    const residue = lines.reduce((n, l) => n + l.gross, 0);
    const general = lines.filter((l) => l.target.ledger === null);
    const largest = (general.length ? general : lines).reduce((a, b) =>
      Math.abs(b.gross) > Math.abs(a.gross) ? b : a,
    );
    largest.gross -= residue;
  }
  const sum = lines.reduce((n, l) => n + l.gross, 0);
  if (sum !== 0)
    return invalid(
      `The voucher does not balance: its lines sum to ${fromOre(sum).toFixed(2)} NOK, and must sum to 0.`,
    );
  const postings: Dto[] = [];
  for (const { line, target, vat, currency, rate, gross } of lines) {
    const net = vat.rate > 0 ? Math.round(gross / (1 + vat.rate)) : gross;
    const inCurrency = (ore: number) =>
      rate === 1 ? fromOre(ore) : gross === 0 ? 0 : line.CurrencyAmount * (ore / gross);
    const base = {
      PostingDate: line.PostingDate,
      Description: line.Description ?? v.Description ?? null,
      VatId: vat.id,
      VatCode: vat.code,
      VatRate: vat.rate,
      CurrencyCode: currency,
      DepartmentId: line.DepartmentId ?? null,
      ProjectId: line.ProjectId ?? null,
      ProductId: line.ProductId ?? null,
      LocationId: line.LocationId ?? null,
      Quantity: line.Quantity ?? null,
    };
    postings.push({
      ...base,
      AccountId: target.account.Id,
      AccountNo: target.account.AccountNo,
      Amount: fromOre(net),
      CurrencyAmount: inCurrency(net),
      VatAmount: fromOre(gross - net),
      ContactId: target.contact?.Id ?? null,
      Ledger: target.ledger,
      InvoiceNo: line.InvoiceNo ?? null,
      CustomMatchingReference: line.CustomMatchingReference ?? null,
      DueDate: line.DueDate ?? null,
    });
    if (gross !== net) {
      const vatAccount = store.findBy(
        "GeneralLedgerAccount",
        "AccountNo",
        vat.direction === "input" ? INPUT_VAT_ACCOUNT : OUTPUT_VAT_ACCOUNT,
      );
      postings.push({
        ...base,
        AccountId: vatAccount?.dto.Id ?? null,
        AccountNo: vatAccount?.dto.AccountNo ?? null,
        Amount: fromOre(gross - net),
        CurrencyAmount: inCurrency(gross - net),
        VatAmount: 0,
        ContactId: null,
        Ledger: null,
        InvoiceNo: null,
        CustomMatchingReference: null,
        DueDate: null,
      });
    }
  }
  return { ok: true, value: write(ctx, v, postings) };
}

function resolveVat(
  store: Store,
  v: VoucherInput,
  line: PostingLine,
  noVatAccount: boolean,
  where: string,
): Result<{ id: number; code: string; rate: number; direction: string }> {
  const id = line.VatId ?? 1;
  const fact = VAT_CODES.find((c) => c.id === id);
  const stored = store.get("VatCode", id);
  if (v.bank) {
    // Bank lines move money; VAT belongs on the voucher that records the sale or purchase.
    if (!fact || !stored)
      return {
        ok: false,
        problem: problems.validation(
          v.entity,
          `${where}.VatId ${id} is not a valid VAT code on a bank voucher. Bank voucher lines take VatId 1 (code 0, no VAT).`,
        ),
      };
    if (fact.rate > 0 && noVatAccount) {
      return {
        ok: false,
        problem: problems.validation(
          v.entity,
          `${where}.VatId ${id} (code ${fact.code}) is not valid on a bank voucher line for a bank or sub-ledger account. Use VatId 1 (code 0, no VAT).`,
        ),
      };
    }
  }
  if (!fact || !stored) return { ok: false, problem: problems.notFound("VatCode", id) };
  return {
    ok: true,
    value: { id, code: fact.code, rate: noVatAccount ? 0 : fact.rate, direction: fact.direction },
  };
}

function write(ctx: Ctx, v: VoucherInput, postings: Dto[]): { voucher: Dto; lineIds: number[] } {
  const { store } = ctx;
  const at = ctx.now.toISOString();
  const id = v.id ?? crypto.randomUUID();
  const voucherNo = store.next("voucherNo", 1);
  const lineIds = v.lines.map(() => store.nextId());
  const voucher: Dto = {
    ...v.header,
    ...(v.lineDtos
      ? { Lines: v.lineDtos.map((l, i) => ({ ...l, Id: lineIds[i], CreatedDateTimeOffset: at })) }
      : {}),
    Id: id,
    VoucherNo: voucherNo,
    VoucherType: v.VoucherType,
    VoucherDate: v.VoucherDate,
    Description: v.Description ?? null,
    ExternalImportReference: v.ExternalImportReference ?? null,
    CurrencyCode: v.CurrencyCode ?? "NOK",
    IsReversed: false,
    CreatedDateTimeOffset: at,
    Route: v.route,
    Imported: v.imported,
  };
  store.put("Voucher", id, voucher, { owner: ctx.call.integration });
  const touched = new Set<string>();
  for (const p of postings) {
    const pid = store.nextId();
    store.put(
      "Posting",
      pid,
      {
        ...p,
        Id: pid,
        VoucherId: id,
        VoucherNo: voucherNo,
        VoucherType: v.VoucherType,
        VoucherDate: v.VoucherDate,
        VoucherDescription: v.Description ?? null,
        ExternalImportReference: v.ExternalImportReference ?? null,
        IsReversed: false,
        MatchId: null,
        CreatedDateTimeOffset: at,
        LastChangedDateTimeOffset: at,
      },
      { parent: id, owner: ctx.call.integration },
    );
    const key = matchKey(p);
    if (p.Ledger && key) touched.add(`${String(p.Ledger)}:${String(p.ContactId)}:${key}`);
  }
  for (const group of touched) match(store, group);
  stampBalances(store, postings, at);
  return { voucher, lineIds };
}

/** Entries settle each other when they share an invoice number or a custom matching reference. */
function matchKey(p: Dto): string | null {
  if (p.InvoiceNo) return `inv:${String(p.InvoiceNo)}`;
  if (p.CustomMatchingReference) return `ref:${String(p.CustomMatchingReference)}`;
  return null;
}

function match(store: Store, group: string): void {
  const entries = store
    .all("Posting")
    .filter(
      (r) =>
        r.dto.Ledger &&
        `${String(r.dto.Ledger)}:${String(r.dto.ContactId)}:${matchKey(r.dto)}` === group,
    );
  const total = entries.reduce((n, r) => n + toOre(Number(r.dto.Amount)), 0);
  const matchId = total === 0 ? store.next("matchId", 1) : null;
  for (const r of entries)
    store.put(
      "Posting",
      r.id,
      { ...r.dto, MatchId: matchId },
      { parent: r.parent, owner: r.owner },
    );
}

/**
 * Reverses a posted voucher: a reversal voucher that nullifies its postings, and the original
 * marked reversed.
 */
export function reverseVoucher(ctx: Ctx, id: string): Result<Dto> {
  const { store } = ctx;
  const original = store.get("Voucher", id);
  if (!original || original.owner !== ctx.call.integration || original.dto.Imported !== true)
    return { ok: false, problem: problems.notFound("Voucher", id) };
  if (original.dto.IsReversed === true)
    return {
      ok: false,
      problem: {
        status: 409,
        title: "Object conflict",
        detail: `Voucher with id = ${id} is already reversed.`,
      },
    };
  const postings = store.all("Posting", id);
  const reversal = write(
    ctx,
    {
      VoucherType: "ReversalVoucher",
      VoucherDate: ctx.now.toISOString().slice(0, 10),
      Description: `Reversal of voucher ${String(original.dto.VoucherNo)}`,
      lines: [],
      entity: "Voucher",
      route: "Reverse",
      imported: false,
    },
    postings.map((p) => ({
      ...p.dto,
      Amount: -Number(p.dto.Amount),
      CurrencyAmount: -Number(p.dto.CurrencyAmount),
      VatAmount: -Number(p.dto.VatAmount),
      PostingDate: p.dto.PostingDate,
    })),
  );
  store.put(
    "Voucher",
    id,
    {
      ...original.dto,
      IsReversed: true,
      ExternalImportReference: null,
      ReversedExternalImportReference: original.dto.ExternalImportReference,
    },
    { owner: original.owner },
  );
  // The invoices the reversed entries named: their balances move back, now.
  stampBalances(
    store,
    postings.map((p) => p.dto),
    ctx.now.toISOString(),
  );
  for (const p of [...postings, ...store.all("Posting", String(reversal.voucher.Id))]) {
    // Reversed entries and their reversal cancel out; they leave open items and invoice numbers
    // free for reuse.
    store.put(
      "Posting",
      p.id,
      { ...p.dto, IsReversed: true, InvoiceNo: null, CustomMatchingReference: null },
      { parent: p.parent, owner: p.owner },
    );
  }
  return { ok: true, value: reversal.voucher };
}

/** Postings on or before a date (inclusive), not reversed away. */
export function postingsUpTo(store: Store, date: string): Dto[] {
  return store
    .all("Posting")
    .map((r) => r.dto)
    .filter((p) => String(p.PostingDate) <= date);
}

/** The sub-ledger entries of one ledger, each with the ledger's view of its contact. */
export function ledgerEntries(store: Store, ledger: SubLedger): Dto[] {
  return store
    .all("Posting")
    .map((r) => r.dto)
    .filter((p) => p.Ledger === ledger);
}

/** A problem for a date pair where the first must come before the second. */
export function datePairProblem(from: string, to: string): Problem | null {
  return from > to
    ? {
        status: 400,
        title: "Invalid date range",
        detail: `FromDate (${from}) must be before ToDate (${to}).`,
      }
    : null;
}
