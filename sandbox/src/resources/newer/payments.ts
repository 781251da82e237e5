/**
 * @module
 * The payment-side groups newer than the published document, shape-agnostic: supplier payment terms
 * (experimental, all five operations, integer ids), bank transfers (GUID ids, as v2's
 * `AccountTransactionDto.BankTransferId` shows; read, create and delete, since the v1 reference
 * says a transfer is deleted and recreated rather than edited), and the direct posts of outgoing
 * invoice and credit-note journals (GUID ids, as the published `GET
 * /Vouchers/OutgoingInvoiceJournals/{id}`).
 *
 * The journal posts are stored, not posted to the ledger: their v2 bodies are unpublished, so the
 * sandbox cannot know which property is the amount or the account. A journal reads back only for
 * the integration that created it, as the published GET says of its own vouchers. The invoice
 * journal's GET is published (`OutgoingInvoiceVoucherDto`, which the reference says doubles as the
 * body): it answers that shape, filled from the stored object's properties of the same names; the
 * credit-note journal's GET is not, and answers the stored object.
 */
import { fail, ok, type Ctx, type Handler } from "../../engine/call";
import {
  createFromBody,
  findFree,
  freeDto,
  freeHandlers,
  freeMeta,
  type FreeSpec,
} from "../../engine/free";
import { shape, type Dto, type Stored } from "../../engine/store";
import { problems, type Result } from "../../lib/problem";
import {
  OUTGOING_INVOICE_VOUCHER_DTO_FIELDS,
  OUTGOING_INVOICE_VOUCHER_LINE_DTO_FIELDS,
} from "../fields/vouchers";

const PAYMENT_TERM_SUPPLIER: FreeSpec = {
  kind: "PaymentTermSupplier",
  entity: "PaymentTermSupplier",
  idType: "int",
};
const BANK_TRANSFER: FreeSpec = { kind: "BankTransfer", entity: "BankTransfer", idType: "uuid" };
const INVOICE_JOURNAL: FreeSpec = {
  kind: "OutgoingInvoiceJournal",
  entity: "Voucher",
  idType: "uuid",
};
const CREDIT_NOTE_JOURNAL: FreeSpec = {
  kind: "OutgoingCreditNoteJournal",
  entity: "Voucher",
  idType: "uuid",
};

/**
 * The journal `{id}` this integration posted through the shape-agnostic POST; others are not found.
 */
function ownJournal(ctx: Ctx, spec: FreeSpec): Result<Stored> {
  const r = findFree(ctx, spec);
  if (!r.ok) return r;
  return r.value.owner === ctx.call.integration
    ? r
    : fail(problems.notFound(spec.entity, r.value.id));
}

/**
 * The stored invoice journal in the published `OutgoingInvoiceVoucherDto` shape; it is not posted,
 * so it has no VoucherNo.
 */
function invoiceVoucherDto(r: Stored): Dto {
  const dto = freeDto(INVOICE_JOURNAL, r);
  const lines = Array.isArray(dto.OutgoingInvoiceLines)
    ? dto.OutgoingInvoiceLines.map((l) => shape(OUTGOING_INVOICE_VOUCHER_LINE_DTO_FIELDS, l as Dto))
    : [];
  return shape(OUTGOING_INVOICE_VOUCHER_DTO_FIELDS, {
    ...dto,
    CreatedDateTimeOffset: freeMeta(r).created,
    VoucherNo: null,
    OutgoingInvoiceLines: lines,
  });
}

export const paymentHandlers: Record<string, Handler> = {
  ...freeHandlers(PAYMENT_TERM_SUPPLIER, "/PaymentTermSuppliers"),
  ...freeHandlers(BANK_TRANSFER, "/BankTransfers", "id", ["GET", "POST", "DELETE"]),
  "POST /Vouchers/OutgoingInvoiceJournals": (ctx) => createFromBody(ctx, INVOICE_JOURNAL),
  "POST /Vouchers/OutgoingCreditNoteJournals": (ctx) => createFromBody(ctx, CREDIT_NOTE_JOURNAL),
  "GET /Vouchers/OutgoingCreditNoteJournals/{id}": (ctx) => {
    const r = ownJournal(ctx, CREDIT_NOTE_JOURNAL);
    return r.ok ? ok(freeDto(CREDIT_NOTE_JOURNAL, r.value)) : r;
  },
  "GET /Vouchers/OutgoingInvoiceJournals/{id}": (ctx) => {
    const r = ownJournal(ctx, INVOICE_JOURNAL);
    return r.ok ? ok(invoiceVoucherDto(r.value)) : r;
  },
};
