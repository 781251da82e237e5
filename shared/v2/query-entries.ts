/**
 * @module
 * The table behind `query.ts`: every operation of API v2 that takes query parameters. Names and
 * kinds are the sandbox's (written from the API's spec, checked by
 * test/sandbox/query-params.test.ts), plus the parameters that the API's published document and
 * its documented filtering conventions name and the sandbox does not read. An operation is
 * `paged` when it answers a paged list (it takes ResourceParameters).
 */
import type { OperationQuery, QueryKind, QueryParam } from "./query";

const p = (
  name: string,
  kind: QueryKind,
  description: string,
  extra: Pick<QueryParam, "required" | "values"> = {},
): QueryParam => ({ name, kind, description, ...extra });
const required = { required: true } as const;

/** A paged list with these filters. */
const list = (...params: QueryParam[]): OperationQuery => ({ paged: true, params });
/** A read that is not paged, with these parameters. */
const read = (...params: QueryParam[]): OperationQuery => ({ paged: false, params });

const CREATED = p(
  "createdDateTimeOffsetGreaterThan",
  "after",
  "Created after this time (exclusive); for polling new entries.",
);
const CHANGED = p(
  "lastChangedDateTimeOffsetGreaterThan",
  "after",
  "Changed after this time (exclusive); for polling changes.",
);
const STAMPS = [CREATED, CHANGED];
const CODES = p("codes", "strings", "Codes, comma-separated.");
const IS_ACTIVE = p("isActive", "bool", "Only active (true) or inactive (false) records.");
const FROM_DATE = p("fromDate", "from", "Voucher date from (inclusive).");
const TO_DATE = p("toDate", "to", "Voucher date up to (inclusive).");
const DEPARTMENT_CODES = p(
  "departmentCodes",
  "strings",
  "Department codes of the header, comma-separated; -1 selects those without.",
);
const PROJECT_CODES = p(
  "projectCodes",
  "strings",
  "Project codes, comma-separated; -1 selects those without.",
);
const INCLUDE_SUB_PROJECT = p(
  "includeSubProject",
  "bool",
  "Also the sub-projects of the projects in projectCodes.",
);
const ONLY_MINE = p(
  "onlyCreatedByCurrentIntegration",
  "bool",
  "Only records the calling integration created.",
);
const ONLY_UNPAID = p("onlyUnpaidInvoices", "bool", "Only invoices with a balance left to pay.");
const VOUCHER_NOS = p("voucherNos", "ranges", "Voucher numbers and ranges.");
const VOUCHER_TYPES = p("voucherTypes", "strings", "Voucher types, comma-separated.");
const SHOW_INHERITED = p(
  "showInherited",
  "bool",
  "Properties as the GUI shows them (inherited values), or as set on the order.",
);
const EXTERNAL_IMPORT_REFERENCES = p(
  "externalImportReferences",
  "strings",
  "External import references, comma-separated.",
);
const CONTACT_IDS = p(
  "contactIds",
  "ids",
  "Ids of the owning contacts (customers, suppliers, employees), comma-separated.",
);

/**
 * The filters of one kind of contact: its numbers, creation time, and the ones all contacts share.
 */
const contact = (kind: "customer" | "supplier" | "employee"): QueryParam[] => [
  p(`${kind}Nos`, "ranges", `${kind[0]?.toUpperCase() ?? ""}${kind.slice(1)} numbers and ranges.`),
  p("externalNos", "ranges", "External numbers and ranges."),
  p("externalImportReference", "eq", "One external import reference."),
  p("contactGroupIds", "ids", "Contact group ids, comma-separated; an unknown id is a 404."),
  p(`${kind}CreatedDateTimeOffsetGreaterThan`, "after", "Created after this time (exclusive)."),
  CHANGED,
];

/** Customers and suppliers also filter on these (newer than the published document). */
const COMPANY = [
  p("organizationNumber", "strings", "Organization number."),
  p("organizationNumbers", "strings", "Organization numbers, comma-separated."),
  p("emailAddress", "strings", "E-mail address."),
  p("emailAddresses", "strings", "E-mail addresses, comma-separated."),
  p("phoneNumber", "strings", "Phone number."),
  p("phoneNumbers", "strings", "Phone numbers, comma-separated."),
  p("subledgerAccountIds", "ids", "Subledger account ids, comma-separated."),
];

