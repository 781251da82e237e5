/**
 * @module
 * The operations newer than the published document, whose v2 shapes are unpublished: the sandbox
 * stores the caller's own JSON for them (`engine/free.ts`) and enforces only what the seed and the
 * reference state. The Worker marks their answers with `X-Sandbox-Shape: unpublished`.
 */
import type { Handler } from "../../engine/call";
import { budgetHandlers } from "./budgets";
import { documentHandlers } from "./documents";
import { importHandlers } from "./imports";
import { ownerHandlers } from "./owners";
import { paymentHandlers } from "./payments";
import { qualityHandlers } from "./quality";

export const newerHandlers: Record<string, Handler> = {
  ...budgetHandlers,
  ...ownerHandlers,
  ...importHandlers,
  ...paymentHandlers,
  ...qualityHandlers,
  ...documentHandlers,
};
