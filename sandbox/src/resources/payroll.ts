/**
 * @module
 * Employees and payroll: employees and what hangs off them (settings, hourly rates, bank accounts),
 * employments and their lines, salary lines, pay items and the client's payroll settings. Each part
 * lives in its own `payroll-*.ts`; this is the one record the sandbox routes by.
 */
import type { Handler } from "../engine/call";
import { employeeSettingsHandlers } from "./payroll-employee-settings";
import { employeeHandlers } from "./payroll-employees";
import { employmentHandlers } from "./payroll-employments";
import { salaryLineHandlers } from "./payroll-lines";
import { payrollSettingsHandlers } from "./payroll-settings";

export const payrollHandlers: Record<string, Handler> = {
  ...employeeHandlers,
  ...employeeSettingsHandlers,
  ...employmentHandlers,
  ...salaryLineHandlers,
  ...payrollSettingsHandlers,
};
