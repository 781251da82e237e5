/**
 * @module
 * The whole shapes of the vouchers posted directly to the ledger (`/Vouchers/...Journals`), as
 * their POST and GET answer them: the header and its lines. Stored vouchers carry bookkeeping
 * (route, voucher type, whether imported) that these lists keep out of the answers.
 */

/** `ManualVoucherDto`, `BankVoucherDto`, `CashVoucherDto` and `YearEndVoucherDto` share these. */
export const VOUCHER_DTO_FIELDS = [
  "CreatedDateTimeOffset",
  "CurrencyCode",
  "Description",
  "ExternalImportReference",
  "Id",
  "ImportedVoucherNo",
  "IsReversed",
  "SaftBatchId",
  "SaftSourceId",
  "VoucherDate",
  "VoucherLines",
  "VoucherNo",
] as const;

/** `ManualVoucherLineDto`, `CashVoucherLineDto` and `YearEndVoucherLineDto`. */
export const VOUCHER_LINE_DTO_FIELDS = [
  "AccountId",
  "CreatedDateTimeOffset",
  "CurrencyAmount",
  "CurrencyCode",
  "CurrencyExchangeRate",
  "CustomMatchingReference",
  "DepartmentId",
  "Description",
  "Dim1Id",
  "Dim2Id",
  "Dim3Id",
  "ExternalLineReference",
  "Id",
  "LocationId",
  "PostingDate",
  "ProductId",
  "ProjectId",
  "Quantity",
  "Quantity2",
  "VatId",
  "VatReturnSpecification",
] as const;

/** `BankVoucherLineDto`: a voucher line with the KID and the invoice it pays. */
export const BANK_VOUCHER_LINE_DTO_FIELDS = [
  ...VOUCHER_LINE_DTO_FIELDS,
  "Cid",
  "InvoiceNo",
] as const;

/** `OutgoingInvoiceVoucherDto` (`GET /Vouchers/OutgoingInvoiceJournals/{id}`). */
export const OUTGOING_INVOICE_VOUCHER_DTO_FIELDS = [
  "Cid",
  "ContractNo",
  "CreatedDateTimeOffset",
  "CurrencyAmount",
  "CurrencyCode",
  "CurrencyExchangeRate",
  "CustomMatchingReference",
  "CustomerAccountId",
  "CustomerReference",
  "DeliveryAddress1",
  "DeliveryAddress2",
  "DeliveryAddressCity",
  "DeliveryAddressCountryCode",
  "DeliveryAddressZipCode",
  "DeliveryDate",
  "DeliveryTermId",
  "DepartmentId",
  "Description",
  "Dim1Id",
  "Dim2Id",
  "Dim3Id",
  "DueDate",
  "ExternalImportReference",
  "Id",
  "ImportedOrderNo",
  "ImportedVoucherNo",
  "InvoiceNo",
  "IsReversed",
  "LocationId",
  "OutgoingInvoiceLines",
  "ProjectId",
  "PurchaseOrderReference",
  "SaftSourceId",
  "SalesPersonEmployeeId",
  "VoucherDate",
  "VoucherNo",
] as const;

/** `OutgoingInvoiceVoucherLineDto`. */
export const OUTGOING_INVOICE_VOUCHER_LINE_DTO_FIELDS = [
  "AccountId",
  "Accrual",
  "CurrencyAmount",
  "DepartmentId",
  "Description",
  "Dim1Id",
  "Dim2Id",
  "Dim3Id",
  "LocationId",
  "ProductId",
  "ProjectId",
  "Quantity",
  "QuantityOrdered",
  "UnitOfMeasureType",
  "VatId",
  "VatReturnSpecification",
] as const;
