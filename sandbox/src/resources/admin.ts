/**
 * @module
 * Client administration for partner integrations (onboarding is `routes/onboarding-api.ts`), the
 * quality module's assignments, and the read-only client facts (enterprises, client contacts,
 * branding themes, custom dimension settings, sub-ledger number series, incoming invoices). Split
 * by sub-area under `./admin/`.
 */
import type { Handler } from "../engine/call";
import { clientHandlers } from "./admin/clients";
import { recordHandlers } from "./admin/records";
import { referenceHandlers } from "./admin/reference";
import { userHandlers } from "./admin/users";

export { enterprises } from "./admin/reference";

export const adminHandlers: Record<string, Handler> = {
  ...clientHandlers,
  ...userHandlers,
  ...referenceHandlers,
  ...recordHandlers,
};
