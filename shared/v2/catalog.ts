/**
 * @module
 * The catalog of API v2: every method and path of the published document, the privileges that may
 * call it (any one of them suffices), and the body it takes. The gateway validates bodies against it
 * before anything is sent; the sandbox routes, authorizes and validates by it. One list, so the two
 * cannot drift apart.
 */
import type { z } from "zod";
import { AddPartnerUserPost, BankApproverPost, ClientBankAccountPost, ClientPost, ContactBankAccountPost, ContactDeliveryAddressPost, ContactGroupPost, ContactPersonPost, FinalizeOnboardingPost, InitiateOnboardingPost, InviteUserPost, SupplierPost } from "./contacts";
import { CustomerPost } from "./customers";
import { JsonPatch } from "./json-patch";
import { CustomDimensionPost, DeliveryTermPost, DepartmentPost, GeneralLedgerAccountPost, LocationPost, PaymentTermPost, ProductGroupPost, ProductPost, ProjectPost } from "./masterdata";
import { EmployeeHourlyRatePost, EmployeePost, EmploymentFixedSalaryPost, EmploymentFtePercentagePost, EmploymentLayoffPost, EmploymentLeavePost, EmploymentPost, EmploymentSalaryPost, SalaryLinePost } from "./payroll";
import { SalesOrderCompletePost, SalesOrderLinePost, SendInvoiceRequestPost } from "./sales";
import { BankJournalEntryVoucherLinePost, BankJournalEntryVoucherPost, BankVoucherPost, CashVoucherPost, ManualJournalEntryVoucherLinePost, ManualJournalEntryVoucherPost, ManualVoucherPost, SubmitForApprovalPost, SupplierCreditNoteJournalEntryVoucherPost, SupplierInvoiceJournalEntryVoucherPost, SupplierVoucherLinePost, VoucherApprovalPost, YearEndVoucherPost } from "./vouchers";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** How an operation's body is sent. */
export type BodyKind = "none" | "json" | "json-patch" | "multipart";

/** One operation of the API. */
export interface Operation {
  method: Method;
  /** The path as the API documents it, e.g. `/Customers/{id}`. */
  path: string;
  /** `METHOD path`, the operation's name in the sandbox and in logs. */
  key: string;
  /** Privileges of which the integration needs one; empty means any valid token. */
  privileges: readonly string[];
  body: BodyKind;
  /** Schema of a JSON body (JSON Patch for every PATCH). */
  schema: z.ZodType | null;
}

/** Read access: the privilege and its `_Full` form. */
const R = (...names: string[]) => names.flatMap((n) => [n, `${n}_Full`]);
/** Write access: only the `_Full` forms. */
const F = (...names: string[]) => names.map((n) => `${n}_Full`);

type Entry = [key: `${Method} /${string}`, privileges: readonly string[], body?: z.ZodType | "multipart"];

/** Contacts (persons, bank accounts, delivery addresses) may also be reached with the privilege of their owner's kind. */
const CONTACT_OWNERS = ["Customer", "Supplier", "Employee"] as const;

