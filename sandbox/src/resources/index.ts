/**
 * @module
 * Every handler of the sandbox, keyed by the catalog's operation keys (`METHOD /Path/{param}`).
 */
import type { Handler } from "../engine/call";
import { adminHandlers } from "./admin";
import { contactDetailHandlers } from "./contact-details";
import { contactCoreHandlers } from "./contacts-core";
import { journalHandlers } from "./journal";
import { ledgerHandlers } from "./ledgers";
import { masterdataHandlers } from "./masterdata";
import { newerHandlers } from "./newer";
import { payrollHandlers } from "./payroll";
import { referenceHandlers } from "./reference";
import { salesHandlers } from "./sales";
import { voucherHandlers } from "./vouchers";

export const HANDLERS: Readonly<Record<string, Handler>> = {
  ...referenceHandlers,
  ...adminHandlers,
  ...contactCoreHandlers,
  ...contactDetailHandlers,
  ...masterdataHandlers,
  ...salesHandlers,
  ...voucherHandlers,
  ...ledgerHandlers,
  ...journalHandlers,
  ...payrollHandlers,
  ...newerHandlers,
};
