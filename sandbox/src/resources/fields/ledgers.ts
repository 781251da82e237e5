/**
 * @module
 * The whole shapes of the ledger reports the sandbox computes from posted vouchers: account
 * transactions and the customer and supplier ledger entries.
 */

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

