/**
 * @module
 * Sales orders (invoice drafts) of API v2 and what they turn into: the body of
 * `POST /SalesOrders/Complete`, of `POST /SalesOrders/{id}/Lines` and of
 * `POST /SalesOrders/{id}/createAndSendInvoice`, the header fields a JSON Patch may touch, and the
 * server-only fields of the sales-order, sent-state, outgoing/incoming invoice and attachment
 * responses. Only rules that need no stored data are checked here; the rest is the sandbox's job.
 */
import { z } from "zod";
import { AgricultureDepartment, UnitOfMeasureType, VatReturnSpecification, VoucherLineType } from "./enums";
import { enumCI, int64, isoDate, opt } from "./schema-kit";

/** `OrderStatus`: Confirmed locks the order against edits until it is set back to Draft. */
export const OrderStatus = enumCI(["Draft", "Confirmed"]);

/** `SendInvoiceDeliveryType`; the API assumes Auto when none is given. */
export const SendInvoiceDeliveryType = enumCI(["PdfByEmail", "PdfPrintForDownload", "Auto"]);

/** `OutgoingInvoiceVoucherType` of a sent invoice. */
export const OutgoingInvoiceVoucherType = enumCI(["OutgoingInvoice", "OutgoingCreditNote"]);

/**
 * A department, project, location or dimension id: the spec gives `-1` the meaning "none" (so a
 * line can opt out of what the header would pass down); any other non-positive value is a mistake.
 */
const refIdOrNone = int64.refine((v) => v > 0 || v === -1, { error: "must be a positive id, or -1 for none" });

/** `SalesOrderAccrualPostDto`. FromDate, IsActive and ToDate are not nullable in the spec. */
export const SalesOrderAccrualPost = z
  .strictObject({
    BalanceAccountAgricultureDepartment: AgricultureDepartment.optional(),
    BalanceAccountId: opt(int64),
    BalanceAccountNo: opt(int64),
    FromDate: isoDate.optional(),
    IsActive: z.boolean().optional(),
    ResultAccountAgricultureDepartment: AgricultureDepartment.optional(),
    ResultAccountId: opt(int64),
    ResultAccountNo: opt(int64),
    ToDate: isoDate.optional(),
  })
  .superRefine((a, ctx) => {
    // The dates are non-nullable value types server-side: an omitted one would silently become
    // 0001-01-01, so an active accrual has to name its period.
    if (a.IsActive === true) {
      for (const field of ["FromDate", "ToDate"] as const) {
        if (a[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message: `${field} is required when the accrual IsActive` });
      }
    }
    // ISO dates compare correctly as strings.
    if (a.FromDate !== undefined && a.ToDate !== undefined && a.FromDate > a.ToDate) {
      ctx.addIssue({ code: "custom", path: ["ToDate"], message: `ToDate (${a.ToDate}) is before FromDate (${a.FromDate})` });
    }
  });
export type SalesOrderAccrualPost = z.output<typeof SalesOrderAccrualPost>;

/** The dimensions a header and each of its lines may name, by Id (-1 for none) or by code. */
const dimensionFields = {
  DepartmentCode: opt(z.string()),
  DepartmentId: opt(refIdOrNone),
  Dim1Code: opt(z.string()),
  Dim1Id: opt(refIdOrNone),
  Dim2Code: opt(z.string()),
  Dim2Id: opt(refIdOrNone),
  Dim3Code: opt(z.string()),
  Dim3Id: opt(refIdOrNone),
  LocationCode: opt(z.string()),
  LocationId: opt(refIdOrNone),
  ProjectCode: opt(z.string()),
  ProjectId: opt(refIdOrNone),
};

