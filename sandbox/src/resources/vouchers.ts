/**
 * @module
 * Vouchers posted directly to the ledger (`/Vouchers/{Manual,Bank,Cash,YearEnd}Journals`), their
 * reads (only the integration's own), and `POST /Vouchers/Reverse/{id}`. The outgoing invoice and
 * credit-note journals are in `newer/payments.ts`: their posts' shapes are unpublished.
 */
import type { z } from "zod";
import type { ManualVoucherPost } from "../../../shared/v2/vouchers";
import { empty, fail, ok, uuidParam, type Handler } from "../engine/call";
import { postVoucher, reverseVoucher } from "../engine/ledger";
import { shape, type Dto } from "../engine/store";
import { problems } from "../lib/problem";
import {
  BANK_VOUCHER_LINE_DTO_FIELDS,
  VOUCHER_DTO_FIELDS,
  VOUCHER_LINE_DTO_FIELDS,
} from "./fields/vouchers";

type PostedVoucher = z.output<typeof ManualVoucherPost>;

/** The four journals posted directly, with the voucher type each records. */
const JOURNALS = [
  { route: "ManualJournals", type: "ManualJournal", entity: "ManualVoucher" },
  { route: "BankJournals", type: "BankJournal", entity: "BankVoucher" },
  { route: "CashJournals", type: "CashJournal", entity: "CashVoucher" },
  { route: "YearEndJournals", type: "YearEndJournal", entity: "YearEndVoucher" },
] as const;

/**
 * The voucher DTO as the journal endpoints answer it: the header and its own lines, in their
 * published shapes.
 */
export function voucherDto(voucher: Dto): Dto {
  const lineFields =
    voucher.Route === "BankJournals" ? BANK_VOUCHER_LINE_DTO_FIELDS : VOUCHER_LINE_DTO_FIELDS;
  const lines = ((voucher.Lines as Dto[] | undefined) ?? []).map((l) => shape(lineFields, l));
  return shape(VOUCHER_DTO_FIELDS, { ...voucher, VoucherLines: lines });
}

function postJournal(j: (typeof JOURNALS)[number]): Handler {
  return (ctx) => {
    const body = ctx.call.body as PostedVoucher;
    const lines = body.VoucherLines ?? [];
    const posted = postVoucher(ctx, {
      VoucherType: j.type,
      VoucherDate: body.VoucherDate,
      Description: body.Description ?? null,
      ExternalImportReference: body.ExternalImportReference ?? null,
      CurrencyCode: body.CurrencyCode ?? null,
      lines: lines.map((l) => ({ ...l, AccountId: Number(l.AccountId) })),
      entity: j.entity,
      bank: j.type === "BankJournal",
      route: j.route,
      imported: true,
      header: {
        SaftBatchId: body.SaftBatchId ?? null,
        SaftSourceId: body.SaftSourceId ?? null,
        ImportedVoucherNo: body.ImportedVoucherNo ?? null,
      },
      lineDtos: lines,
    });
    if (!posted.ok) return posted;
    return ok(voucherDto(posted.value.voucher), 201);
  };
}

/**
 * `GET /Vouchers/<route>/{id}`: only vouchers of that route that this integration created; others
 * are not found.
 */
function getOwn(route: string): Handler {
  return (ctx) => {
    const id = uuidParam(ctx, "id");
    if (!id.ok) return id;
    const r = ctx.store.get("Voucher", id.value);
    if (!r || r.owner !== ctx.call.integration || r.dto.Route !== route)
      return fail(problems.notFound("Voucher", id.value));
    return ok(voucherDto(r.dto));
  };
}

export const voucherHandlers: Record<string, Handler> = {
  ...Object.fromEntries(
    JOURNALS.flatMap((j) => [
      [`POST /Vouchers/${j.route}`, postJournal(j)],
      [`GET /Vouchers/${j.route}/{id}`, getOwn(j.route)],
    ]),
  ),
  "POST /Vouchers/Reverse/{id}": (ctx) => {
    const id = uuidParam(ctx, "id");
    if (!id.ok) return id;
    const reversed = reverseVoucher(ctx, id.value);
    // The published 200 has no body; the reversal voucher shows in the ledgers.
    return reversed.ok ? empty(200) : reversed;
  },
};
