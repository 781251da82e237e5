/**
 * @module The fields of the API's answers that an order run reads. Not strict (a new field must
 * not fail a run), but an answer without a field the run reads fails the step at once, naming it.
 */
import { z } from "zod";
import { int64 } from "../../shared/v2/schema-kit";
import { describeIssues, RunError, type Reply } from "./run-api";

/** `CustomerDto`, with what `orders/run/customer.ts` compares with the buyer. */
export const CustomerReply = z.object({
  Id: int64,
  Number: int64.nullish(),
  SubledgerAccountId: int64,
  IsArchived: z.boolean().nullish(),
  EmailAddress: z.string().nullish(),
  InvoiceEmailAddress: z.string().nullish(),
  OrganizationNumber: z.string().nullish(),
  ExternalImportReference: z.string().nullish(),
});
export type CustomerReply = z.output<typeof CustomerReply>;

export const ProductReply = z.object({
  Code: z.string().nullish(),
  StandardSalesAccount: int64.nullish(),
});
export type ProductReply = z.output<typeof ProductReply>;

export const SalesOrderReply = z.object({
  Id: z.string(),
  SalesOrderNo: int64.nullish(),
  TotalAmount: z.number(),
  ExternalImportReference: z.string().nullish(),
});
export type SalesOrderReply = z.output<typeof SalesOrderReply>;

export const InvoiceReply = z.object({
  Id: z.string(),
  InvoiceNo: int64,
  ExternalImportReference: z.string().nullish(),
});
export type InvoiceReply = z.output<typeof InvoiceReply>;

export const SentStateReply = z.object({
  /** The sales order's id. */
  Id: z.string().nullish(),
  IsInvoiceBeingProcessed: z.boolean().nullish(),
  InvoiceNo: int64.nullish(),
  InvoiceDeliveryType: z.string().nullish(),
  SentDateTimeOffset: z.string().nullish(),
  LastErrorMessage: z.string().nullish(),
});
export type SentStateReply = z.output<typeof SentStateReply>;

export const AccountReply = z.object({ Id: int64 });
export type AccountReply = z.output<typeof AccountReply>;

/** An account of the chart as `orders/mapping-check.ts` reads it. */
export const ChartAccountReply = AccountReply.extend({
  AccountNo: z.int(),
  VatCode: z.string().nullish(),
  IsActive: z.boolean().nullish(),
});
export type ChartAccountReply = z.output<typeof ChartAccountReply>;

/** `VatCodeDto` (`Rate` is read by the mapping's check only). */
export const VatCodeReply = z.object({ Id: int64, Code: z.string(), Rate: z.number().nullish() });
export type VatCodeReply = z.output<typeof VatCodeReply>;

/** The VAT code of lines with no VAT treatment: a settlement's bank lines take it. */
export const NO_VAT_CODE = "0";

function mismatch(reply: Reply, error: z.ZodError): RunError {
  // Not retryable: the same call answers the same shape.
  return new RunError(
    `${reply.operation} answered ${reply.status} with a body the run cannot read: ${describeIssues(error)}`,
    false,
  );
}

/**
 * The rows of a list answer (204 and an empty body are none).
 * @throws RunError (not retryable) naming the call and the fields when they do not parse
 * @example parseRows(expectStatus(reply, "Listing VAT codes", 200), VatCodeReply)
 */
export function parseRows<T extends z.ZodType>(reply: Reply, schema: T): z.output<T>[] {
  if (reply.status === 204 || reply.body === null) return [];
  const parsed = z.array(schema).safeParse(reply.body);
  if (!parsed.success) throw mismatch(reply, parsed.error);
  return parsed.data;
}

/**
 * @throws RunError (not retryable) naming the call and the fields when the body does not match
 * @example parseBody(expectStatus(reply, "Creating the customer", 200, 201), CustomerReply)
 */
export function parseBody<T extends z.ZodType>(reply: Reply, schema: T): z.output<T> {
  const parsed = schema.safeParse(reply.body);
  if (!parsed.success) throw mismatch(reply, parsed.error);
  return parsed.data;
}