/** Writable sales order line fields, as `SalesOrderLinePostDto` names them. */
const salesOrderLineFields = {
  Accrual: SalesOrderAccrualPost.optional(),
  Allowance: opt(z.number().min(-1000, "Allowance is a percentage from -1000 to 100").max(100, "Allowance is a percentage from -1000 to 100")),
  ...dimensionFields,
  Description: opt(z.string()),
  ExternalImportReference: opt(z.string()),
  LineType: VoucherLineType.optional(),
  ProductCode: opt(z.string()),
  ProductId: opt(int64),
  ProductUnitCost: opt(z.number()),
  ProductUnitPrice: opt(z.number()),
  Quantity: opt(z.number()),
  SellersReferenceEmployeeId: opt(int64),
  SellersReferenceEmployeeNo: opt(int64),
  SortOrder: opt(z.int().nonnegative()),
  UnitOfMeasureCode: UnitOfMeasureType.optional(),
  UseStandardSalesAccount: opt(z.boolean()),
  VatReturnSpecification: VatReturnSpecification.optional(),
};

/**
 * `SalesOrderLinePostDto`, strict. A negative Quantity is allowed: it credits the product (and an
 * order whose lines sum below zero is a credit-note draft).
 */
export const SalesOrderLinePost = z.strictObject(salesOrderLineFields).superRefine((l, ctx) => {
  const hasProduct = (l.ProductId !== undefined && l.ProductId !== null) || !!l.ProductCode?.trim();
  if (hasProduct && (l.Quantity === undefined || l.Quantity === null)) {
    ctx.addIssue({ code: "custom", path: ["Quantity"], message: "Quantity is required on a line with a product (ProductId or ProductCode)" });
  }
});
export type SalesOrderLinePost = z.output<typeof SalesOrderLinePost>;

