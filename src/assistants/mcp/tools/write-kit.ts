/**
 * @module
 * What `prepare_write` and `confirm_write` share: the shape of a confirmation handle, and the
 * catalog operation of a write (or the refusal an assistant can act on).
 */
import { z } from "zod";
import { matchOperation, type Operation } from "../../../../shared/v2/catalog";
import { ToolRefusal } from "../results";

/** A confirmation handle: `cw_` and 24 characters (144 random bits). */
export const Handle = z
  .string()
  .regex(/^cw_[A-Za-z0-9_-]{24}$/, "a confirmation handle from prepare_write (cw_…)");

/** The operation `method path` of the catalog, or the refusal an assistant can act on. */
export function writeOperation(method: string, path: string): Operation {
  const m = matchOperation(method, path);
  if (m.kind === "operation") return m.op;
  throw new ToolRefusal(
    m.kind === "method-not-allowed"
      ? `${path} takes ${m.allow.join(", ")}, not ${method}; nothing was sent.`
      : `${method} ${path} is not an operation of the API's catalog; nothing was sent. Use search_operations to find one.`,
  );
}