const ENTRIES: Entry[] = [
  // Client, settings and reference data
  ["GET /ClientIntegrationInformation", []],
  ["GET /ClientContacts", R("CommonServices")],
  ["GET /Currencies", R("CommonServices")],
  ["GET /CurrencyRates", R("CommonServices")],
  ["GET /FinancialSettings", R("CommonServices")],
  ["GET /LockDateSettings", R("CommonServices")],
  ["GET /OrganizationSettings", R("CommonServices")],
  ["GET /VatCodes", R("CommonServices")],
  ["GET /VatSettings", R("CommonServices")],
  ["GET /SubLedgerNumberSeries", R("CommonServices")],
  ["GET /SubLedgerNumberSeries/{id}", R("CommonServices")],
  ["GET /BrandingThemes", R("CommonServices")],
  ["GET /BrandingThemes/{id}", R("CommonServices")],
  ["GET /CustomDimensionSettings", R("CustomDimension")],
  ["GET /Enterprises", R("Enterprises")],
  // Standard resources
  ["GET /Customers", R("Customer")],
  ["POST /Customers", F("Customer"), CustomerPost],
  ["GET /Customers/{id}", R("Customer")],
  ["PATCH /Customers/{id}", F("Customer")],
  ["DELETE /Customers/{id}", F("Customer")],
  ["GET /Suppliers", R("Supplier")],
  ["POST /Suppliers", F("Supplier"), SupplierPost],
  ["GET /Suppliers/{id}", R("Supplier")],
  ["PATCH /Suppliers/{id}", F("Supplier")],
  ["DELETE /Suppliers/{id}", F("Supplier")],
  ["GET /Products", R("Product")],
  ["POST /Products", F("Product"), ProductPost],
  ["GET /Products/{id}", R("Product")],
  ["PATCH /Products/{id}", F("Product")],
  ["DELETE /Products/{id}", F("Product")],
  ["GET /ProductGroups", R("Product")],
  ["POST /ProductGroups", F("Product"), ProductGroupPost],
  ["GET /ProductGroups/{id}", R("Product")],
  ["PATCH /ProductGroups/{id}", F("Product")],
  ["DELETE /ProductGroups/{id}", F("Product")],
  ["GET /Departments", R("Department")],
  ["POST /Departments", F("Department"), DepartmentPost],
  ["GET /Departments/{id}", R("Department")],
  ["PATCH /Departments/{id}", F("Department")],
  ["DELETE /Departments/{id}", F("Department")],
  ["GET /Locations", R("Location")],
  ["POST /Locations", F("Location"), LocationPost],
  ["GET /Locations/{id}", R("Location")],
  ["PATCH /Locations/{id}", F("Location")],
  ["DELETE /Locations/{id}", F("Location")],
  ["GET /Projects", R("Project")],
  ["POST /Projects", F("Project"), ProjectPost],
  ["GET /Projects/{id}", R("Project")],
  ["PATCH /Projects/{id}", F("Project")],
  ["DELETE /Projects/{id}", F("Project")],
  ["GET /CustomDimensions", R("CustomDimension")],
  ["POST /CustomDimensions", F("CustomDimension"), CustomDimensionPost],
  ["GET /CustomDimensions/{id}", R("CustomDimension")],
  ["PATCH /CustomDimensions/{id}", F("CustomDimension")],
  ["DELETE /CustomDimensions/{id}", F("CustomDimension")],
  ["GET /DeliveryTerms", R("CommonServices")],
  ["POST /DeliveryTerms", F("CommonServices"), DeliveryTermPost],
  ["GET /DeliveryTerms/{id}", R("CommonServices")],
  ["PATCH /DeliveryTerms/{id}", F("CommonServices")],
  ["DELETE /DeliveryTerms/{id}", F("CommonServices")],
  ["GET /PaymentTerms", R("CommonServices")],
  ["POST /PaymentTerms", F("CommonServices"), PaymentTermPost],
  ["GET /PaymentTerms/{id}", R("CommonServices")],
  ["PATCH /PaymentTerms/{id}", F("CommonServices")],
  ["DELETE /PaymentTerms/{id}", F("CommonServices")],
  ["GET /ContactGroups", R("ContactGroup")],
  ["POST /ContactGroups", F("ContactGroup"), ContactGroupPost],
  ["GET /ContactGroups/{id}", R("ContactGroup")],
  ["PATCH /ContactGroups/{id}", F("ContactGroup")],
  ["DELETE /ContactGroups/{id}", F("ContactGroup")],
  ["GET /GeneralLedgerAccounts", R("GeneralLedgerAccount")],
  ["POST /GeneralLedgerAccounts", F("GeneralLedgerAccount"), GeneralLedgerAccountPost],
  ["GET /GeneralLedgerAccounts/{id}", R("GeneralLedgerAccount")],
  ["PATCH /GeneralLedgerAccounts/{id}", F("GeneralLedgerAccount")],
  ["DELETE /GeneralLedgerAccounts/{id}", F("GeneralLedgerAccount")],
  ["GET /ClientBankAccounts", R("ClientBankAccount")],
  ["POST /ClientBankAccounts", F("ClientBankAccount"), ClientBankAccountPost],
  ["GET /ClientBankAccounts/{id}", R("ClientBankAccount")],
  ["PATCH /ClientBankAccounts/{id}", F("ClientBankAccount")],
  ["GET /ClientBankAccounts/BankApprovers", R("ClientBankAccount")],
  ["POST /ClientBankAccounts/BankApprovers", F("ClientBankAccount"), BankApproverPost],
  ["GET /ClientBankAccounts/BankApprovers/{id}", R("ClientBankAccount")],
  ["PATCH /ClientBankAccounts/BankApprovers/{id}", F("ClientBankAccount")],
  // Contact details, reachable through the contact's own kind as well
  ["GET /ContactPersons", R("ContactPerson", "Customer", "Supplier")],
  ["POST /ContactPersons/{contactId}", F("ContactPerson", "Customer", "Supplier"), ContactPersonPost],
  ["GET /ContactPersons/{contactId}/{id}", R("ContactPerson", "Customer", "Supplier")],
  ["PATCH /ContactPersons/{contactId}/{id}", F("ContactPerson", "Customer", "Supplier")],
  ["DELETE /ContactPersons/{contactId}/{id}", F("ContactPerson", "Customer", "Supplier")],
  ["GET /ContactBankAccounts", R("ContactBankAccount", ...CONTACT_OWNERS)],
  ["POST /ContactBankAccounts/{contactId}", F("ContactBankAccount", ...CONTACT_OWNERS), ContactBankAccountPost],
  ["GET /ContactBankAccounts/{contactId}/{id}", R("ContactBankAccount", ...CONTACT_OWNERS)],
  ["PATCH /ContactBankAccounts/{contactId}/{id}", F("ContactBankAccount", ...CONTACT_OWNERS)],
  ["DELETE /ContactBankAccounts/{contactId}/{id}", F("ContactBankAccount", ...CONTACT_OWNERS)],
  ["GET /ContactDeliveryAddresses", R("ContactDeliveryAddress", ...CONTACT_OWNERS)],
  ["POST /ContactDeliveryAddresses/{contactId}", F("ContactDeliveryAddress", ...CONTACT_OWNERS), ContactDeliveryAddressPost],
  ["GET /ContactDeliveryAddresses/{contactId}/{id}", R("ContactDeliveryAddress", ...CONTACT_OWNERS)],
  ["PATCH /ContactDeliveryAddresses/{contactId}/{id}", F("ContactDeliveryAddress", ...CONTACT_OWNERS)],
  ["DELETE /ContactDeliveryAddresses/{contactId}/{id}", F("ContactDeliveryAddress", ...CONTACT_OWNERS)],
  // Ledgers and reports, computed from posted vouchers
  ["GET /AccountTransactions", R("AccountTransaction")],
  ["GET /TrialBalance", R("TrialBalance")],
  ["GET /Customerledger/CustomerBalances", R("CustomerLedger")],
  ["GET /Customerledger/OpenItems", R("CustomerLedger")],
  ["GET /Customerledger/EntriesByMatchId", R("CustomerLedger")],
  ["GET /Customerledger/Statement", R("CustomerLedger")],
  ["GET /Supplierledger/SupplierBalances", R("SupplierLedger")],
  ["GET /Supplierledger/OpenItems", R("SupplierLedger")],
  ["GET /Supplierledger/EntriesByMatchId", R("SupplierLedger")],
  ["GET /Supplierledger/Statement", R("SupplierLedger")],
  // Sales
  ["GET /SalesOrders", R("SalesOrders")],
  ["POST /SalesOrders/Complete", F("SalesOrders"), SalesOrderCompletePost],
  ["GET /SalesOrders/sentState", F("SalesOrders")],
  ["GET /SalesOrders/{id}", R("SalesOrders")],
  ["PATCH /SalesOrders/{id}", F("SalesOrders")],
  ["DELETE /SalesOrders/{id}", F("SalesOrders")],
  ["GET /SalesOrders/{id}/Complete", R("SalesOrders")],
  ["GET /SalesOrders/{id}/Lines", R("SalesOrders")],
  ["POST /SalesOrders/{id}/Lines", F("SalesOrders"), SalesOrderLinePost],
  ["GET /SalesOrders/{id}/Lines/{lineId}", R("SalesOrders")],
  ["PATCH /SalesOrders/{id}/Lines/{lineId}", F("SalesOrders")],
  ["DELETE /SalesOrders/{id}/Lines/{lineId}", F("SalesOrders")],
  ["POST /SalesOrders/{id}/createAndSendInvoice", F("SalesOrders"), SendInvoiceRequestPost],
  ["GET /SalesOrders/{salesOrderId}/attachments", R("SalesOrderAttachment")],
  ["POST /SalesOrders/{salesOrderId}/attachments", F("SalesOrderAttachment"), "multipart"],
  ["GET /SalesOrders/{salesOrderId}/attachments/{id}", R("SalesOrderAttachment")],
  ["DELETE /SalesOrders/{salesOrderId}/attachments/{id}", F("SalesOrderAttachment")],
  ["GET /OutgoingInvoices", R("OutgoingInvoice")],
  ["GET /OutgoingInvoices/{id}", R("OutgoingInvoice")],
  ["GET /OutgoingInvoices/{id}/Lines", R("OutgoingInvoice")],
  ["GET /IncomingInvoices", R("IncomingInvoice")],
  ["GET /IncomingInvoices/{id}", R("IncomingInvoice")],
  // Vouchers posted directly to the ledger
  ["POST /Vouchers/ManualJournals", F("ManualVoucher"), ManualVoucherPost],
  ["GET /Vouchers/ManualJournals/{id}", F("ManualVoucher")],
  ["POST /Vouchers/BankJournals", F("BankVoucher"), BankVoucherPost],
  ["GET /Vouchers/BankJournals/{id}", F("BankVoucher")],
  ["POST /Vouchers/CashJournals", F("CashVoucher"), CashVoucherPost],
  ["GET /Vouchers/CashJournals/{id}", F("CashVoucher")],
  ["POST /Vouchers/YearEndJournals", F("YearEndVoucher"), YearEndVoucherPost],
  ["GET /Vouchers/YearEndJournals/{id}", F("YearEndVoucher")],
  ["GET /Vouchers/OutgoingInvoiceJournals/{id}", F("OutgoingInvoiceVoucher")],
  ["POST /Vouchers/Reverse/{id}", F("YearEndVoucher")],
  // Journal entry vouchers (drafts) and their approval
  ["GET /JournalEntryVouchers", R("JournalEntryVoucher")],
  ["DELETE /JournalEntryVouchers/{id}", F("JournalEntryVoucher")],
  ["POST /JournalEntryVouchers/{id}/submitForApproval", F("JournalEntryVoucher"), SubmitForApprovalPost],
  ["GET /JournalEntryVouchers/{id}/ehf", R("JournalEntryVoucher")],
  ["POST /JournalEntryVouchers/{id}/VoucherPages", F("JournalEntryVoucher"), "multipart"],
  ["GET /JournalEntryVouchers/{id}/VoucherPages/{pageId}", R("JournalEntryVoucher")],
  ["DELETE /JournalEntryVouchers/{id}/VoucherPages/{pageId}", F("JournalEntryVoucher")],
  ["POST /JournalEntryVouchers/ManualJournals", F("JournalEntryVoucher"), ManualJournalEntryVoucherPost],
  ["GET /JournalEntryVouchers/ManualJournals/{id}", R("JournalEntryVoucher")],
  ["PATCH /JournalEntryVouchers/ManualJournals/{id}", F("JournalEntryVoucher")],
  ["POST /JournalEntryVouchers/ManualJournals/{id}/VoucherLines", F("JournalEntryVoucher"), ManualJournalEntryVoucherLinePost],
  ["PATCH /JournalEntryVouchers/ManualJournals/{id}/VoucherLines/{lineId}", F("JournalEntryVoucher")],
  ["DELETE /JournalEntryVouchers/ManualJournals/{id}/VoucherLines/{lineId}", F("JournalEntryVoucher")],
  ["POST /JournalEntryVouchers/BankJournals", F("JournalEntryVoucher"), BankJournalEntryVoucherPost],
  ["GET /JournalEntryVouchers/BankJournals/{id}", R("JournalEntryVoucher")],
  ["PATCH /JournalEntryVouchers/BankJournals/{id}", F("JournalEntryVoucher")],
  ["POST /JournalEntryVouchers/BankJournals/{id}/VoucherLines", F("JournalEntryVoucher"), BankJournalEntryVoucherLinePost],
  ["PATCH /JournalEntryVouchers/BankJournals/{id}/VoucherLines/{lineId}", F("JournalEntryVoucher")],
  ["DELETE /JournalEntryVouchers/BankJournals/{id}/VoucherLines/{lineId}", F("JournalEntryVoucher")],
  ["POST /JournalEntryVouchers/SupplierInvoices", F("JournalEntryVoucher"), SupplierInvoiceJournalEntryVoucherPost],
  ["GET /JournalEntryVouchers/SupplierInvoices/{id}", R("JournalEntryVoucher")],
  ["PATCH /JournalEntryVouchers/SupplierInvoices/{id}", F("JournalEntryVoucher")],
  ["POST /JournalEntryVouchers/SupplierInvoices/{id}/VoucherLines", F("JournalEntryVoucher"), SupplierVoucherLinePost],
  ["PATCH /JournalEntryVouchers/SupplierInvoices/{id}/VoucherLines/{lineId}", F("JournalEntryVoucher")],
  ["DELETE /JournalEntryVouchers/SupplierInvoices/{id}/VoucherLines/{lineId}", F("JournalEntryVoucher")],
  ["POST /JournalEntryVouchers/SupplierCreditNotes", F("JournalEntryVoucher"), SupplierCreditNoteJournalEntryVoucherPost],
  ["GET /JournalEntryVouchers/SupplierCreditNotes/{id}", R("JournalEntryVoucher")],
  ["PATCH /JournalEntryVouchers/SupplierCreditNotes/{id}", F("JournalEntryVoucher")],
  ["POST /JournalEntryVouchers/SupplierCreditNotes/{id}/VoucherLines", F("JournalEntryVoucher"), SupplierVoucherLinePost],
  ["PATCH /JournalEntryVouchers/SupplierCreditNotes/{id}/VoucherLines/{lineId}", F("JournalEntryVoucher")],
  ["DELETE /JournalEntryVouchers/SupplierCreditNotes/{id}/VoucherLines/{lineId}", F("JournalEntryVoucher")],
  ["GET /VoucherApproval", F("VoucherApproval")],
  ["POST /VoucherApproval/{voucherId}", F("VoucherApproval"), VoucherApprovalPost],
  ["GET /VoucherDocumentation", R("VoucherDocumentation")],
  ["PUT /VoucherDocumentation", F("VoucherDocumentation"), "multipart"],
  ["GET /VoucherDocumentation/Download", R("VoucherDocumentation")],
  // Employees and payroll
  ["GET /Employees", R("Employee")],
  ["POST /Employees", F("Employee"), EmployeePost],
  ["GET /Employees/{employeeId}", R("Employee")],
  ["PATCH /Employees/{employeeId}", F("Employee")],
  ["DELETE /Employees/{employeeId}", F("Employee")],
  ["PATCH /Employees/{employeeId}/BankAccounts", F("EmployeeBankAccounts")],
  ["GET /Employees/{employeeId}/PayrollSettings", R("EmployeePayrollSettings")],
  ["PATCH /Employees/{employeeId}/PayrollSettings", F("EmployeePayrollSettings")],
  ["GET /Employees/{employeeId}/PensionSettings", R("EmployeePensionSettings")],
  ["PATCH /Employees/{employeeId}/PensionSettings", F("EmployeePensionSettings")],
  ["GET /Employees/{employeeId}/HourlyRates", R("EmployeeHourlyRates")],
  ["POST /Employees/{employeeId}/HourlyRates", F("EmployeeHourlyRates"), EmployeeHourlyRatePost],
  ["GET /Employees/{employeeId}/HourlyRates/{hourlyRateId}", R("EmployeeHourlyRates")],
  ["PATCH /Employees/{employeeId}/HourlyRates/{hourlyRateId}", F("EmployeeHourlyRates")],
  ["DELETE /Employees/{employeeId}/HourlyRates/{hourlyRateId}", F("EmployeeHourlyRates")],
  ["GET /Employees/Employments", R("Employment")],
  ["GET /Employees/{employeeId}/Employments", R("Employment")],
  ["POST /Employees/{employeeId}/Employments", F("Employment"), EmploymentPost],
  ["GET /Employees/{employeeId}/Employments/{employmentId}", R("Employment")],
  ["PATCH /Employees/{employeeId}/Employments/{employmentId}", F("Employment")],
  ["DELETE /Employees/{employeeId}/Employments/{employmentId}", F("Employment")],
  ...employmentChild("FtePercentages", "ftePercentageId", "EmploymentFtePercentage", EmploymentFtePercentagePost),
  ...employmentChild("FixedSalaries", "fixedSalaryId", "EmploymentFixedSalary", EmploymentFixedSalaryPost),
  ...employmentChild("Salaries", "salaryId", "EmploymentSalary", EmploymentSalaryPost),
  ...employmentChild("Leaves", "leaveId", "EmploymentLeave", EmploymentLeavePost),
  ...employmentChild("Layoffs", "layoffId", "EmploymentLayoff", EmploymentLayoffPost),
  ["GET /SalaryLines", R("SalaryLine")],
  ["POST /SalaryLines", F("SalaryLine"), SalaryLinePost],
  ["GET /SalaryLines/{id}", R("SalaryLine")],
  ["PATCH /SalaryLines/{id}", F("SalaryLine")],
  ["DELETE /SalaryLines/{id}", F("SalaryLine")],
  ["GET /PayItems", R("PayItem")],
  ["GET /PayItems/{id}", R("PayItem")],
  ["GET /PayrollSettings", R("PayrollSettings")],
  ["GET /PayrollSettings/PensionSchemes", R("PayrollSettings")],
  // Client administration and onboarding (partner integrations)
  ["GET /ClientAdmin/Clients", R("ClientAdmin")],
  ["POST /ClientAdmin/CreateNewClient", F("ClientAdmin"), ClientPost],
  ["POST /ClientAdmin/AddIntegrationToClient/{clientId}", F("ClientAdmin")],
  ["GET /ClientAdmin/{clientId}/AccessRoles", R("ClientAdmin")],
  ["GET /ClientAdmin/{clientId}/Users", R("ClientAdmin")],
  ["GET /ClientAdmin/{clientId}/Users/{userId}", R("ClientAdmin")],
  ["PATCH /ClientAdmin/{clientId}/Users/{userId}", F("ClientAdmin")],
  ["POST /ClientAdmin/{clientId}/Users/Invite", F("ClientAdmin"), InviteUserPost],
  ["POST /ClientAdmin/{clientId}/Users/AddPartnerUser", F("ClientAdmin"), AddPartnerUserPost],
  ["GET /ClientAdmin/{userId}/UserAccessRoles", R("ClientAdmin")],
  ["POST /Onboarding/Initiate", [], InitiateOnboardingPost],
  ["POST /Onboarding/Finalize", [], FinalizeOnboardingPost],
  // Quality module
  ["GET /Assignments", R("QualityAssignmentLight")],
  ["GET /Assignments/{id}", R("QualityAssignmentGeneral", "QualityAssignmentLight")],
];

