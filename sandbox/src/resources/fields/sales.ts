/**
 * @module
 * Server-only fields of the sales-order, sent-state, outgoing/incoming invoice and attachment
 * responses; the request bodies they extend live in `shared/v2/sales.ts`.
 */

/** `SalesOrderCompleteDto` properties the server adds to a `SalesOrderCompletePostDto` (and `SalesOrderDto` to the header). */
export const SALES_ORDER_COMPLETE_DTO_FIELDS = [
  "CreatedDateTimeOffset", "Id", "IsCreatedByCurrentIntegration", "LastChangedDateTimeOffset", "LineCount", "NetAmount",
  "SalesOrderNo", "TotalAmount",
] as const;

/** `SalesOrderLineDto` properties the server adds to a `SalesOrderLinePostDto`. */
export const SALES_ORDER_LINE_DTO_FIELDS = [
  "Id", "NetAmount", "SalesOrderId", "TotalAmount", "VatAmount", "VatCode", "VatId", "VatRate",
] as const;

/** `InvoiceSentStateDto` (GET /SalesOrders/sentState only). */
export const INVOICE_SENT_STATE_DTO_FIELDS = [
  "DueDate", "Id", "InvoiceDeliveryType", "InvoiceNo", "IsInvoiceBeingProcessed", "LastErrorMessage", "SentDateTimeOffset",
] as const;

/** `OutgoingInvoiceDto` (GET only; a sent invoice has no writable fields). */
export const OUTGOING_INVOICE_DTO_FIELDS = [
  "Balance", "BalanceLastChangedDateTimeOffset", "BrandingThemeCode", "BrandingThemeId", "Cid", "ContractNo",
  "CreatedDateTimeOffset", "CurrencyCode", "CurrencyExchangeRate", "CustomMatchingReference", "CustomerId", "CustomerNo",
  "CustomerReference", "CustomerReferenceContactPersonId", "DeliveryAddress1", "DeliveryAddress2", "DeliveryAddressCity",
  "DeliveryAddressCountryCode", "DeliveryAddressZipCode", "DeliveryDate", "DeliveryTerm", "DeliveryTermId", "DepartmentCode",
  "DepartmentId", "Dim1Code", "Dim1Id", "Dim2Code", "Dim2Id", "Dim3Code", "Dim3Id", "DueDate", "ExternalImportReference", "Id",
  "ImportedOrderNo", "InvoiceDeliveryType", "InvoiceNo", "IsCreatedByCurrentIntegration", "IsReversed",
  "LastChangedDateTimeOffset", "LocationCode", "LocationId", "MatchId", "NetAmount", "NetPostedAmount", "OrderDate", "OrderNo",
  "PaymentTerm", "PaymentTermId", "ProjectCode", "ProjectId", "PurchaseOrderReference", "RelatedInvoiceNo",
  "SellersReferenceEmployeeId", "SellersReferenceEmployeeNo", "SentDateTimeOffset", "TotalAmount", "TotalPostedAmount",
  "VoucherDate", "VoucherNo", "VoucherType",
] as const;

/** `OutgoingInvoiceLineDto` (GET /OutgoingInvoices/{id}/Lines only). */
export const OUTGOING_INVOICE_LINE_DTO_FIELDS = [
  "AccountId", "AccountNo", "AgricultureDepartment", "Allowance", "DepartmentCode", "DepartmentId", "Description", "Dim1Code",
  "Dim1Id", "Dim2Code", "Dim2Id", "Dim3Code", "Dim3Id", "ExternalImportReference", "Id", "IsAccrued", "LineType",
  "LocationCode", "LocationId", "NetAmount", "NetPostedAmount", "ProductCode", "ProductId", "ProductUnitCost",
  "ProductUnitPrice", "ProjectCode", "ProjectId", "Quantity", "SellersReferenceEmployeeId", "SellersReferenceEmployeeNo",
  "SortOrder", "TotalAmount", "TotalPostedAmount", "UnitOfMeasureCode", "VatAmount", "VatCode", "VatId", "VatRate",
  "VatReturnSpecification",
] as const;

/** `IncomingInvoiceListItemDto` (GET /IncomingInvoices only). */
export const INCOMING_INVOICE_LIST_ITEM_DTO_FIELDS = [
  "Balance", "BalanceLastChangedDateTimeOffset", "Cid", "ContractNo", "CreatedDateTimeOffset", "CurrencyCode",
  "CurrencyExchangeRate", "CustomMatchingReference", "DepartmentCode", "DepartmentId", "Dim1Code", "Dim1Id", "Dim2Code",
  "Dim2Id", "Dim3Code", "Dim3Id", "DueDate", "ExternalImportReference", "Id", "InvoiceNo", "IsReversed",
  "LastChangedDateTimeOffset", "LocationCode", "LocationId", "MatchId", "NetAmount", "NetPostedAmount", "ProjectCode",
  "ProjectId", "PurchaseOrderReference", "RelatedInvoiceNo", "SupplierId", "SupplierNo", "TotalAmount", "TotalPostedAmount",
  "VoucherDate", "VoucherNo", "VoucherType",
] as const;

/** `SalesOrderAttachmentDto`: the upload is a multipart file, so every field comes from the server. */
export const SALES_ORDER_ATTACHMENT_DTO_FIELDS = [
  "CreatedDateTimeOffset", "FileName", "FileSize", "Id", "LastChangedDateTimeOffset", "SalesOrderId",
] as const;

