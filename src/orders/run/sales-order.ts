/**
 * @module
 * Step "sales order": `POST /SalesOrders/Complete` with the run's ExternalImportReference. When the
 * API says the reference is taken, an earlier attempt created the order (or it was already
 * invoiced, which turns the order into an outgoing invoice): the step finds it instead of
 * creating a second one, by that reference (`externalImportReferences=` on `GET /SalesOrders` and
 * `GET /OutgoingInvoices`), however long ago the earlier attempt was: a retry days later finds it
 * as surely as one a second later.
 * The API's own total is then checked against what the buyer paid; a difference of a few øre (the
 * API rounded VAT differently from our model) is absorbed by one VAT-free rounding line, a larger
 * one fails the step (see `MAX_ROUNDING_UNITS`).
 *
 * A cancelled order's draft is withdrawn here too: deleted, and only reported gone once the API
 * says so (or answers that there is no such order).
 */
import type { z } from "zod";
import type { SalesOrderCompletePost, SalesOrderLinePost } from "../../../shared/v2/sales";
import { apiLine, MAX_ROUNDING_UNITS, type LinePlan } from "../invoice-lines";
import type { OrderMapping } from "../../ledger/mapping";
import { formatMinor, minorPerUnit, toDecimal, toMinor } from "../../ledger/money";
import { expectStatus, isDuplicate, RunError, type Reply, type RunApi } from "../../ledger/run-api";
import { NO_MEMORY, type RunMemory } from "./memory";
import { ensureRoundingProduct } from "./products";
import { InvoiceReply, parseBody, parseRows, SalesOrderReply } from "../../ledger/replies";

/** What the run posts to `POST /SalesOrders/Complete`. */
type SalesOrderBody = z.input<typeof SalesOrderCompletePost>;
/** What the run posts to `POST /SalesOrders/{id}/Lines`. */
type LineBody = z.input<typeof SalesOrderLinePost>;

/** The sales order of a run, or the invoice it already became. */
export type SalesOrderRef =
  | { kind: "order"; id: string; number: number | null; total: number; roundingAdded: number }
  | { kind: "invoiced"; invoiceNo: number; invoiceId: string };

/**
 * A sales order refused because the remembered customer or products it names are gone from the
 * books.
 */
export interface Gone {
  kind: "gone";
  customer: boolean;
  products: boolean;
}

/** Which of the order's references came from the run's memory, not from a lookup just made. */
export interface Remembered {
  customer: boolean;
  products: boolean;
}

/** What the header of the order carries besides its lines. */
export interface SalesOrderHeader {
  customerId: number;
  reference: string;
  currency: string;
  date: string;
  customerReference: string;
  /** For a credit note: the invoice it credits. */
  relatedInvoiceNo?: number;
}

/** The run's view of a sales order the API answered. */
function orderRef(o: SalesOrderReply): SalesOrderRef {
  return {
    kind: "order",
    id: o.Id,
    number: o.SalesOrderNo ?? null,
    total: toMinor(o.TotalAmount) ?? 0,
    roundingAdded: 0,
  };
}

/**
 * The sales order, or the invoice it became, that carries `reference`; null when neither exists.
 * The order is looked for first, then the outgoing invoice that invoicing turns it into.
 */
export async function findExisting(api: RunApi, reference: string): Promise<SalesOrderRef | null> {
  const order = await findByReference(
    api,
    "/SalesOrders",
    SalesOrderReply,
    reference,
    "sales order",
  );
  if (order) return orderRef(order);
  const invoice = await findByReference(
    api,
    "/OutgoingInvoices",
    InvoiceReply,
    reference,
    "invoice",
  );
  return invoice ? { kind: "invoiced", invoiceNo: invoice.InvoiceNo, invoiceId: invoice.Id } : null;
}

/**
 * The record of `list` that carries `reference` (`externalImportReferences=`), or undefined. The
 * rows are matched again here: a filter the API ignored must not hand back another record.
 */
async function findByReference<R extends { ExternalImportReference?: string | null | undefined }>(
  api: RunApi,
  list: string,
  schema: z.ZodType<R>,
  reference: string,
  noun: string,
): Promise<R | undefined> {
  const reply = await api.call(
    "GET",
    `${list}?externalImportReferences=${encodeURIComponent(reference)}`,
  );
  const rows = parseRows(expectStatus(reply, `Finding the ${noun}`, 200, 204), schema);
  return rows.find((r) => r.ExternalImportReference === reference);
}

/**
 * Deletes a cancelled order's draft. Done only when the API says so: 200 or 204, or 404 (an
 * earlier attempt deleted it). Any other answer (409: it is being invoiced) fails the step, so the
 * run never reports "cancelled" while the draft is still in the books.
 */
