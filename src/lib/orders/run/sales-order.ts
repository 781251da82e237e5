/**
 * @module
 * Step "sales order": `POST /SalesOrders/Complete` with the run's ExternalImportReference. When the
 * API says the reference is taken, an earlier attempt created the order (or it was already
 * invoiced, which turns the order into an outgoing invoice): the step finds it instead of
 * creating a second one. `GET /SalesOrders` has no reference filter, so the search lists the
 * integration's orders changed since the run began and matches the reference itself.
 * The API's own total is then checked against what the buyer paid; a difference (the API rounded
 * VAT differently from our model) is absorbed by one VAT-free rounding line.
 */
import type { z } from "zod";
import type { SalesOrderCompletePost, SalesOrderLinePost } from "../../../../shared/v2/sales";
import { apiLine, type LinePlan } from "../invoice-lines";
import type { OrderMapping } from "../mapping";
import { toDecimal, toMinor } from "../money";
import { expectStatus, isDuplicate, RunError, type RunApi } from "./api";
import { ensureRoundingProduct } from "./products";
import { InvoiceReply, parseBody, parseRows, SalesOrderReply } from "./replies";

/** What the run posts to `POST /SalesOrders/Complete`. */
type SalesOrderBody = z.input<typeof SalesOrderCompletePost>;
/** What the run posts to `POST /SalesOrders/{id}/Lines`. */
type LineBody = z.input<typeof SalesOrderLinePost>;

/** The sales order of a run, or the invoice it already became. */
export type SalesOrderRef =
  | { kind: "order"; id: string; number: number | null; total: number; roundingAdded: number }
  | { kind: "invoiced"; invoiceNo: number; invoiceId: string };

/** What the header of the order carries besides its lines. */
export interface SalesOrderHeader {
  customerId: number;
  reference: string;
  currency: string;
  date: string;
  customerReference: string;
  /** When the run began (ISO): the search for an existing order starts a day before. */
  since: string;
  /** For a credit note: the invoice it credits. */
  relatedInvoiceNo?: number;
}

/** The run's view of a sales order the API answered. */
function orderRef(o: SalesOrderReply): SalesOrderRef {
  return { kind: "order", id: o.Id, number: o.SalesOrderNo ?? null, total: toMinor(o.TotalAmount) ?? 0, roundingAdded: 0 };
}

async function findExisting(api: RunApi, h: SalesOrderHeader): Promise<SalesOrderRef | null> {
  const since = encodeURIComponent(new Date(Date.parse(h.since) - 86_400_000).toISOString());
  const orders = parseRows(expectStatus(await api.call("GET", `/SalesOrders?onlyCreatedByCurrentIntegration=true&lastChangedDateTimeOffsetGreaterThan=${since}`), "Finding the sales order", 200, 204), SalesOrderReply);
  const order = orders.find((o) => o.ExternalImportReference === h.reference);
  if (order) return orderRef(order);
  const invoices = parseRows(expectStatus(await api.call("GET", `/OutgoingInvoices?sentDateTimeOffsetGreaterThan=${since}`), "Finding the invoice", 200, 204), InvoiceReply);
  const invoice = invoices.find((i) => i.ExternalImportReference === h.reference);
  return invoice ? { kind: "invoiced", invoiceNo: invoice.InvoiceNo, invoiceId: invoice.Id } : null;
}

/** Creates (or finds) the sales order for `plan`, and makes its total exact. */
export async function createSalesOrder(api: RunApi, h: SalesOrderHeader, plan: LinePlan, mapping: OrderMapping): Promise<SalesOrderRef> {
  const reply = await api.call<SalesOrderBody>("POST", "/SalesOrders/Complete", {
    CustomerId: h.customerId, ExternalImportReference: h.reference, CurrencyCode: h.currency, SalesOrderDate: h.date,
    CustomerReference: h.customerReference.slice(0, 200), RelatedInvoiceNo: h.relatedInvoiceNo, SalesOrderLines: plan.lines.map(apiLine),
  });
  let ref: SalesOrderRef | null;
  if (isDuplicate(reply, "ExternalImportReference")) {
    ref = await findExisting(api, h);
    if (!ref) throw new RunError(`The API says sales order reference ${h.reference} is in use, but no order or invoice of this integration carries it.`, false);
  } else {
    ref = orderRef(parseBody(expectStatus(reply, "Creating the sales order", 200, 201), SalesOrderReply));
  }
  if (ref.kind !== "order" || ref.total === plan.total) return ref;
  const rest = plan.total - ref.total;
  // Rare (the API rounded otherwise than our model): the product may not exist yet.
  await ensureRoundingProduct(api, mapping);
  const line = await api.call<LineBody>("POST", `/SalesOrders/${ref.id}/Lines`, { ProductCode: mapping.roundingProduct, Description: "Øreavrunding", Quantity: 1, ProductUnitPrice: toDecimal(rest) });
  expectStatus(line, "Adding the rounding line", 200, 201);
  return { ...ref, total: plan.total, roundingAdded: rest };
}