/** The five operations on one kind of record under an employment. */
function employmentChild(segment: string, idName: string, privilege: string, post: z.ZodType): Entry[] {
  const base = `/Employees/Employments/{employmentId}/${segment}` as const;
  return [
    [`GET ${base}`, R(privilege)],
    [`POST ${base}`, F(privilege), post],
    [`GET ${base}/{${idName}}`, R(privilege)],
    [`PATCH ${base}/{${idName}}`, F(privilege)],
    [`DELETE ${base}/{${idName}}`, F(privilege)],
  ];
}

function operationOf([key, privileges, body]: Entry): Operation {
  const space = key.indexOf(" ");
  const method = key.slice(0, space) as Method;
  const path = key.slice(space + 1);
  if (method === "PATCH") return { method, path, key, privileges, body: "json-patch", schema: JsonPatch };
  if (body === "multipart") return { method, path, key, privileges, body, schema: null };
  return { method, path, key, privileges, body: body ? "json" : "none", schema: body ?? null };
}

/** Every operation of the API. */
export const CATALOG: readonly Operation[] = ENTRIES.map(operationOf);

/** Every privilege the catalog names. */
export const CATALOG_PRIVILEGES: ReadonlySet<string> = new Set(CATALOG.flatMap((o) => o.privileges));