/** The filters of a customer or supplier ledger's open items and statement. */
const ledgerEntries = (kind: "customer" | "supplier"): QueryParam[] => [
  p(`${kind}Nos`, "ranges", `${kind === "customer" ? "Customer" : "Supplier"} numbers and ranges.`),
  p(
    "invoiceNos",
    "strings",
    "Invoice numbers, comma-separated (text, not ranges, on ledger entries).",
  ),
  p("customMatchingReferences", "strings", "Custom matching references, comma-separated."),
  VOUCHER_TYPES,
];

const LEDGER_DATE = p("date", "date", "Balances as on this date.", required);
const INCLUDE_ONLY_OPEN = p("includeOnlyOpenItems", "bool", "Only contacts with a balance.");
const MATCH_ID = p("matchId", "int", "The match id the entries share.", required);
const PERIOD = [
  p("fromDate", "from", "Posting date from (inclusive).", required),
  p("toDate", "to", "Posting date up to (inclusive).", required),
];

/** Lists with paging only: no filters of their own. */
const PAGED_ONLY = [
  "GET /ClientContacts",
  "GET /BrandingThemes",
  "GET /DeliveryTerms",
  "GET /PaymentTerms",
  "GET /ContactGroups",
  "GET /ClientBankAccounts",
  "GET /ClientBankAccounts/BankApprovers",
  "GET /SalesOrders/{id}/Lines",
  "GET /OutgoingInvoices/{id}/Lines",
  "GET /SalesOrders/{salesOrderId}/attachments",
  "GET /Employees/{employeeId}/Employments",
  "GET /SalaryLines",
  "GET /PayrollSettings/PensionSchemes",
  ...["FtePercentages", "FixedSalaries", "Salaries", "Leaves", "Layoffs"].map(
    (l) => `GET /Employees/Employments/{employmentId}/${l}`,
  ),
  "GET /ClientAdmin/{clientId}/AccessRoles",
  "GET /ClientAdmin/{clientId}/Users",
  "GET /ClientAdmin/TemplateAccessRoles",
];

/** Newer lists (unpublished shapes) that the sandbox polls like the published ones. */
const POLLED = [
  "GET /Budget",
  "GET /PaymentTermSuppliers",
  "GET /Imports",
  "GET /BankTransfers",
  "GET /qualitysettings/Folders",
  "GET /qualityDocuments/Folders",
  "GET /clientDocuments/Folders",
];

/**
 * Every operation with query parameters, keyed as the catalog names it; `query.ts` serves it as
 * `QUERY`.
 */
