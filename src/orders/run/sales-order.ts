/**
 * @module
 * Step "sales order": `POST /SalesOrders/Complete` with the run's reference; when the API says it
 * is taken, the step finds the order (or the invoice it became) by it instead of creating a second.
 * The API's total is checked against what the buyer paid, a few øre absorbed by a rounding line.
 * Also the withdrawal of a cancelled order's draft. See docs/design/order-runs.md.
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

/** A sales order refused because the remembered customer or products it names are gone. */
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

export interface SalesOrderHeader {
  customerId: number;
  reference: string;
  currency: string;
  date: string;
  customerReference: string;
  /** For a credit note: the invoice it credits. */
  relatedInvoiceNo?: number;
}

function orderRef(o: SalesOrderReply): SalesOrderRef {
  return {
    kind: "order",
    id: o.Id,
    number: o.SalesOrderNo ?? null,
    total: toMinor(o.TotalAmount) ?? 0,
    roundingAdded: 0,
  };
}

/** The sales order, or else the invoice it became, that carries `reference`; null for neither. */
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

/** The record of `list` carrying `reference`, matched again in case the API ignored the filter. */
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
 * Deletes a cancelled order's draft: done on 200, 204 or 404 only; any other answer (409: being
 * invoiced) fails the step, so "cancelled" is never reported while the draft exists.
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
 * Deletes the draft that carries `reference`, if any (null: nothing of the order is left). An
 * invoiced one cannot be withdrawn: it is answered, and the shop's refund credits it.
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
 * What a refused sales order says is missing (404, or a 400 saying "not found"): its customer, a
 * product, or neither (null). Loose on purpose: a wrong "gone" costs only one lookup.
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
 * Creates (or finds) the sales order for `plan` and makes its total exact. A remembered customer
 * or product the API says is gone is forgotten and answered `Gone`, for the run to look up again.
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
  // Rare (the API rounded otherwise than the plan): the product may not exist yet.
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
