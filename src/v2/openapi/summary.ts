/**
 * @module
 * A summary in words of each API v2 operation (`GET /Customers/{id}` → "Get a customer"), built
 * from method and path by one rule so no hand-written table drifts; actions are in `ACTIONS`.
 */
import type { Operation } from "../../../shared/v2/catalog";

/** Segments whose words are not plain camel case. */
const WORDS: Record<string, string> = {
  Customerledger: "customer ledger",
  Supplierledger: "supplier ledger",
  SupplierLedger: "supplier ledger",
  SubLedgerNumberSeries: "sub-ledger number series",
  ClientAdmin: "client administration",
  qualityDocuments: "quality documents",
  clientDocuments: "client documents",
  VatCodes: "VAT codes",
  VatSettings: "VAT settings",
  qualitysettings: "quality settings",
  ContactUBOs: "contact UBOs",
  FtePercentages: "FTE percentages",
};

/** Operations whose last segment is an action, summarized as the API's reference has them. */
const ACTIONS: Record<string, string> = {
  "POST /SalesOrders/Complete": "Create a sales order with its lines in one call",
  "GET /SalesOrders/{id}/Complete": "Get a sales order with its lines",
  "GET /SalesOrders/sentState": "Delivery state of sent sales-order invoices",
  "POST /SalesOrders/{id}/createAndSendInvoice": "Invoice a sales order and send the invoice",
  "POST /Vouchers/Reverse/{id}": "Reverse a posted voucher",
  "POST /JournalEntryVouchers/{id}/submitForApproval":
    "Submit a journal entry voucher for approval",
  "GET /JournalEntryVouchers/{id}/ehf": "The EHF document of a journal entry voucher",
  "PUT /VoucherDocumentation": "Attach a PDF as a posted voucher's documentation",
  "GET /VoucherDocumentation/Download": "Download a voucher's documentation as one file",
  "POST /ClientAdmin/CreateNewClient": "Create a new client",
  "POST /ClientAdmin/AddIntegrationToClient/{clientId}": "Add this integration to a client",
  "POST /ClientAdmin/{clientId}/Users/Invite": "Invite a user to a client",
  "POST /ClientAdmin/{clientId}/Users/AddPartnerUser": "Add a partner user to a client",
  "POST /Onboarding/Initiate": "Start onboarding: a link for the client to approve",
  "POST /Onboarding/Finalize": "Finish onboarding and receive the client keys",
  "POST /Imports/Upload": "Upload an import",
  "POST /Imports/{id}/Post": "Post an import to the ledger",
  "POST /qualityDocuments/Documents/upload": "Upload a quality document",
  "POST /qualityDocuments/Documents/{id}/AddDocumentVersion": "Add a version to a quality document",
  "POST /ContactShareholders/{contactId}": "Create a shareholder under a contact",
  "GET /ClientAdmin/{userId}/UserAccessRoles": "List a user's access roles",
  "GET /Assignments/{assignmentId}/Services/Tasks": "List the service tasks of an assignment",
  "GET /Customerledger/EntriesByMatchId": "List entries by match id (customer ledger)",
  "GET /Supplierledger/EntriesByMatchId": "List entries by match id (supplier ledger)",
};

/** Last words that name one thing although they end in "s", or that have no singular here. */
const UNCHANGED = /(settings|series|information|status|balances|ledger|documentation)$/;

/** `SalesOrders` → "sales orders"; acronyms and odd segments from `WORDS`. */
function words(segment: string): string {
  return (
    WORDS[segment] ??
    segment
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
      .split(" ")
      .map((w) => (/^[A-Z]{2,}$/.test(w) ? w : w.toLowerCase()))
      .join(" ")
  );
}

/** "sales orders" → "sales order", "currencies" → "currency"; settings and series stay. */
function singular(phrase: string): string {
  if (UNCHANGED.test(phrase)) return phrase;
  if (phrase.endsWith("ies")) return `${phrase.slice(0, -3)}y`;
  if (phrase.endsWith("sses")) return phrase.slice(0, -2);
  if (phrase.endsWith("s") && !phrase.endsWith("ss")) return phrase.slice(0, -1);
  return phrase;
}

/** "a customer", "an employee", "a user", "an hourly rate". */
const article = (noun: string): string =>
  `${/^([aeio]|u(?!s)|hour|FTE)/i.test(noun) ? "an" : "a"} ${noun}`;

const isParameter = (segment: string): boolean => segment.startsWith("{");

/**
 * A verb and the resource, with its owner ("… of a sales order") or group ("… (vouchers)").
 *
 * @example v2Summary(op) // "List customers" for GET /Customers
 */
export function v2Summary(op: Pick<Operation, "method" | "path" | "key">): string {
  const action = ACTIONS[op.key];
  if (action) return action;
  const segments = op.path.split("/").filter(Boolean);
  const item = isParameter(segments.at(-1) ?? "");
  const names = segments.filter((s) => !isParameter(s));
  const resource = words(names.at(-1) ?? "v2");
  // The owner: the parameter before the resource (`{employeeId}`), or the segment before a plain
  // `{id}`; otherwise the group the resource sits in (`/Vouchers/BankJournals`).
  const at = segments.lastIndexOf(names.at(-1) ?? "");
  const parameter = at >= 2 ? segments[at - 1] : undefined;
  const named = parameter?.match(/^\{(\w+)Id\}$/)?.[1];
  const owner =
    !parameter || !isParameter(parameter)
      ? undefined
      : named
        ? words(named)
        : words(segments[at - 2] ?? "");
  const group = owner === undefined && names.length > 1 ? names.at(-2) : undefined;
  const of = owner ? ` of ${article(singular(owner))}` : "";
  const within = group ? ` (${words(group)})` : "";
  const one = article(singular(resource));
  const whole = UNCHANGED.test(resource) || !resource.endsWith("s");
  const phrase = ((): string => {
    switch (op.method) {
      case "GET":
        if (item) return `Get ${one}`;
        return whole ? `Read the ${resource}` : `List ${resource}`;
      case "POST":
        return `Create ${one}`;
      case "PUT":
        return item ? `Replace ${one}` : `Replace the ${resource}`;
      case "PATCH":
        return item ? `Update ${one}` : `Update the ${resource}`;
      case "DELETE":
        return item ? `Delete ${one}` : `Delete the ${resource}`;
      default:
        return `${op.method} ${resource}`;
    }
  })();
  return `${phrase}${of}${within}`;
}
