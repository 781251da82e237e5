/**
 * @module
 * Integration privileges and the client subscriptions they depend on. In demo every privilege is
 * valid; in production a privilege is valid only when it was granted and the client holds the
 * subscription it belongs to, as `GET /ClientIntegrationInformation` reports.
 */
import { CATALOG_PRIVILEGES } from "../../../shared/v2/catalog";

/** Client subscriptions ("Go-subscriptions") a client can hold. */
export const SUBSCRIPTIONS = [
  "Accounting",
  "Payroll",
  "TimeTracking",
  "TravelExpense",
  "HolidayAndLeave",
] as const;
export type Subscription = (typeof SUBSCRIPTIONS)[number];

/** Payroll privileges belong to the Payroll subscription; every other privilege to Accounting. */
const PAYROLL = /^(Employee|Employment|PayItem|PayrollSettings|SalaryLine)/;

/** Every privilege the catalog names, with the subscription it needs. */
export const PRIVILEGES: ReadonlyMap<string, Subscription> = new Map(
  [...CATALOG_PRIVILEGES]
    .sort()
    .map((p) => [p, PAYROLL.test(p) ? "Payroll" : "Accounting"] as const),
);

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
