/**
 * @module
 * The class of every catalog operation, by one rule (docs/mcp.md, "Classes"): `GET` is `read`,
 * `DELETE` is `write`, another write is `draft` when it touches `DRAFT_RESOURCES` and names none of
 * `SENDING_ACTIONS`, and all else is `write`. test/assistants/mcp/operation-class.unit.test.ts
 * holds the rule to every row.
 */
import type { Operation } from "../../../shared/v2/catalog";

export type OperationClass = "read" | "draft" | "write";

/** First path segments a draft may create and change: master data, orders, unposted vouchers. */
export const DRAFT_RESOURCES: ReadonlySet<string> = new Set(
  [
    "Customers",
    "Suppliers",
    "Products",
    "ProductGroups",
    "Departments",
    "Locations",
    "Projects",
    "CustomDimensions",
    "DeliveryTerms",
    "PaymentTerms",
    "PaymentTermSuppliers",
    "ContactGroups",
    "ContactPersons",
    "ContactDeliveryAddresses",
    "SalesOrders",
    "JournalEntryVouchers",
  ].map((r) => r.toLowerCase()),
);

/** Path segments that name an action leaving the draft state: sending, posting, submitting. */
export const SENDING_ACTIONS: ReadonlySet<string> = new Set(
  ["createAndSendInvoice", "submitForApproval", "Post", "Reverse"].map((a) => a.toLowerCase()),
);

/**
 * The class of `op` by the rule above.
 * @example operationClass({ method: "POST", path: "/SalesOrders" }) // "draft"
 */
export function operationClass(op: Pick<Operation, "method" | "path">): OperationClass {
  if (op.method === "GET") return "read";
  if (op.method === "DELETE") return "write";
  const segments = op.path.split("/").filter(Boolean);
  const resource = (segments[0] ?? "").toLowerCase();
  const sends = segments.some((s) => SENDING_ACTIONS.has(s.toLowerCase()));
  return DRAFT_RESOURCES.has(resource) && !sends ? "draft" : "write";
}
