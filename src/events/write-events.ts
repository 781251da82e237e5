/**
 * @module
 * Which `/v2` writes are announced, and how (pure): customers and products from the answer, a
 * payment and an invoice's send from the one read that shows the new state; no other write.
 */
import { matchOperation } from "../../shared/v2/catalog";
import type { EventType } from "./types";

/** Invoice numbers one payment's follow-up read asks for at most (the rest: the watcher). */
export const MAX_INVOICES_PER_READ = 50;

export type WriteAnnouncement =
  /** The answer is the record: announce it as `type`; `changed` names the fields the write set. */
  | { kind: "record"; type: EventType; changed: string[] }
  /** A payment: read these invoices, then announce their balances. */
  | { kind: "invoices"; invoiceNos: number[] }
  /** An invoice is being sent: read the sales order's sent state a moment later. */
  | { kind: "sent"; salesOrderId: string };

const RECORDS: Record<string, EventType> = {
  "POST /Customers": "customer.created",
  "PATCH /Customers/{id}": "customer.updated",
  "POST /Products": "product.created",
  "PATCH /Products/{id}": "product.updated",
};
/** Vouchers whose lines can pay an outgoing invoice (a line's `InvoiceNo` matches it). */
const PAYMENTS = new Set([
  "POST /Vouchers/BankJournals",
  "POST /Vouchers/CashJournals",
  "POST /Vouchers/ManualJournals",
]);
const SEND = "POST /SalesOrders/{id}/createAndSendInvoice";

/**
 * How the write `method path`, answered `status`, with request `body` (parsed JSON, or null), is
 * announced; null when it is not.
 *
 * @example announcementOf("POST", "/Customers", 201, { Name: "Fjord AS" }) // kind "record"
 */
export function announcementOf(
  method: string,
  path: string,
  status: number,
  body: unknown,
): WriteAnnouncement | null {
  if (status < 200 || status >= 300) return null;
  const m = matchOperation(method, path);
  if (m.kind !== "operation") return null;
  const type = RECORDS[m.op.key];
  if (type) return { kind: "record", type, changed: changedFields(body) };
  if (PAYMENTS.has(m.op.key)) {
    const invoiceNos = paidInvoices(body);
    return invoiceNos.length > 0 ? { kind: "invoices", invoiceNos } : null;
  }
  if (m.op.key === SEND) {
    const id = path.split("/")[2];
    return id ? { kind: "sent", salesOrderId: decodeURIComponent(id) } : null;
  }
  return null;
}

/** The top-level fields a body sets: a JSON object's keys, a JSON Patch's first path segments. */
function changedFields(body: unknown): string[] {
  if (Array.isArray(body))
    return [
      ...new Set(
        body.flatMap((op: unknown) => {
          const path = (op as { path?: unknown } | null)?.path;
          const first = typeof path === "string" ? path.split("/")[1] : undefined;
          return first ? [first] : [];
        }),
      ),
    ];
  return body && typeof body === "object" ? Object.keys(body) : [];
}

/** The distinct invoice numbers a voucher's lines name (`VoucherLines[].InvoiceNo`). */
function paidInvoices(body: unknown): number[] {
  const lines = (body as { VoucherLines?: unknown } | null)?.VoucherLines;
  if (!Array.isArray(lines)) return [];
  const numbers = lines.flatMap((l: unknown) => {
    const n = Number((l as { InvoiceNo?: unknown } | null)?.InvoiceNo);
    return Number.isSafeInteger(n) && n > 0 ? [n] : [];
  });
  return [...new Set(numbers)].slice(0, MAX_INVOICES_PER_READ);
}
