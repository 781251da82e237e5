/**
 * @module
 * Vouchers of API v2: the bodies of the posted-voucher endpoints (`POST /Vouchers/{Manual,Bank,Cash,YearEnd}Journals`,
 * which go straight to the general ledger), the journal-entry drafts (`POST /JournalEntryVouchers/...`, edited until
 * posted or sent to approval), the approval calls, and the field lists of the read-only ledger resources
 * (account transactions, trial balance, customer and supplier ledgers, voucher documentation).
 * Shared by the gateway and the sandbox so both refuse the same bodies in the same words.
 */
import { z } from "zod";
import { AgricultureDepartment, VatReturnSpecification } from "./enums";
import { enumCI, int64, isoDate, opt } from "./schema-kit";

/** Where a voucher stands in Go's approval workflow (`ApprovalState`). */
export const ApprovalState = enumCI(["Approved", "Canceled", "Rejected", "Submitted", "UnderReview"]);

/** Life cycle of a journal-entry voucher (`VoucherState`): only `IsDraft` may be edited or deleted. */
export const VoucherState = enumCI(["IsDraft", "IsDeleted", "IsPosted", "IsProcessed"]);

/** Kind of a voucher offered to the integration for approval (`ApprovalVoucherType`). */
export const ApprovalVoucherType = enumCI(["SupplierInvoice", "SupplierCreditNote", "ManualJournal", "BankJournal"]);

/** The integration's verdict on a voucher (`VoucherApprovalStatus`); `Reject` sends it back to draft. */
export const VoucherApprovalStatus = enumCI(["Approve", "Reject"]);

/** What `GET /VoucherDocumentation/Download` packs into the zip (`VoucherDocumentationType`). */
export const VoucherDocumentationType = enumCI(["Ehf", "Pdf", "Images", "All"]);

/** Ledger an account belongs to (`AccountType`). */
export const AccountType = enumCI(["Customer", "Employee", "General", "Supplier"]);

/** Purpose of a foreign payment for the currency registry (`CurrencyRegistryCode`). */
export const CurrencyRegistryCode = enumCI([
  "None", "PurchaseOfGoods", "LeaseOfServices", "OtherPurchaseOrSaleOfServices", "Interests", "Dividends",
  "OtherReturnOnCapital", "PurchaseOrSaleOfProperty", "InvestmentInSharesAndMore", "InvestmentInOtherCapital",
  "PortfolioInvestmentInSharesAndMutualFundsShares", "PortfolioInvestmentInBondsAndNotes",
  "PortfolioInvestmentInDerivatives", "LifeInsurancePension", "OtherFinancialInvestments", "Salaries",
  "InheritanceGiftsAndMore",
]);

/** `LivestockGender` of an agriculture product line. */
export const LivestockGender = enumCI(["Male", "Female", "NeuteredMale"]);

const currencyCode = z.string().regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 code");
/** The spec says "Max length 35 characters" in prose only; SAF-T export would truncate silently. */
const saftId = z.string().max(35);
/** A journal-entry comment becomes voucher history in Go; the API caps it at 1000 characters. */
const comment = z.string().max(1000);

/**
 * The dimensions every voucher line (and journal-entry header) may carry. On journal entries `-1` means
 * "none" and overrides the header, so negative ids are allowed.
 */
const dimensionFields = {
  DepartmentId: opt(int64),
  Dim1Id: opt(int64),
  Dim2Id: opt(int64),
  Dim3Id: opt(int64),
  LocationId: opt(int64),
  ProjectId: opt(int64),
};

/** Fields every line DTO shares, posted or draft. */
const lineFields = {
  ...dimensionFields,
  Description: opt(z.string()),
  ProductId: opt(int64),
  Quantity: opt(z.number()),
  Quantity2: opt(z.number()),
};

/** A line may be in another currency than its voucher; the rate is "always base 1". */
const lineCurrencyFields = {
  CurrencyCode: opt(currencyCode),
  CurrencyExchangeRate: opt(z.number().positive()),
};