export async function deleteDraft(api: RunApi, salesOrderId: string): Promise<void> {
  const reply = await api.call("DELETE", `/SalesOrders/${salesOrderId}`);
  if (reply.status !== 404)
    expectStatus(
      reply,
      `The order was cancelled, but deleting its draft sales order ${salesOrderId}`,
      200,
      204,
    );
}

/**
 * For a cancelled order whose earlier attempt may have created its sales order: deletes the draft
 * that carries `reference`, if any (null: nothing of the order is left). A sales order that was
 * already invoiced cannot be withdrawn; it is answered, and the shop's refund credits it.
 */
export async function withdrawOrder(
  api: RunApi,
  reference: string,
): Promise<Extract<SalesOrderRef, { kind: "invoiced" }> | null> {
  const found = await findExisting(api, reference);
  if (found?.kind === "order") await deleteDraft(api, found.id);
  return found?.kind === "invoiced" ? found : null;
}

/**
 * What a refused sales order says is missing: its customer, a product, or neither (null). The API
 * answers a missing reference 404 (`Customer with id = 7 not found.`, `Product with code = 'X' not
 * found.`); a 400 counts when its message names one as not found or not existing. The match is
 * loose on purpose: a wrong "gone" costs one lookup, a missed one fails a run that a lookup mends.
 *
 * @example missingReference({ operation: "POST /SalesOrders/Complete", status: 404, body: null,
 * detail: "Customer with id = 7 not found." }) // { customer: true, products: false }
 */
export function missingReference(reply: Reply): Remembered | null {
  if (reply.status !== 404 && reply.status !== 400) return null;
  const text = `${reply.detail} ${JSON.stringify(reply.body ?? "")}`;
  if (reply.status === 400 && !/not found|does not exist|no such/i.test(text)) return null;
  const found = { customer: /\bcustomer\b/i.test(text), products: /\bproduct\b/i.test(text) };
  return found.customer || found.products ? found : null;
}

/**
 * Creates (or finds) the sales order for `plan`, and makes its total exact. When the API refuses it
 * because a customer or product that came from the run's `memory` (as `remembered` says) is gone,
 * they are forgotten and `Gone` is answered instead of a failure: the run looks them up again.
 */
export async function createSalesOrder(
  api: RunApi,
  h: SalesOrderHeader,
  plan: LinePlan,
  mapping: OrderMapping,
  { remembered, memory }: { remembered: Remembered; memory: RunMemory } = {
    remembered: { customer: false, products: false },
    memory: NO_MEMORY,
  },
): Promise<SalesOrderRef | Gone> {
  const reply = await api.call<SalesOrderBody>("POST", "/SalesOrders/Complete", {
    CustomerId: h.customerId,
    ExternalImportReference: h.reference,
    CurrencyCode: h.currency,
    SalesOrderDate: h.date,
    CustomerReference: h.customerReference.slice(0, 200),
    RelatedInvoiceNo: h.relatedInvoiceNo,
    SalesOrderLines: plan.lines.map(apiLine),
  });
  const missing = missingReference(reply);
  const gone = {
    customer: !!missing?.customer && remembered.customer,
    products: !!missing?.products && remembered.products,
  };
  if (gone.customer || gone.products) {
    const codes = [...new Set(plan.lines.map((l) => l.productCode))];
    await memory.learn({
      gone: {
        ...(gone.customer ? { customerId: h.customerId } : {}),
        ...(gone.products ? { codes } : {}),
      },
    });
    return { kind: "gone", ...gone };
  }
  let ref: SalesOrderRef | null;
  if (isDuplicate(reply, "ExternalImportReference")) {
    ref = await findExisting(api, h.reference);
    if (!ref)
      throw new RunError(
        `The API says sales order reference ${h.reference} is in use, but no order or invoice of this integration carries it.`,
        false,
      );
  } else {
    ref = orderRef(
      parseBody(expectStatus(reply, "Creating the sales order", 200, 201), SalesOrderReply),
    );
  }
  if (ref.kind !== "order" || ref.total === plan.total) return ref;
  const rest = plan.total - ref.total;
  if (Math.abs(rest) > MAX_ROUNDING_UNITS * minorPerUnit(h.currency)) {
    throw new RunError(
      `The API's total for sales order ${ref.id} is ${formatMinor(ref.total)}, ${formatMinor(rest)} from the ${formatMinor(plan.total)} planned: more than rounding, so no rounding line was added and the draft is left for review.`,
      false,
    );
  }
  // Rare (the API rounded otherwise than our model): the product may not exist yet.
  await ensureRoundingProduct(api, mapping);
  const line = await api.call<LineBody>("POST", `/SalesOrders/${ref.id}/Lines`, {
    ProductCode: mapping.roundingProduct,
    Description: "Øreavrunding",
    Quantity: 1,
    ProductUnitPrice: toDecimal(rest),
  });
  expectStatus(line, "Adding the rounding line", 200, 201);
  return { ...ref, total: plan.total, roundingAdded: rest };
}
