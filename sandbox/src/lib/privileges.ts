/**
 * @module
 * Integration privileges and the client subscriptions they depend on. In demo every privilege is
 * valid; in production a privilege is valid only when it was granted and the client holds the
 * subscription it belongs to, as `GET /ClientIntegrationInformation` reports.
 */

/** Client subscriptions ("Go-subscriptions") a client can hold. */
export const SUBSCRIPTIONS = ["Accounting", "Payroll", "TimeTracking", "TravelExpense", "HolidayAndLeave"] as const;
export type Subscription = (typeof SUBSCRIPTIONS)[number];

const ACCOUNTING = [
  "Customer", "Customer_Full", "Supplier", "Supplier_Full", "Product", "Product_Full",
  "SalesOrders", "SalesOrders_Full", "SalesOrderAttachment_Full", "OutgoingInvoice", "OutgoingInvoice_Full",
  "OutgoingInvoiceVoucher_Full", "IncomingInvoice", "IncomingInvoice_Full", "CommonServices", "CommonServices_Full",
  "ContactGroup", "ContactGroup_Full", "ContactPerson_Full", "ContactBankAccount", "ContactBankAccount_Full",
  "ContactDeliveryAddress", "ContactDeliveryAddress_Full", "CustomDimension", "CustomDimension_Full",
  "Department", "Department_Full", "Location", "Location_Full", "Project", "Project_Full",
  "GeneralLedgerAccount", "GeneralLedgerAccount_Full", "CustomerLedger", "CustomerLedger_Full",
  "SupplierLedger", "SupplierLedger_Full", "TrialBalance", "TrialBalance_Full", "ManualVoucher_Full",
  "YearEndVoucher_Full", "JournalEntryVoucher", "JournalEntryVoucher_Full", "VoucherApproval_Full",
  "VoucherDocumentation", "VoucherDocumentation_Full", "ClientBankAccount", "ClientBankAccount_Full",
  "ClientAdmin", "ClientAdmin_Full", "Enterprises", "Enterprises_Full",
  "QualityAssignmentLight", "QualityAssignmentLight_Full",
] as const;

const PAYROLL = [
  "Employee", "Employee_Full", "EmployeeHourlyRates", "EmployeeHourlyRates_Full", "Employment", "Employment_Full",
  "EmploymentFtePercentage", "EmploymentFtePercentage_Full", "EmploymentFixedSalary", "EmploymentFixedSalary_Full",
  "EmploymentSalary", "EmploymentSalary_Full", "EmploymentLeave", "EmploymentLeave_Full",
  "EmploymentLayoff", "EmploymentLayoff_Full", "EmployeePayrollSettings", "EmployeePayrollSettings_Full",
  "EmployeePensionSettings", "EmployeePensionSettings_Full", "PayItem", "PayItem_Full",
  "PayrollSettings", "PayrollSettings_Full", "SalaryLine", "SalaryLine_Full",
] as const;

/** Every privilege the sandbox knows, with the subscription it needs. */
export const PRIVILEGES: ReadonlyMap<string, Subscription> = new Map([
  ...ACCOUNTING.map((p) => [p, "Accounting"] as const),
  ...PAYROLL.map((p) => [p, "Payroll"] as const),
]);

/** What a client's integration may do, split the way ClientIntegrationInformation reports it. */
export function evaluatePrivileges(
  environment: "demo" | "production",
  granted: readonly string[],
  subscriptions: readonly string[],
): { valid: string[]; invalid: string[] } {
  if (environment === "demo") return { valid: [...PRIVILEGES.keys()], invalid: [] };
  const held = new Set(subscriptions);
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const p of granted) (held.has(PRIVILEGES.get(p) ?? "") ? valid : invalid).push(p);
  return { valid, invalid };
}
