/**
 * @module
 * Journal-entry vouchers (drafts of manual and bank journals, supplier invoices and credit notes),
 * their pages, the approval workflow that posts them, and the documentation of posted vouchers.
 */
import type { Handler } from "../engine/call";
import { approvalHandlers } from "./journal-approval";
import { documentationHandlers } from "./journal-docs";
import { draftHandlers } from "./journal-edit";
import { pageHandlers } from "./journal-pages";

export const journalHandlers: Record<string, Handler> = {
  ...draftHandlers,
  ...pageHandlers,
  ...approvalHandlers,
  ...documentationHandlers,
};
