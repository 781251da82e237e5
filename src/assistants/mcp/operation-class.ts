/**
 * @module
 * The class of every operation of the catalog (`shared/v2/catalog.ts`), by one rule, for the MCP
 * server's scopes (`scope.ts`): what a `read`, a `draft` and a `write` connection may do.
 *
 * The rule (docs/mcp.md, "Classes"):
 * 1. every `GET` is `read`;
 * 2. every `DELETE` is `write`: deleting is never a draft;
 * 3. a `POST`, `PUT` or `PATCH` is `draft` when it creates or changes a record of `DRAFT_RESOURCES`
 *    (master data, sales orders, and journal entry vouchers, which stay drafts until they are
 *    submitted for approval) and no segment of its path names an action that sends, posts,
 *    submits or reverses (`SENDING_ACTIONS`): creating a sales order is a draft, invoicing and
 *    sending it is not;
 * 4. everything else is `write`: vouchers posted to the ledger, sending, approval, bank accounts
 *    (the client's and contacts': a changed account number redirects payments), the chart of
 *    accounts, payroll, imports, client administration and onboarding.
 *
 * A new operation of the catalog gets its class from the same rule, and
 * test/assistants/mcp/operation-class.unit.test.ts holds the rule to every row.
 */
import type { Operation } from "../../../shared/v2/catalog";

/** What an operation does to the books. */
export type OperationClass = "read" | "draft" | "write";

/**
 * Resources (first path segment) whose records a draft connection may create and change: master
 * data a person keeps anyway (customers, suppliers, products, departments, locations, projects,
 * dimensions, terms, contact groups, contact persons and delivery addresses), sales orders, and
 * journal entry vouchers not yet posted.
 */
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
 *
 * @param op an operation of the catalog (its method and documented path)
 * @returns `read`, `draft` or `write`
 * @example operationClass({ method: "POST", path: "/SalesOrders/{id}/createAndSendInvoice" }) //
 * "write"
 */
export function operationClass(op: Pick<Operation, "method" | "path">): OperationClass {
  if (op.method === "GET") return "read";
  if (op.method === "DELETE") return "write";
  const segments = op.path.split("/").filter(Boolean);
  const resource = (segments[0] ?? "").toLowerCase();
  const sends = segments.some((s) => SENDING_ACTIONS.has(s.toLowerCase()));
  return DRAFT_RESOURCES.has(resource) && !sends ? "draft" : "write";
}