/** Writable sales order header fields, as `SalesOrderCompletePostDto` names them (lines apart). */
const salesOrderHeaderFields = {
  BrandingThemeCode: opt(z.string()),
  BrandingThemeId: opt(int64),
  ContactDeliveryAddressId: opt(int64),
  ContractNo: opt(z.string()),
  CurrencyCode: opt(z.string().regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 code")),
  CurrencyExchangeRate: opt(z.number().positive()),
  CustomMatchingReference: opt(z.string()),
  CustomerId: opt(int64),
  CustomerNo: opt(int64),
  CustomerReference: opt(z.string()),
  CustomerReferenceContactPersonId: opt(int64),
  DeliveryDate: opt(isoDate),
  DeliveryTerm: opt(z.string()),
  DeliveryTermId: opt(int64),
  ...dimensionFields,
  ExternalImportReference: opt(z.string()),
  ImportedOrderNo: opt(int64),
  PaymentTerm: opt(z.int().nonnegative()),
  PaymentTermId: opt(int64),
  PurchaseOrderReference: opt(z.string()),
  RelatedInvoiceNo: opt(int64),
  SalesOrderDate: opt(isoDate),
  SalesOrderStatus: OrderStatus.optional(),
  SalesPersonEmployeeId: opt(int64),
  SalesPersonEmployeeNumber: opt(int64),
};

/**
 * `SalesOrderCompletePostDto`, strict. A line's ExternalImportReference may occur only once per
 * order, which one body can already show.
 */
export const SalesOrderCompletePost = z
  .strictObject({ ...salesOrderHeaderFields, SalesOrderLines: opt(z.array(SalesOrderLinePost)) })
  .superRefine((o, ctx) => {
    const firstAt = new Map<string, number>();
    o.SalesOrderLines?.forEach((line, i) => {
      const ref = line.ExternalImportReference;
      if (ref === undefined || ref === null) return;
      const first = firstAt.get(ref);
      if (first === undefined) firstAt.set(ref, i);
      else ctx.addIssue({ code: "custom", path: ["SalesOrderLines", i, "ExternalImportReference"], message: `ExternalImportReference '${ref}' is already used by line ${first}; it must be unique within the order` });
    });
  });
export type SalesOrderCompletePost = z.output<typeof SalesOrderCompletePost>;

/** Top-level properties a JSON Patch on `/SalesOrders/{id}` may change: the header, not the lines. */
export const SalesOrderHeaderPatchable: ReadonlySet<string> = new Set(Object.keys(salesOrderHeaderFields));

/** `SendInvoiceRequestPostDto`, strict. Null dates mean "today" and "from the payment term". */
export const SendInvoiceRequestPost = z
  .strictObject({
    DeliveryType: SendInvoiceDeliveryType.optional(),
    EmailAddress: opt(z.string()),
    OverrideDueDate: opt(isoDate),
    VoucherDate: opt(isoDate),
  })
  .superRefine((r, ctx) => {
    if (r.OverrideDueDate && r.VoucherDate && r.OverrideDueDate < r.VoucherDate) {
      ctx.addIssue({ code: "custom", path: ["OverrideDueDate"], message: `OverrideDueDate (${r.OverrideDueDate}) is before VoucherDate (${r.VoucherDate})` });
    }
  });
export type SendInvoiceRequestPost = z.output<typeof SendInvoiceRequestPost>;

/** `SalesOrderCompleteDto` properties the server adds to a `SalesOrderCompletePostDto`. */
export const SALES_ORDER_COMPLETE_DTO_FIELDS = [
  "CreatedDateTimeOffset", "Id", "IsCreatedByCurrentIntegration", "LastChangedDateTimeOffset", "LineCount", "NetAmount",
  "SalesOrderNo", "TotalAmount",
] as const;

/** `SalesOrderDto` (no lines) properties the server adds to the header fields. */
export const SALES_ORDER_DTO_FIELDS = SALES_ORDER_COMPLETE_DTO_FIELDS;

/** `SalesOrderLineDto` properties the server adds to a `SalesOrderLinePostDto`. */
export const SALES_ORDER_LINE_DTO_FIELDS = [
  "Id", "NetAmount", "SalesOrderId", "TotalAmount", "VatAmount", "VatCode", "VatId", "VatRate",
] as const;

/** `SendInvoiceRequestDto` properties the server adds to a `SendInvoiceRequestPostDto`. */
export const SEND_INVOICE_REQUEST_DTO_FIELDS = ["Id"] as const;

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

/** `OutgoingInvoiceVoucherDto` (this spec has only GET /Vouchers/OutgoingInvoiceJournals/{id}). */
export const OUTGOING_INVOICE_VOUCHER_DTO_FIELDS = [
  "Cid", "ContractNo", "CreatedDateTimeOffset", "CurrencyAmount", "CurrencyCode", "CurrencyExchangeRate",
  "CustomMatchingReference", "CustomerAccountId", "CustomerReference", "DeliveryAddress1", "DeliveryAddress2",
  "DeliveryAddressCity", "DeliveryAddressCountryCode", "DeliveryAddressZipCode", "DeliveryDate", "DeliveryTermId",
  "DepartmentId", "Description", "Dim1Id", "Dim2Id", "Dim3Id", "DueDate", "ExternalImportReference", "Id", "ImportedOrderNo",
  "ImportedVoucherNo", "InvoiceNo", "IsReversed", "LocationId", "OutgoingInvoiceLines", "ProjectId", "PurchaseOrderReference",
  "SaftSourceId", "SalesPersonEmployeeId", "VoucherDate", "VoucherNo",
] as const;

/** `OutgoingInvoiceVoucherLineDto`, the lines of an `OutgoingInvoiceVoucherDto`. */
export const OUTGOING_INVOICE_VOUCHER_LINE_DTO_FIELDS = [
  "AccountId", "Accrual", "CurrencyAmount", "DepartmentId", "Description", "Dim1Id", "Dim2Id", "Dim3Id", "LocationId",
  "ProductId", "ProjectId", "Quantity", "QuantityOrdered", "UnitOfMeasureType", "VatId", "VatReturnSpecification",
] as const;
