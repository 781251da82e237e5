/**
 * @module
 * Journal-entry vouchers of API v2: the drafts (`POST /JournalEntryVouchers/...`, edited until
 * posted or sent to approval), their lines, the approval calls, and what a voucher documentation
 * download may pack. Shared by the gateway and the sandbox so both refuse the same bodies in the
 * same words; the response shapes are the sandbox's (`sandbox/src/resources/fields/journal.ts`).
 */
import { z } from "zod";
import { VatReturnSpecification } from "./enums";
import { currencyCode, enumCI, int64, isoDate, opt } from "./schema-kit";
import { accrualFields, dimensionFields, lineCurrencyFields, lineFields } from "./voucher-lines";

/**
 * The integration's verdict on a voucher (`VoucherApprovalStatus`); `Reject` sends it back to
 * draft.
 */
const VoucherApprovalStatus = enumCI(["Approve", "Reject"]);

/** What `GET /VoucherDocumentation/Download` packs into the zip (`VoucherDocumentationType`). */
export const VoucherDocumentationType = enumCI(["Ehf", "Pdf", "Images", "All"]);

/** Purpose of a foreign payment for the currency registry (`CurrencyRegistryCode`). */
const CurrencyRegistryCode = enumCI([
  "None",
  "PurchaseOfGoods",
  "LeaseOfServices",
  "OtherPurchaseOrSaleOfServices",
  "Interests",
  "Dividends",
  "OtherReturnOnCapital",
  "PurchaseOrSaleOfProperty",
  "InvestmentInSharesAndMore",
  "InvestmentInOtherCapital",
  "PortfolioInvestmentInSharesAndMutualFundsShares",
  "PortfolioInvestmentInBondsAndNotes",
  "PortfolioInvestmentInDerivatives",
  "LifeInsurancePension",
  "OtherFinancialInvestments",
  "Salaries",
  "InheritanceGiftsAndMore",
]);

/** `LivestockGender` of an agriculture product line. */
const LivestockGender = enumCI(["Male", "Female", "NeuteredMale"]);

/** A journal-entry comment becomes voucher history in Go; the API caps it at 1000 characters. */
const comment = z.string().max(1000);

/**
 * `AccrualBase` (periodisering) of a journal-entry line: the amount is spread from FromDate to
 * ToDate.
 */
const AccrualPost = z
  .strictObject({ ...accrualFields, ToDate: isoDate.optional() })
  .superRefine((a, ctx) => {
    if (a.FromDate && a.ToDate && a.ToDate < a.FromDate) {
      ctx.addIssue({
        code: "custom",
        path: ["ToDate"],
        message: "ToDate must not be before FromDate",
      });
    }
  });

/** `AgricultureDetails`: product data Go keeps for agriculture reporting (Landbrukets dataflyt). */
const AgricultureDetailsPost = z.strictObject({
  AgriculturalIndustryCode: opt(z.int()),
  IsMainProductLine: z.boolean().optional(),
  ProductAdditionSubtractionCode: opt(z.int()),
  ProductAnimalId: opt(z.string().max(100)),
  ProductChassisId: opt(z.string().max(17)),
  ProductCode: opt(z.int()),
  ProductDateOfBirth: opt(isoDate),
  ProductDetailCode: opt(z.int()),
  ProductEcological: opt(z.boolean()),
  ProductGender: LivestockGender.optional(),
  ProductGtinNumber: opt(z.string().max(14)),
  ProductHasForestCertificationCode: opt(z.boolean()),
  ProductMachineType: opt(z.string().max(100)),
  ProductQualityCode: opt(z.int()),
  ProductRacialCode: opt(z.string().max(32)),
  ProductRegistrationId: opt(z.string().max(100)),
});

/**
 * Line fields of the journal-entry drafts: one line carries both sides (debit and credit account,
 * each with its own VAT code). The spec states no non-zero rule here, and a draft line may be
 * completed later.
 */
const draftLineFields = {
  ...lineFields,
  Accrual: AccrualPost.optional(),
  AgricultureDetails: AgricultureDetailsPost.optional(),
  CreditAccountId: opt(int64),
  CreditVatId: opt(z.int()),
  CreditVatReturnSpecification: VatReturnSpecification.optional(),
  CurrencyAmount: z.number().optional(),
  DebitAccountId: opt(int64),
  DebitVatId: opt(z.int()),
  DebitVatReturnSpecification: VatReturnSpecification.optional(),
};

/**
 * Draft line fields of the manual and bank journals; supplier lines take the voucher's currency and
 * date.
 */
const journalLineFields = { ...draftLineFields, ...lineCurrencyFields, PostingDate: opt(isoDate) };

/**
 * `ManualJournalEntryVoucherLinePostDto` (also the body of `POST
 * .../ManualJournals/{id}/VoucherLines`).
 */
export const ManualJournalEntryVoucherLinePost = z.strictObject(journalLineFields);
export type ManualJournalEntryVoucherLinePost = z.output<typeof ManualJournalEntryVoucherLinePost>;