/**
 * The line amount is the signed gross amount, and the API's own default (0) is refused, so it is required
 * here rather than letting a forgotten field reach PowerOffice as a zero line.
 */
function refuseZeroAmount<T extends { CurrencyAmount: number }>(line: T, ctx: z.RefinementCtx<T>) {
  if (line.CurrencyAmount === 0) {
    ctx.addIssue({ code: "custom", path: ["CurrencyAmount"], message: "CurrencyAmount must be a positive or negative number, not 0" });
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

/** `ManualVoucherLinePostDto`; Cash and YearEnd lines have exactly the same fields. */
const postedLine = z.strictObject(postedLineFields).superRefine(refuseZeroAmount);
export const ManualVoucherLinePost = postedLine;
export type ManualVoucherLinePost = z.output<typeof ManualVoucherLinePost>;
export const CashVoucherLinePost = postedLine;
export type CashVoucherLinePost = z.output<typeof CashVoucherLinePost>;
export const YearEndVoucherLinePost = postedLine;
export type YearEndVoucherLinePost = z.output<typeof YearEndVoucherLinePost>;

/** `BankVoucherLinePostDto`: a payment line may name the KID or invoice it settles, for matching. */
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
export const ManualVoucherPost = z.strictObject({ ...postedVoucherFields, VoucherLines: opt(z.array(ManualVoucherLinePost)) });
export type ManualVoucherPost = z.output<typeof ManualVoucherPost>;

/** `BankVoucherPostDto`. */
export const BankVoucherPost = z.strictObject({ ...postedVoucherFields, VoucherLines: opt(z.array(BankVoucherLinePost)) });
export type BankVoucherPost = z.output<typeof BankVoucherPost>;

/** `CashVoucherPostDto`. */
export const CashVoucherPost = z.strictObject({ ...postedVoucherFields, VoucherLines: opt(z.array(CashVoucherLinePost)) });
export type CashVoucherPost = z.output<typeof CashVoucherPost>;

/** `YearEndVoucherPostDto`: unlike its siblings, the spec requires the lines. */
export const YearEndVoucherPost = z.strictObject({ ...postedVoucherFields, VoucherLines: z.array(YearEndVoucherLinePost) });
export type YearEndVoucherPost = z.output<typeof YearEndVoucherPost>;

/** `AccrualBase` (periodisering) of a journal-entry line: the amount is spread from FromDate to ToDate. */
export const AccrualPost = z
  .strictObject({
    BalanceAccountAgricultureDepartment: AgricultureDepartment.optional(),
    BalanceAccountId: opt(int64),
    BalanceAccountNo: opt(int64),
    FromDate: isoDate.optional(),
    IsActive: z.boolean().optional(),
    ToDate: isoDate.optional(),
  })
  .superRefine((a, ctx) => {
    if (a.FromDate && a.ToDate && a.ToDate < a.FromDate) {
      ctx.addIssue({ code: "custom", path: ["ToDate"], message: "ToDate must not be before FromDate" });
    }
  });
export type AccrualPost = z.output<typeof AccrualPost>;

/** `AgricultureDetails`: product data Go keeps for agriculture reporting (Landbrukets dataflyt). */
export const AgricultureDetailsPost = z.strictObject({
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
export type AgricultureDetailsPost = z.output<typeof AgricultureDetailsPost>;

/**
 * Line fields of the journal-entry drafts: one line carries both sides (debit and credit account, each
 * with its own VAT code). The spec states no non-zero rule here, and a draft line may be completed later.
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

/** Draft line fields of the manual and bank journals; supplier lines take the voucher's currency and date. */
const journalLineFields = { ...draftLineFields, ...lineCurrencyFields, PostingDate: opt(isoDate) };

/** `ManualJournalEntryVoucherLinePostDto` (also the body of `POST .../ManualJournals/{id}/VoucherLines`). */
export const ManualJournalEntryVoucherLinePost = z.strictObject(journalLineFields);
export type ManualJournalEntryVoucherLinePost = z.output<typeof ManualJournalEntryVoucherLinePost>;

/** `BankJournalEntryVoucherLinePostDto`. */
export const BankJournalEntryVoucherLinePost = z.strictObject({ ...journalLineFields, InvoiceNo: opt(z.string()) });
export type BankJournalEntryVoucherLinePost = z.output<typeof BankJournalEntryVoucherLinePost>;

/** `SupplierVoucherLinePostDto` (also the body of `POST .../Supplier{Invoices,CreditNotes}/{id}/VoucherLines`). */
export const SupplierVoucherLinePost = z.strictObject(draftLineFields);
export type SupplierVoucherLinePost = z.output<typeof SupplierVoucherLinePost>;

/** Header fields of every journal-entry draft; lines inherit the header's dimensions unless they set their own. */
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

/** `BankJournalEntryVoucherPostDto`: the lines go in as `BankJournalLines` but come back as `BankVoucherLines`. */
export const BankJournalEntryVoucherPost = z.strictObject({
  ...draftVoucherFields,
  BankJournalLines: opt(z.array(BankJournalEntryVoucherLinePost)),
});
export type BankJournalEntryVoucherPost = z.output<typeof BankJournalEntryVoucherPost>;

/**
 * Header fields shared by supplier invoices and credit notes. The spec types their lines as the response
 * `SupplierVoucherLineDto` (a merge artefact: it holds read-only fields); the line POST body is what Go reads.
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

/** `SupplierInvoiceJournalEntryVoucherPostDto`: an incoming invoice as a draft, due no earlier than its date. */
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
      ctx.addIssue({ code: "custom", path: ["DueDate"], message: "DueDate must be on or after VoucherDate" });
    }
  });
export type SupplierInvoiceJournalEntryVoucherPost = z.output<typeof SupplierInvoiceJournalEntryVoucherPost>;

/** `SupplierCreditNoteJournalEntryVoucherPostDto`: may point at the invoice it credits, by id or number. */
export const SupplierCreditNoteJournalEntryVoucherPost = z.strictObject({
  ...supplierVoucherFields,
  AppliesInvoiceId: opt(z.uuid()),
  AppliesInvoiceNo: opt(z.string()),
  CreditNoteNo: z.string().min(1).max(40),
});
export type SupplierCreditNoteJournalEntryVoucherPost = z.output<typeof SupplierCreditNoteJournalEntryVoucherPost>;

/** `SubmitForApprovalPostDto` (`POST /JournalEntryVouchers/{id}/submitForApproval`). */
export const SubmitForApprovalPost = z.strictObject({ Comment: opt(comment) });
export type SubmitForApprovalPost = z.output<typeof SubmitForApprovalPost>;

/**
 * `VoucherApprovalPostDto` (`POST /VoucherApproval/{voucherId}`): the comment is required (minLength 1) because
 * Go shows it to the accountant as the reason for the verdict.
 */
export const VoucherApprovalPost = z.strictObject({
  Comment: z.string().min(1, "Comment is required: say why the voucher is approved or rejected").max(1000),
  VoucherApprovalStatus: VoucherApprovalStatus,
});
export type VoucherApprovalPost = z.output<typeof VoucherApprovalPost>;

/** What `ManualVoucherDto` (and the Bank, Cash and YearEnd voucher DTOs) add to their POST body. */
export const MANUAL_VOUCHER_DTO_FIELDS = ["CreatedDateTimeOffset", "Id", "IsReversed", "VoucherNo"] as const;
export const BANK_VOUCHER_DTO_FIELDS = MANUAL_VOUCHER_DTO_FIELDS;
export const CASH_VOUCHER_DTO_FIELDS = MANUAL_VOUCHER_DTO_FIELDS;
export const YEAR_END_VOUCHER_DTO_FIELDS = MANUAL_VOUCHER_DTO_FIELDS;

/** What `ManualVoucherLineDto` (and the Bank, Cash and YearEnd line DTOs) add to their POST body. */
export const MANUAL_VOUCHER_LINE_DTO_FIELDS = ["CreatedDateTimeOffset", "Id"] as const;
export const BANK_VOUCHER_LINE_DTO_FIELDS = MANUAL_VOUCHER_LINE_DTO_FIELDS;
export const CASH_VOUCHER_LINE_DTO_FIELDS = MANUAL_VOUCHER_LINE_DTO_FIELDS;
export const YEAR_END_VOUCHER_LINE_DTO_FIELDS = MANUAL_VOUCHER_LINE_DTO_FIELDS;

/** `ManualJournalEntryVoucherDto` adds these (and drops `Comment`, which is never returned). */
export const MANUAL_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS = ["Id", "Pages"] as const;
/** `BankJournalEntryVoucherDto` adds these; its `BankVoucherLines` replace the body's `BankJournalLines`. */
export const BANK_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS = ["BankVoucherLines", "Id", "Pages"] as const;

/** What `ManualJournalEntryVoucherLineDto` and `BankJournalEntryVoucherLineDto` add to their POST body. */
export const MANUAL_JOURNAL_ENTRY_VOUCHER_LINE_DTO_FIELDS = [
  "CreatedDateTimeOffset", "CreditAccountAgricultureDepartment", "DebitAccountAgricultureDepartment", "Id",
  "LastChangedDateTimeOffset",
] as const;
export const BANK_JOURNAL_ENTRY_VOUCHER_LINE_DTO_FIELDS = MANUAL_JOURNAL_ENTRY_VOUCHER_LINE_DTO_FIELDS;

/** What `SupplierVoucherLineDto` adds: the journal-entry line fields plus the resolved accounts and EHF item. */
export const SUPPLIER_VOUCHER_LINE_DTO_FIELDS = [
  ...MANUAL_JOURNAL_ENTRY_VOUCHER_LINE_DTO_FIELDS, "CreditAccountType", "CreditContactId", "DebitAccountType",
  "DebitContactId", "ItemDescription", "ItemName", "SellersItemIdentification",
] as const;

/** What `SupplierInvoiceJournalEntryVoucherDto` and `SupplierCreditNoteJournalEntryVoucherDto` add (no `Comment`). */
export const SUPPLIER_INVOICE_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS = [
  "ApprovalState", "CreatedDateTimeOffset", "Id", "LastChangedDateTimeOffset", "OriginatedFromEhf", "Pages",
  "SupplierContactId", "VoucherState",
] as const;
export const SUPPLIER_CREDIT_NOTE_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS = SUPPLIER_INVOICE_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS;

/** `JournalEntryVoucherListItem` (`GET /JournalEntryVouchers`). */
export const JOURNAL_ENTRY_VOUCHER_LIST_ITEM_FIELDS = [
  "CreatedDateTimeOffset", "Id", "InApprovalWorkflow", "IsCreatedByCurrentIntegration", "IsPosted",
  "LastChangedDateTimeOffset", "OriginatedFromEhf", "VoucherType",
] as const;

/** `VoucherPage`: an attached page; its image is served by `GET /JournalEntryVouchers/{id}/VoucherPages/{pageId}`. */
export const VOUCHER_PAGE_FIELDS = ["CreatedDateTimeOffset", "Id", "VoucherId"] as const;

/** `VoucherForApprovalDto` (`GET /VoucherApproval`). */
export const VOUCHER_FOR_APPROVAL_DTO_FIELDS = ["ApprovalVoucherType", "AvailableFromDateTimeOffset", "Id", "OriginatedFromEhf"] as const;

/** `VoucherApprovalStatusResponseDto` (answer of submitForApproval and of a verdict). */
export const VOUCHER_APPROVAL_STATUS_RESPONSE_DTO_FIELDS = ["InApprovalWorkflow", "IsPosted", "VoucherId"] as const;

/** `AccountTransactionDto` (`GET /AccountTransactions`). */
export const ACCOUNT_TRANSACTION_DTO_FIELDS = [
  "AccountId", "AccountNo", "AgricultureDepartment", "Amount", "BankTransferId", "ContactId", "CorrectionOfVoucherId",
  "CorrectionOfVoucherNo", "CreatedDateTimeOffset", "CreatedFromImportJournalId", "CurrencyAmount", "CurrencyCode",
  "CustomerAccountNo", "DepartmentCode", "DepartmentId", "Description", "Dim1Code", "Dim1Id", "Dim2Code", "Dim2Id",
  "Dim3Code", "Dim3Id", "EmployeeAccountNo", "ExternalImportReference", "Id", "ImportedVoucherNo", "IsNoteMainEntry",
  "IsReversed", "LastChangedDateTimeOffset", "LocationCode", "LocationId", "PostingDate", "ProductCode", "ProductId",
  "ProjectCode", "ProjectId", "Quantity", "Quantity2", "ReversedVoucherId", "ReversedVoucherNo", "SubLedgerEntryId",
  "SupplierAccountNo", "VatAmount", "VatCode", "VatId", "VatRate", "VatReturnSpecification", "VoucherDate",
  "VoucherDescription", "VoucherId", "VoucherNo", "VoucherType",
] as const;

/** `TrialBalanceLineDto` (`GET /TrialBalance`). */
export const TRIAL_BALANCE_LINE_DTO_FIELDS = ["AccountId", "AccountName", "AccountNo", "AgricultureDepartment", "Balance"] as const;

/** Entry fields the customer and supplier ledgers share; each adds its own contact fields. */
const LEDGER_ENTRY_FIELDS = [
  "Amount", "Balance", "Cid", "CreatedDateTimeOffset", "CreatedFromImportJournalId", "CurrencyAmount", "CurrencyCode",
  "CustomMatchingReference", "DepartmentCode", "DepartmentId", "Dim1Code", "Dim1Id", "Dim2Code", "Dim2Id", "Dim3Code",
  "Dim3Id", "DueDate", "ExternalImportReference", "Id", "InvoiceNo", "IsCreatedByCurrentIntegration", "IsWriteOff",
  "LastChangedDateTimeOffset", "LocationCode", "LocationId", "MatchId", "PostingDate", "ProjectCode", "ProjectId",
  "VoucherDate", "VoucherId", "VoucherNo", "VoucherType",
] as const;

/** `CustomerLedgerEntryDto` (`GET /Customerledger/{Statement,OpenItems,EntriesByMatchId}`). */
export const CUSTOMER_LEDGER_ENTRY_DTO_FIELDS = [
  ...LEDGER_ENTRY_FIELDS, "CustomerAccountNo", "CustomerExternalNo", "CustomerId", "CustomerName", "PaidFromBankAccount",
] as const;

/** `SupplierLedgerEntryDto` (`GET /Supplierledger/{Statement,OpenItems,EntriesByMatchId}`). */
export const SUPPLIER_LEDGER_ENTRY_DTO_FIELDS = [
  ...LEDGER_ENTRY_FIELDS, "SupplierAccountNo", "SupplierExternalNo", "SupplierId", "SupplierName",
] as const;

/** `CustomerBalanceDto` (`GET /Customerledger/CustomerBalances`). */
export const CUSTOMER_BALANCE_DTO_FIELDS = ["Balance", "CustomerAccountNo", "CustomerExternalNo", "CustomerId", "CustomerName"] as const;

/** `SupplierBalanceDto` (`GET /Supplierledger/SupplierBalances`). */
export const SUPPLIER_BALANCE_DTO_FIELDS = ["Balance", "SupplierAccountNo", "SupplierExternalNo", "SupplierId", "SupplierName"] as const;

/** `VoucherDocumentationDto` (`GET /VoucherDocumentation`). */
export const VOUCHER_DOCUMENTATION_DTO_FIELDS = [
  "HasEhf", "HasImages", "HasPdf", "HasSalesOrderAttachments", "IsImported", "VoucherId", "VoucherNo", "VoucherType",
] as const;
