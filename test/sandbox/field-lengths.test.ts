/**
 * Text lengths of the API v2 request bodies: every field the reference bounds (a `maxLength` in the
 * published document, or a length its description states) is bounded in `shared/v2` at that
 * length. The schemas are the catalog's, which the gateway checks a body against before sending it
 * upstream and the sandbox before serving it; the sandbox is then called to show it refuses a text
 * one character too long with a 400 naming the field, and takes one at the length.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { matchOperation } from "../../shared/v2/catalog";
import { fresh, json, session } from "./helpers";

/** An operation, the path of a text field in its body, and the longest length the API takes. */
type Bound = [operation: string, field: (string | number)[], max: number];

const ADDRESS = (base: string, external: boolean): Bound[] => [
  [base, ["MailAddress", "AddressLine1"], 200],
  [base, ["MailAddress", "AddressLine2"], 200],
  [base, ["MailAddress", "City"], 100],
  [base, ["MailAddress", "ZipCode"], 50],
  ...(external ? [[base, ["MailAddress", "ExternalCode"], 50] as Bound] : []),
];

const AGRICULTURE = ["ManualVoucherLines", 0, "AgricultureDetails"];

const BOUNDS: Bound[] = [
  ["POST /Customers", ["ExternalImportReference"], 50],
  ["POST /Customers", ["InvoiceEmailAddressCC"], 2000],
  ...ADDRESS("POST /Customers", true),
  ["POST /Suppliers", ["ExternalImportReference"], 50],
  ["POST /Employees", ["ExternalImportReference"], 50],
  ["POST /ContactPersons/1", ["ExternalCode"], 50],
  ...ADDRESS("POST /ContactPersons/1", false),
  ...ADDRESS("POST /ClientAdmin/CreateNewClient", false),
  ["POST /ContactDeliveryAddresses/1", ["AddressLine1"], 200],
  ["POST /ContactDeliveryAddresses/1", ["AddressLine2"], 200],
  ["POST /ContactDeliveryAddresses/1", ["City"], 100],
  ["POST /ContactDeliveryAddresses/1", ["ExternalCode"], 50],
  ["POST /ContactDeliveryAddresses/1", ["ZipCode"], 50],
  ["POST /ContactGroups", ["Name"], 400],
  ["POST /CustomDimensions", ["Code"], 40],
  ["POST /CustomDimensions", ["ExternalImportReference"], 50],
  ["POST /CustomDimensions", ["Name"], 200],
  ["POST /DeliveryTerms", ["Name"], 128],
  ["POST /PaymentTerms", ["Name"], 128],
  ["POST /Products", ["Code"], 100],
  ["POST /Products", ["Name"], 400],
  ["POST /ProductGroups", ["Code"], 200],
  ["POST /ProductGroups", ["Name"], 400],
  ["POST /ClientBankAccounts", ["BankAccountNumber"], 50],
  ["POST /ClientBankAccounts", ["BankName"], 400],
  ["POST /ClientBankAccounts", ["BicSwift"], 50],
  ["POST /JournalEntryVouchers/ManualJournals", ["Comment"], 1000],
  ["POST /JournalEntryVouchers/ManualJournals", [...AGRICULTURE, "ProductAnimalId"], 100],
  ["POST /JournalEntryVouchers/ManualJournals", [...AGRICULTURE, "ProductChassisId"], 17],
  ["POST /JournalEntryVouchers/ManualJournals", [...AGRICULTURE, "ProductGtinNumber"], 14],
  ["POST /JournalEntryVouchers/ManualJournals", [...AGRICULTURE, "ProductMachineType"], 100],
  ["POST /JournalEntryVouchers/ManualJournals", [...AGRICULTURE, "ProductRacialCode"], 32],
  ["POST /JournalEntryVouchers/ManualJournals", [...AGRICULTURE, "ProductRegistrationId"], 100],
  ["POST /JournalEntryVouchers/BankJournals", ["Comment"], 1000],
  ["POST /JournalEntryVouchers/SupplierInvoices", ["Comment"], 1000],
  ["POST /JournalEntryVouchers/SupplierInvoices", ["InvoiceNo"], 40],
  ["POST /JournalEntryVouchers/SupplierCreditNotes", ["Comment"], 1000],
  ["POST /JournalEntryVouchers/SupplierCreditNotes", ["CreditNoteNo"], 40],
  ["POST /JournalEntryVouchers/1/submitForApproval", ["Comment"], 1000],
  ["POST /VoucherApproval/1", ["Comment"], 1000],
  ...["Manual", "Bank", "Cash", "YearEnd"].flatMap((kind): Bound[] => [
    [`POST /Vouchers/${kind}Journals`, ["SaftBatchId"], 35],
    [`POST /Vouchers/${kind}Journals`, ["SaftSourceId"], 35],
  ]),
];

/** A body with `value` at `field` (and nothing else: only the issues at `field` are read). */
function bodyWith(field: (string | number)[], value: string): unknown {
  const root: Record<string, unknown> = {};
  let at: Record<string | number, unknown> = root;
  field.forEach((key, i) => {
    const next = field[i + 1];
    if (next === undefined) at[key] = value;
    else at = (at[key] = typeof next === "number" ? [] : {}) as Record<string | number, unknown>;
  });
  return root;
}

/** The codes of the issues the operation's catalog schema reports at `field`. */
function issuesAt(operation: string, field: (string | number)[], value: string): string[] {
  const [method = "", path = ""] = operation.split(" ");
  const match = matchOperation(method, path);
  if (match.kind !== "operation" || !match.op.schema) throw new Error(`no schema: ${operation}`);
  const parsed = match.op.schema.safeParse(bodyWith(field, value));
  const at = JSON.stringify(field);
  return (parsed.error?.issues ?? [])
    .filter((i) => JSON.stringify(i.path) === at)
    .map((i) => i.code);
}

describe("text lengths of the request bodies", () => {
  it.each(BOUNDS)("%s: %j takes %i characters and refuses one more", (operation, field, max) => {
    expect(issuesAt(operation, field, "x".repeat(max))).toEqual([]);
    expect(issuesAt(operation, field, "x".repeat(max + 1))).toEqual(["too_big"]);
  });

  describe("the sandbox", () => {
    beforeEach(() => fresh());

    it.each([
      ["ExternalImportReference", 50],
      ["InvoiceEmailAddressCC", 2000],
    ])(
      "refuses a Customer %s over %i characters with 400 naming it, stores nothing, and takes one at the length",
      async (field, max) => {
        const s = await session();
        const long = await s.api("/Customers", json({ Name: "A", [field]: "x".repeat(max + 1) }));
        expect(long.status).toBe(400);
        const problem = (await long.json()) as { errors: Record<string, string[]> };
        expect(Object.keys(problem.errors)).toEqual([field]);
        expect((await s.api("/Customers")).status).toBe(204);
        const fits = await s.api("/Customers", json({ Name: "B", [field]: "x".repeat(max) }));
        expect(fits.status, await fits.clone().text()).toBe(201);
        expect(((await fits.json()) as Record<string, unknown>)[field]).toBe("x".repeat(max));
      },
    );
  });
});
