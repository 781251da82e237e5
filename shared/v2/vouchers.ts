/**
 * @module
 * The posted vouchers of API v2: the bodies of `POST /Vouchers/{Manual,Bank,Cash,YearEnd}Journals`,
 * which go straight to the general ledger. Shared by the gateway and the sandbox so both refuse the
 * same bodies in the same words; drafts and approval are in `journal-entries.ts`.
 */
import { z } from "zod";
import { VatReturnSpecification } from "./enums";
import { currencyCode, int64, isoDate, opt } from "./schema-kit";
import { lineCurrencyFields, lineFields } from "./voucher-lines";

/** The spec says "Max length 35 characters" in prose only; SAF-T export would truncate silently. */
const saftId = z.string().max(35);

/**
 * The line amount is the signed gross amount, and the API's own default (0) is refused, so it is
 * required here rather than letting a forgotten field reach PowerOffice as a zero line.
 */
function refuseZeroAmount<T extends { CurrencyAmount: number }>(line: T, ctx: z.RefinementCtx<T>) {
  if (line.CurrencyAmount === 0) {
    ctx.addIssue({
      code: "custom",
      path: ["CurrencyAmount"],
      message: "CurrencyAmount must be a positive or negative number, not 0",
    });
  }
}

/** Line fields of the vouchers posted directly (`ManualVoucherLinePostDto` and its siblings). */
const postedLineFields = {
  ...lineFields,
  ...lineCurrencyFields,
  AccountId: int64,
  CurrencyAmount: z.number(),
  CustomMatchingReference: opt(z.string()),
  ExternalLineReference: opt(z.string()),
  PostingDate: isoDate,
  VatId: z.int(),
  VatReturnSpecification: VatReturnSpecification.optional(),
};

/**
 * `ManualVoucherLinePostDto`; `CashVoucherLinePostDto` and `YearEndVoucherLinePostDto` have exactly
 * the same fields.
 */
const postedLine = z.strictObject(postedLineFields).superRefine(refuseZeroAmount);

/**
 * `BankVoucherLinePostDto`: a payment line may name the KID or invoice it settles, for matching.
 */
export const BankVoucherLinePost = z
  .strictObject({ ...postedLineFields, Cid: opt(z.string()), InvoiceNo: opt(z.string()) })
  .superRefine(refuseZeroAmount);
export type BankVoucherLinePost = z.output<typeof BankVoucherLinePost>;

/** Header fields of the vouchers posted directly; they differ only in their line type. */
const postedVoucherFields = {
  CurrencyCode: currencyCode,
  Description: opt(z.string()),
  ExternalImportReference: opt(z.string()),
  ImportedVoucherNo: opt(int64),
  SaftBatchId: opt(saftId),
  SaftSourceId: opt(saftId),
  VoucherDate: isoDate,
};

/** `ManualVoucherPostDto`: posts straight to the general ledger. */
export const ManualVoucherPost = z.strictObject({
  ...postedVoucherFields,
  VoucherLines: opt(z.array(postedLine)),
});
export type ManualVoucherPost = z.output<typeof ManualVoucherPost>;

/** `BankVoucherPostDto`. */
export const BankVoucherPost = z.strictObject({
  ...postedVoucherFields,
  VoucherLines: opt(z.array(BankVoucherLinePost)),
});
export type BankVoucherPost = z.output<typeof BankVoucherPost>;

/** `CashVoucherPostDto`. */
export const CashVoucherPost = z.strictObject({
  ...postedVoucherFields,
  VoucherLines: opt(z.array(postedLine)),
});
export type CashVoucherPost = z.output<typeof CashVoucherPost>;

/** `YearEndVoucherPostDto`: unlike its siblings, the spec requires the lines. */
export const YearEndVoucherPost = z.strictObject({
  ...postedVoucherFields,
  VoucherLines: z.array(postedLine),
});
export type YearEndVoucherPost = z.output<typeof YearEndVoucherPost>;
