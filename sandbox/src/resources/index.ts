/**
 * @module
 * Every handler of the sandbox, keyed by the catalog's operation keys (`METHOD /Path/{param}`).
 */
import type { Handler } from "../engine/call";
import { contactCoreHandlers } from "./contacts-core";
import { ledgerHandlers } from "./ledgers";
import { masterdataHandlers } from "./masterdata";
import { referenceHandlers } from "./reference";
import { salesHandlers } from "./sales";
import { voucherHandlers } from "./vouchers";

export const HANDLERS: Readonly<Record<string, Handler>> = {
  ...referenceHandlers,
  ...contactCoreHandlers,
  ...masterdataHandlers,
  ...salesHandlers,
  ...voucherHandlers,
  ...ledgerHandlers,
};