interface Compiled {
  op: Operation;
  pattern: RegExp;
  /** Literal segments rank before parameters, so `/SalesOrders/sentState` beats `/SalesOrders/{id}`. */
  rank: string;
}

const COMPILED: Compiled[] = CATALOG.map((op) => {
  const segments = op.path.split("/").slice(1);
  const source = segments.map((s) => (s.startsWith("{") ? "[^/]+" : s.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/");
  return { op, pattern: new RegExp(`^/${source}/?$`), rank: segments.map((s) => (s.startsWith("{") ? "1" : "0")).join("") };
}).sort((a, b) => a.rank.localeCompare(b.rank));

/** What a request path and method resolve to. */
export type Match =
  | { kind: "operation"; op: Operation; params: Record<string, string> }
  | { kind: "method-not-allowed"; allow: Method[] }
  | { kind: "not-found" };

/**
 * Resolves `path` (relative to the v2 root, any casing) and `method` to an operation. The API
 * matches paths case-insensitively; parameters keep the caller's spelling. When several templates
 * match, the one with literals earliest wins (`/Employees/Employments` is not an employee id).
 */
export function matchOperation(method: string, path: string): Match {
  const lower = path.toLowerCase();
  const best = COMPILED.find((c) => c.pattern.test(lower));
  if (!best) return { kind: "not-found" };
  const template = best.op.path.toLowerCase();
  const same = COMPILED.filter((c) => c.op.path.toLowerCase() === template);
  const hit = same.find((c) => c.op.method === method.toUpperCase());
  if (!hit) return { kind: "method-not-allowed", allow: same.map((c) => c.op.method) };
  const values = hit.pattern.exec(lower) ? path.replace(/\/$/, "").split("/") : [];
  const params: Record<string, string> = {};
  hit.op.path.split("/").forEach((segment, i) => {
    if (segment.startsWith("{")) params[segment.slice(1, -1)] = safeDecode(values[i] ?? "");
  });
  return { kind: "operation", op: hit.op, params };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