/** `BankJournalEntryVoucherLinePostDto`. */
export const BankJournalEntryVoucherLinePost = z.strictObject({
  ...journalLineFields,
  InvoiceNo: opt(z.string()),
});
export type BankJournalEntryVoucherLinePost = z.output<typeof BankJournalEntryVoucherLinePost>;

/**
 * `SupplierVoucherLinePostDto` (also the body of `POST
 * .../Supplier{Invoices,CreditNotes}/{id}/VoucherLines`).
 */
export const SupplierVoucherLinePost = z.strictObject(draftLineFields);
export type SupplierVoucherLinePost = z.output<typeof SupplierVoucherLinePost>;

/**
 * Header fields of every journal-entry draft; lines inherit the header's dimensions unless they set
 * their own.
 */
const draftVoucherFields = {
  ...dimensionFields,
  Comment: opt(comment),
  CurrencyCode: currencyCode,
  Description: opt(z.string()),
  VoucherDate: isoDate,
};

/** `ManualJournalEntryVoucherPostDto`. */
export const ManualJournalEntryVoucherPost = z.strictObject({
  ...draftVoucherFields,
  ManualVoucherLines: opt(z.array(ManualJournalEntryVoucherLinePost)),
});
export type ManualJournalEntryVoucherPost = z.output<typeof ManualJournalEntryVoucherPost>;

/**
 * `BankJournalEntryVoucherPostDto`: the lines go in as `BankJournalLines` but come back as
 * `BankVoucherLines`.
 */
export const BankJournalEntryVoucherPost = z.strictObject({
  ...draftVoucherFields,
  BankJournalLines: opt(z.array(BankJournalEntryVoucherLinePost)),
});
export type BankJournalEntryVoucherPost = z.output<typeof BankJournalEntryVoucherPost>;

/**
 * Header fields shared by supplier invoices and credit notes. The spec types their lines as the
 * response `SupplierVoucherLineDto` (a merge artefact: it holds read-only fields); the line POST
 * body is what Go reads.
 */
const supplierVoucherFields = {
  ...draftVoucherFields,
  Cid: opt(z.string()),
  ClientBankAccountId: opt(int64),
  CurrencyAmount: z.number().optional(),
  CurrencyExchangeRate: opt(z.number().positive()),
  CurrencyRegistryCode: CurrencyRegistryCode.optional(),
  CurrencyRegistryText: opt(z.string()),
  PaymentDate: opt(isoDate),
  PaymentOnHold: opt(z.boolean()),
  Payout: opt(z.boolean()),
  SupplierAccountId: opt(int64),
  SupplierBankAccountId: opt(int64),
  SupplierVoucherLines: opt(z.array(SupplierVoucherLinePost)),
};

/**
 * `SupplierInvoiceJournalEntryVoucherPostDto`: an incoming invoice as a draft, due no earlier than
 * its date.
 */
export const SupplierInvoiceJournalEntryVoucherPost = z
  .strictObject({
    ...supplierVoucherFields,
    ContractNo: opt(z.string()),
    DueDate: opt(isoDate),
    InvoiceNo: z.string().min(1).max(40),
    PurchaseOrderReference: opt(z.string()),
  })
  .superRefine((v, ctx) => {
    if (v.DueDate && v.DueDate < v.VoucherDate) {
      ctx.addIssue({
        code: "custom",
        path: ["DueDate"],
        message: "DueDate must be on or after VoucherDate",
      });
    }
  });
export type SupplierInvoiceJournalEntryVoucherPost = z.output<
  typeof SupplierInvoiceJournalEntryVoucherPost
>;

/**
 * `SupplierCreditNoteJournalEntryVoucherPostDto`: may point at the invoice it credits, by id or
 * number.
 */
export const SupplierCreditNoteJournalEntryVoucherPost = z.strictObject({
  ...supplierVoucherFields,
  AppliesInvoiceId: opt(z.uuid()),
  AppliesInvoiceNo: opt(z.string()),
  CreditNoteNo: z.string().min(1).max(40),
});
export type SupplierCreditNoteJournalEntryVoucherPost = z.output<
  typeof SupplierCreditNoteJournalEntryVoucherPost
>;

/** `SubmitForApprovalPostDto` (`POST /JournalEntryVouchers/{id}/submitForApproval`). */
export const SubmitForApprovalPost = z.strictObject({ Comment: opt(comment) });
export type SubmitForApprovalPost = z.output<typeof SubmitForApprovalPost>;

/**
 * `VoucherApprovalPostDto` (`POST /VoucherApproval/{voucherId}`): the comment is required
 * (minLength 1) because Go shows it to the accountant as the reason for the verdict.
 */
export const VoucherApprovalPost = z.strictObject({
  Comment: z
    .string()
    .min(1, "Comment is required: say why the voucher is approved or rejected")
    .max(1000),
  VoucherApprovalStatus: VoucherApprovalStatus,
});
export type VoucherApprovalPost = z.output<typeof VoucherApprovalPost>;