export const QUERY_ENTRIES: Readonly<Record<string, OperationQuery>> = {
  ...Object.fromEntries(PAGED_ONLY.map((key) => [key, list()])),
  ...Object.fromEntries(POLLED.map((key) => [key, list(...STAMPS)])),
  // Client, settings and reference data
  "GET /Currencies": list(
    p("currencyCode", "strings", "Currency codes, comma-separated (NOK, EUR)."),
    IS_ACTIVE,
  ),
  "GET /CurrencyRates": read(
    p("fromCurrency", "eq", "Currency code to convert from.", required),
    p("toCurrency", "eq", "Currency code to convert to.", required),
    p("asOnDate", "date", "The date of the rate.", required),
  ),
  "GET /VatCodes": list(IS_ACTIVE),
  "GET /SubLedgerNumberSeries": list(
    p("generalLedgerAccountNos", "ranges", "General ledger account numbers and ranges."),
    p("isDefault", "bool", "Only the default series (true) or the others."),
    p("subLedgerNumberSeriesType", "strings", "Series types, comma-separated; case-sensitive."),
  ),
  "GET /Enterprises": list(
    p("enterpriseNos", "strings", "Enterprise (organization) numbers, comma-separated."),
    ...STAMPS,
  ),
  // Standard resources
  "GET /Customers": list(...contact("customer"), ...COMPANY),
  "GET /Suppliers": list(...contact("supplier"), ...COMPANY),
  "GET /Products": list(
    CODES,
    p("names", "strings", "Names, comma-separated."),
    p("productGroupCodes", "strings", "Product group codes, comma-separated."),
    p("type", "eq", "Product type.", { values: ["Product", "Service"] }),
    p("isArchived", "bool", "Archived (true) or in use (false)."),
    ...STAMPS,
    p(
      "stockOnHandLastChangedDatetimeOffsetGreaterThan",
      "after",
      "Stock on hand changed after this time (exclusive).",
    ),
  ),
  "GET /ProductGroups": list(
    CODES,
    p("names", "strings", "Names, comma-separated."),
    p("isArchived", "bool", "Archived (true) or in use (false)."),
    p("type", "eq", "Product type.", { values: ["Product", "Service"] }),
    ...STAMPS,
  ),
  "GET /Departments": list(CODES, IS_ACTIVE, p("name", "eq", "One name."), ...STAMPS),
  "GET /Locations": list(CODES, CREATED),
  "GET /Projects": list(
    p("projectCodes", "strings", "Project codes, comma-separated."),
    p("customerNos", "ranges", "Customer numbers and ranges."),
    p("departmentCodes", "strings", "Department codes, comma-separated."),
    p("status", "eq", "Project status."),
    p("projectBillingMethod", "eq", "Billing method."),
    p(
      "projectManagerEmployeeNos",
      "ranges",
      "Employee numbers and ranges of the project managers.",
    ),
    ...STAMPS,
  ),
  "GET /CustomDimensions": list(
    CODES,
    p("ordinal", "strings", "Dimension ordinals, comma-separated."),
    p("externalImportReference", "strings", "External import references, comma-separated."),
    ...STAMPS,
  ),
  "GET /GeneralLedgerAccounts": list(
    p("accountNos", "ranges", "Account numbers and ranges."),
    p("agricultureDepartments", "strings", "Agriculture departments, comma-separated."),
    CHANGED,
  ),
  // Contact details
  "GET /ContactPersons": list(
    CONTACT_IDS,
    p("externalCodes", "strings", "External codes, comma-separated."),
    ...STAMPS,
  ),
  "GET /ContactBankAccounts": list(
    CONTACT_IDS,
    p("bankAccountNumbers", "strings", "Bank account numbers, comma-separated."),
    ...STAMPS,
  ),
  "GET /ContactDeliveryAddresses": list(
    CONTACT_IDS,
    p("externalCodes", "strings", "External codes, comma-separated."),
    ...STAMPS,
  ),
  "GET /ContactShareholders": list(CONTACT_IDS, ...STAMPS),
  "POST /ContactShareholders": read(
    p("contactId", "int", "The contact the shareholder belongs to.", required),
  ),
  "GET /ContactUBOs": list(CONTACT_IDS, ...STAMPS),
  // Ledgers and reports
  "GET /AccountTransactions": list(
    ...PERIOD,
    p("accountNos", "ranges", "Account numbers and ranges."),
    VOUCHER_NOS,
    VOUCHER_TYPES,
    p("vatCodes", "strings", "VAT codes, comma-separated."),
    ...STAMPS,
  ),
  "GET /TrialBalance": list(
    LEDGER_DATE,
    p("accountNos", "ranges", "Account numbers and ranges."),
    p("hideAccountsWithZeroBalance", "bool", "Leave out accounts whose balance is zero."),
  ),
  "GET /Customerledger/CustomerBalances": list(LEDGER_DATE, INCLUDE_ONLY_OPEN),
  "GET /Customerledger/OpenItems": list(LEDGER_DATE, ...ledgerEntries("customer")),
  "GET /Customerledger/EntriesByMatchId": read(MATCH_ID),
  "GET /Customerledger/Statement": list(...PERIOD, ...ledgerEntries("customer")),
  "GET /Supplierledger/SupplierBalances": list(LEDGER_DATE, INCLUDE_ONLY_OPEN),
  "GET /SupplierLedger/CustomerBalances": list(LEDGER_DATE, INCLUDE_ONLY_OPEN),
  "GET /Supplierledger/OpenItems": list(LEDGER_DATE, ...ledgerEntries("supplier")),
  "GET /Supplierledger/EntriesByMatchId": read(MATCH_ID),
  "GET /Supplierledger/Statement": list(...PERIOD, ...ledgerEntries("supplier")),
  // Sales
  "GET /SalesOrders": list(
    p("customerNos", "ranges", "Customer numbers and ranges."),
    p("orderStatus", "eq", "Order status.", { values: ["Draft", "Confirmed"] }),
    DEPARTMENT_CODES,
    PROJECT_CODES,
    INCLUDE_SUB_PROJECT,
    ONLY_MINE,
    CHANGED,
    p("salesOrderNos", "ranges", "Sales order numbers and ranges."),
    EXTERNAL_IMPORT_REFERENCES,
    SHOW_INHERITED,
  ),
  "GET /SalesOrders/sentState": read(
    p("id", "uuid", "The sales order; all sent states when left out."),
  ),
  "GET /SalesOrders/{id}": read(SHOW_INHERITED),
  "GET /SalesOrders/{id}/Complete": read(SHOW_INHERITED),
  "GET /OutgoingInvoices": list(
    FROM_DATE,
    TO_DATE,
    p("customerNos", "ranges", "Customer numbers and ranges."),
    p("invoiceNos", "ranges", "Invoice numbers and ranges."),
    VOUCHER_NOS,
    p("invoiceIds", "strings", "Invoice ids, comma-separated."),
    p("customMatchingReferences", "strings", "Custom matching references, comma-separated."),
    DEPARTMENT_CODES,
    PROJECT_CODES,
    INCLUDE_SUB_PROJECT,
    ONLY_UNPAID,
    ONLY_MINE,
    EXTERNAL_IMPORT_REFERENCES,
    p(
      "balanceLastChangedDateTimeOffsetGreaterThan",
      "after",
      "Balance (remaining amount) changed after this time (exclusive).",
    ),
    p("sentDateTimeOffsetGreaterThan", "after", "Sent from the API after this time (exclusive)."),
  ),
  "GET /IncomingInvoices": list(
    FROM_DATE,
    TO_DATE,
    p(
      "balanceLastChangedDateTimeOffsetGreaterThan",
      "after",
      "Balance (remaining amount) changed after this time (exclusive).",
    ),
    p("supplierNos", "ranges", "Supplier numbers and ranges."),
    VOUCHER_NOS,
    VOUCHER_TYPES,
    ONLY_UNPAID,
    PROJECT_CODES,
    INCLUDE_SUB_PROJECT,
    DEPARTMENT_CODES,
  ),
  // Journal entry vouchers, approval and documentation
  "GET /JournalEntryVouchers": list(
    ...STAMPS,
    p("inApprovalWorkflow", "bool", "In an approval workflow (true) or not."),
    p("isPosted", "bool", "Posted (true) or draft."),
  ),
  "GET /VoucherApproval": list(
    p(
      "availableFromDateTimeOffsetGreaterThan",
      "after",
      "Available for approval after this time (exclusive).",
    ),
  ),
  "GET /VoucherDocumentation": list(
    p("id", "uuid", "The voucher."),
    p("voucherNo", "int", "The voucher number."),
  ),
  "PUT /VoucherDocumentation": read(
    p("id", "uuid", "The posted voucher the documentation is attached to.", required),
  ),
  "GET /VoucherDocumentation/Download": read(
    p("id", "uuid", "The voucher.", required),
    p("documentationType", "eq", "The kind of documentation (All by default).", {
      values: ["Ehf", "Pdf", "Images", "All"],
    }),
  ),
  // Employees and payroll
  "GET /Employees": list(
    ...contact("employee"),
    p("nationalIdNumber", "eq", "One national id number."),
    p("nationalIdNumbers", "strings", "National id numbers, comma-separated."),
    p("internationalIdNumber", "eq", "One international id number."),
    p("internationalIdNumbers", "strings", "International id numbers, comma-separated."),
  ),
  "GET /Employees/{employeeId}/HourlyRates": list(
    p("validNow", "bool", "Only the rates in effect today."),
  ),
  "GET /Employees/Employments": list(
    p("employmentForm", "eq", "Employment form."),
    CHANGED,
    p("activeEmployments", "bool", "Active (no end date, or one ahead) or ended employments."),
  ),
  "GET /PayItems": list(CODES, CREATED, IS_ACTIVE, CHANGED),
  // Client administration and the quality module
  "GET /ClientAdmin/Clients": list(IS_ACTIVE),
  "GET /Assignments": list(
    p("customerSubLedgerAccountIds", "ids", "Customer subledger account ids, comma-separated."),
    p("managerSubLedgerAccountIds", "ids", "Manager subledger account ids, comma-separated."),
    p("status", "strings", "Statuses, comma-separated (draft and active by default).", {
      values: ["draft", "active", "archived"],
    }),
  ),
  "GET /Assignments/{assignmentId}/Deadlines": list(
    p("accountingYear", "int", "The accounting year, e.g. 2026."),
    ...STAMPS,
  ),
  "POST /Assignments/{assignmentId}/Deadlines": read(
    p("accountingYear", "int", "The accounting year the deadline belongs to.", required),
  ),
  "GET /Assignments/{assignmentId}/Services/Tasks": list(
    p("includeInternal", "bool", "Also internal tasks."),
    p("includeAvailable", "bool", "Also tasks available to add."),
    ...STAMPS,
  ),
  "GET /qualityDocuments/Documents": list(
    p("assignmentId", "strings", "Assignment ids, comma-separated."),
    p("taskId", "strings", "Task ids, comma-separated."),
    p("serviceAreaId", "strings", "Service area ids, comma-separated."),
    ...STAMPS,
  ),
};
