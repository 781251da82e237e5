/**
 * @module
 * The kinds of a sandbox client's settings records. The ledger reads the lock date from them, the
 * seed writes them and the settings endpoints serve them, so they live beside the ledger, below
 * both.
 */

/** The kinds of settings records, one each per client. */
export const SETTINGS = {
  financial: "FinancialSettings",
  lockDate: "LockDateSettings",
  vat: "VatSettings",
  organization: "OrganizationSettings",
  payroll: "PayrollSettings",
} as const;
