/**
 * @module
 * Sales orders (invoice drafts) of API v2: the body of `POST /SalesOrders/Complete`, of `POST
 * /SalesOrders/{id}/Lines` and of `POST /SalesOrders/{id}/createAndSendInvoice`, and the header
 * fields a JSON Patch may touch. Only rules that need no stored data are checked here; the rest,
 * and the response shapes (`sandbox/src/resources/fields/sales.ts`), are the sandbox's job.
 */
import { z } from "zod";
import {
  AgricultureDepartment,
  UnitOfMeasureType,
  VatReturnSpecification,
  VoucherLineType,
} from "./enums";
import { currencyCode, enumCI, int64, isoDate, opt } from "./schema-kit";
import { accrualFields } from "./voucher-lines";

/** `OrderStatus`: Confirmed locks the order against edits until it is set back to Draft. */
const OrderStatus = enumCI(["Draft", "Confirmed"]);

/** `SendInvoiceDeliveryType`; the API assumes Auto when none is given. */
const SendInvoiceDeliveryType = enumCI(["PdfByEmail", "PdfPrintForDownload", "Auto"]);

/**
 * A department, project, location or dimension id: the spec gives `-1` the meaning "none" (so a
 * line can opt out of what the header would pass down); any other non-positive value is a mistake.
 */
const refIdOrNone = int64.refine((v) => v > 0 || v === -1, {
  error: "must be a positive id, or -1 for none",
});

/** `SalesOrderAccrualPostDto`. FromDate, IsActive and ToDate are not nullable in the spec. */
const SalesOrderAccrualPost = z
  .strictObject({
    ...accrualFields,
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
        if (a[field] === undefined)
          ctx.addIssue({
            code: "custom",
            path: [field],
            message: `${field} is required when the accrual IsActive`,
          });
      }
    }
    // ISO dates compare correctly as strings.
    if (a.FromDate !== undefined && a.ToDate !== undefined && a.FromDate > a.ToDate) {
      ctx.addIssue({
        code: "custom",
        path: ["ToDate"],
        message: `ToDate (${a.ToDate}) is before FromDate (${a.FromDate})`,
      });
    }
  });

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
  Allowance: opt(
    z
      .number()
      .min(-1000, "Allowance is a percentage from -1000 to 100")
      .max(100, "Allowance is a percentage from -1000 to 100"),
  ),
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
    ctx.addIssue({
      code: "custom",
      path: ["Quantity"],
      message: "Quantity is required on a line with a product (ProductId or ProductCode)",
    });
  }
});
export type SalesOrderLinePost = z.output<typeof SalesOrderLinePost>;

/** Writable sales order header fields, as `SalesOrderCompletePostDto` names them (lines apart). */
const salesOrderHeaderFields = {
  BrandingThemeCode: opt(z.string()),
  BrandingThemeId: opt(int64),
  ContactDeliveryAddressId: opt(int64),
  ContractNo: opt(z.string()),
  CurrencyCode: opt(currencyCode),
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
      else
        ctx.addIssue({
          code: "custom",
          path: ["SalesOrderLines", i, "ExternalImportReference"],
          message: `ExternalImportReference '${ref}' is already used by line ${first}; it must be unique within the order`,
        });
    });
  });
export type SalesOrderCompletePost = z.output<typeof SalesOrderCompletePost>;

/**
 * Top-level properties a JSON Patch on `/SalesOrders/{id}` may change: the header, not the lines.
 */
export const SalesOrderHeaderPatchable: ReadonlySet<string> = new Set(
  Object.keys(salesOrderHeaderFields),
);

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
      ctx.addIssue({
        code: "custom",
        path: ["OverrideDueDate"],
        message: `OverrideDueDate (${r.OverrideDueDate}) is before VoucherDate (${r.VoucherDate})`,
      });
    }
  });
export type SendInvoiceRequestPost = z.output<typeof SendInvoiceRequestPost>;
