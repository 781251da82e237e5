/**
 * @module
 * What the journal-entry voucher (draft) responses add to their bodies (`shared/v2/vouchers.ts`),
 * and the whole shapes of the draft list, the approval queue and the voucher documentation.
 */

/** `ManualJournalEntryVoucherDto` adds these (and drops `Comment`, which is never returned). */
export const MANUAL_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS = ["Id", "Pages"] as const;
/**
 * `BankJournalEntryVoucherDto` adds these; its `BankVoucherLines` replace the body's
 * `BankJournalLines`.
 */
export const BANK_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS = ["BankVoucherLines", "Id", "Pages"] as const;

/**
 * What `ManualJournalEntryVoucherLineDto` and `BankJournalEntryVoucherLineDto` add to their POST
 * body.
 */
export const MANUAL_JOURNAL_ENTRY_VOUCHER_LINE_DTO_FIELDS = [
  "CreatedDateTimeOffset",
  "CreditAccountAgricultureDepartment",
  "DebitAccountAgricultureDepartment",
  "Id",
  "LastChangedDateTimeOffset",
] as const;
/** `BankJournalEntryVoucherLineDto`: the same as a manual journal line. */
export const BANK_JOURNAL_ENTRY_VOUCHER_LINE_DTO_FIELDS =
  MANUAL_JOURNAL_ENTRY_VOUCHER_LINE_DTO_FIELDS;

/**
 * What `SupplierVoucherLineDto` adds: the journal-entry line fields plus the resolved accounts and
 * EHF item.
 */
export const SUPPLIER_VOUCHER_LINE_DTO_FIELDS = [
  ...MANUAL_JOURNAL_ENTRY_VOUCHER_LINE_DTO_FIELDS,
  "CreditAccountType",
  "CreditContactId",
  "DebitAccountType",
  "DebitContactId",
  "ItemDescription",
  "ItemName",
  "SellersItemIdentification",
] as const;

/**
 * What `SupplierInvoiceJournalEntryVoucherDto` and `SupplierCreditNoteJournalEntryVoucherDto` add
 * (no `Comment`).
 */
export const SUPPLIER_INVOICE_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS = [
  "ApprovalState",
  "CreatedDateTimeOffset",
  "Id",
  "LastChangedDateTimeOffset",
  "OriginatedFromEhf",
  "Pages",
  "SupplierContactId",
  "VoucherState",
] as const;
/** `SupplierCreditNoteJournalEntryVoucherDto`: the same as a supplier invoice. */
export const SUPPLIER_CREDIT_NOTE_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS =
  SUPPLIER_INVOICE_JOURNAL_ENTRY_VOUCHER_DTO_FIELDS;

/** `JournalEntryVoucherListItem` (`GET /JournalEntryVouchers`). */
export const JOURNAL_ENTRY_VOUCHER_LIST_ITEM_FIELDS = [
  "CreatedDateTimeOffset",
  "Id",
  "InApprovalWorkflow",
  "IsCreatedByCurrentIntegration",
  "IsPosted",
  "LastChangedDateTimeOffset",
  "OriginatedFromEhf",
  "VoucherType",
] as const;

/** `VoucherForApprovalDto` (`GET /VoucherApproval`). */
export const VOUCHER_FOR_APPROVAL_DTO_FIELDS = [
  "ApprovalVoucherType",
  "AvailableFromDateTimeOffset",
  "Id",
  "OriginatedFromEhf",
] as const;

/** `VoucherDocumentationDto` (`GET /VoucherDocumentation`). */
export const VOUCHER_DOCUMENTATION_DTO_FIELDS = [
  "HasEhf",
  "HasImages",
  "HasPdf",
  "HasSalesOrderAttachments",
  "IsImported",
  "VoucherId",
  "VoucherNo",
  "VoucherType",
] as const;
