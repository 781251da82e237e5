/**
 * @module
 * A prepared write in words, for the person an assistant asks before it confirms: the operation,
 * and each field it sets with its value; a number in a field named as money (`MONEY_FIELD`) is
 * written as an amount in the body's currency. Pure: nothing is read from the API.
 */
import type { Operation } from "../../../shared/v2/catalog";
import { v2Summary } from "../../v2/openapi/summary";
import { CONFIRM_WITHIN_MS } from "../tenant/write-confirmations";

/** Fields that hold money, by name; not percentages, exchange rates or quantities. */
export const MONEY_FIELD =
  /(Amount|Price|Cost|CostOfGoods|Salary|Limit|Revenue|Expenses|BillableRate|CostRate|HourlyRate)$/;

/** Most changes a preview lists; the rest are counted. */
const MAX_CHANGES = 100;

export interface Change {
  field: string;
  value: string;
}

/**
 * `amount` as a person reads it: two decimals, a comma, spaces between thousands, the currency.
 * @example formatMoney(-1250.5, "NOK") // "-1 250,50 kr"
 */
export function formatMoney(amount: number, currency: string): string {
  const [whole = "0", cents = "00"] = Math.abs(amount).toFixed(2).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  const unit = currency.toUpperCase() === "NOK" ? "kr" : currency.toUpperCase();
  return `${amount < 0 ? "-" : ""}${grouped},${cents} ${unit}`;
}

/** A leaf value in words; `removes` when a merge patch's null takes a field away. */
function valueText(key: string, value: unknown, currency: string, merge: boolean): string {
  if (value === null) return merge ? "removed" : "empty";
  if (typeof value === "number" && MONEY_FIELD.test(key)) return formatMoney(value, currency);
  return JSON.stringify(value);
}

/** Every leaf of `value` under `at`, with the currency the nearest object names. */
function leaves(value: unknown, at: string, currency: string, merge: boolean, out: Change[]): void {
  if (Array.isArray(value)) {
    if (value.length === 0) out.push({ field: at, value: "[]" });
    value.forEach((v, i) => leaves(v, `${at}[${i}]`, currency, merge, out));
    return;
  }
  if (typeof value === "object" && value !== null) {
    const o = value as Record<string, unknown>;
    const own = typeof o.CurrencyCode === "string" ? o.CurrencyCode : currency;
    for (const [k, v] of Object.entries(o)) leaves(v, at ? `${at}.${k}` : k, own, merge, out);
    return;
  }
  const key =
    at
      .split(".")
      .at(-1)
      ?.replace(/\[\d+\]$/, "") ?? at;
  out.push({ field: at, value: valueText(key, value, currency, merge) });
}

/** A JSON Patch's operations as changes: `replace /Name` → "Name": value. */
function patchChanges(ops: unknown[]): Change[] {
  return ops.map((raw) => {
    const op = (raw ?? {}) as { op?: unknown; path?: unknown; value?: unknown };
    const field = String(op.path ?? "")
      .replace(/^\//, "")
      .replaceAll("/", ".");
    const key = field.split(".").at(-1) ?? field;
    if (op.op === "remove") return { field, value: "removed" };
    return { field, value: `${String(op.op)} ${valueText(key, op.value ?? null, "NOK", false)}` };
  });
}

/**
 * The preview of writing `body` with `method` to `path`: the sentence, and the changes one by one.
 * @example previewOf(op, "POST", "/Customers", { Name: "Fjord AS" }, "draft").changes.length // 1
 */
export function previewOf(
  op: Operation,
  method: string,
  path: string,
  body: unknown,
  cls: "draft" | "write",
): { preview: string; changes: Change[] } {
  const all: Change[] = [];
  if (Array.isArray(body)) all.push(...patchChanges(body));
  else if (body !== undefined) leaves(body, "", "NOK", method === "PATCH", all);
  const changes = all.slice(0, MAX_CHANGES);
  const more = all.length - changes.length;
  const what =
    method === "DELETE"
      ? "It removes the record; the API cannot undo that."
      : all.length === 0
        ? "It sends no fields."
        : `It ${method === "PATCH" ? "changes" : "sets"} ${all.length} field${all.length === 1 ? "" : "s"}: ${changes.map((c) => `${c.field} = ${c.value}`).join("; ")}${more > 0 ? `; and ${more} more` : ""}.`;
  const kind =
    cls === "draft"
      ? "Class draft: it creates or changes a draft or master data; nothing is sent or posted."
      : "Class write: it may send, post or delete.";
  return {
    preview: `${v2Summary(op)}: ${method} ${path}. ${what} ${kind} Nothing has been sent yet: confirm_write with the confirmation within ${CONFIRM_WITHIN_MS / 60_000} minutes performs it once.`,
    changes,
  };
}
