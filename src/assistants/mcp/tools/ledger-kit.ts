/**
 * @module
 * What the composite tools share: one page of a list, the API's loosely typed fields read safely,
 * money summed exactly and written in words, an outgoing invoice as they answer it.
 */
import { z } from "zod";
import type { ToolContext, ToolStep } from "../audit";
import { listPage } from "../paging";
import { formatMoney } from "../preview";
import { apiRefusal } from "../results";

/** Rows a composite reads of a list, at most: one page; the answer says when there are more. */
export const COMPOSITE_ROWS = 100;
export const DAY_MS = 86_400_000;

/** The rows of one page of a list (none for a 204), and its total when the API says. */
export async function rows(
  tc: ToolContext,
  step: ToolStep,
  path: string,
  query: Record<string, string>,
) {
  const q = new URLSearchParams({ ...query, PageSize: String(COMPOSITE_ROWS), PageNumber: "1" });
  const res = await tc.port.send(
    { method: "GET", path, search: `?${q.toString()}`, json: null },
    step.run,
  );
  const refused = await apiRefusal(res, `GET ${path}`);
  if (refused) throw refused;
  const total = listPage(res.headers.get("x-pagination")).totalCount;
  const body: unknown = res.status === 204 ? [] : await res.json();
  const list = Array.isArray(body) ? (body as Record<string, unknown>[]) : [];
  return { list, total: total ?? list.length };
}

export const num = (v: unknown): number | null => (typeof v === "number" ? v : null);
export const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
/** The date part (`YYYY-MM-DD`) of a date or date-time field, or null. */
export const day = (v: unknown): string | null => str(v)?.slice(0, 10) ?? null;
/** Today's date (UTC), read from `Date` at each call so a test's clock reaches it. */
export const today = () => new Date(Date.now()).toISOString().slice(0, 10);
/** Whole days from `due` to today, 0 when not yet due or unknown. */
export const overdue = (due: string | null) =>
  due ? Math.max(0, Math.floor((Date.parse(today()) - Date.parse(due)) / DAY_MS)) : 0;
/** A record's currency: its `CurrencyCode`, or NOK (the API's default) when it names none. */
export const currencyOf = (r: Record<string, unknown>) => str(r.CurrencyCode) ?? "NOK";
/** Amounts summed in øre (or cents), so a sum of decimals stays exact. */
export const sum = (amounts: number[]) =>
  amounts.reduce((n, a) => n + Math.round(a * 100), 0) / 100;

export const Money = z.strictObject({ currency: z.string(), amount: z.number(), text: z.string() });
export const money = (amount: number, currency: string) => ({
  currency,
  amount,
  text: formatMoney(amount, currency),
});

/** An outgoing invoice as the composites answer it: amounts in words, days overdue counted. */
export const Invoice = z.strictObject({
  id: z.string().nullable(),
  invoiceNo: z.int().nullable(),
  invoiceDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  sentAt: z.string().nullable(),
  total: Money.nullable(),
  balance: Money,
  daysOverdue: z.int(),
});
export function invoice(r: Record<string, unknown>): z.output<typeof Invoice> {
  const currency = currencyOf(r);
  const total = num(r.TotalAmount);
  const balance = num(r.Balance) ?? 0;
  const due = day(r.DueDate);
  return {
    id: str(r.Id) ?? (typeof r.Id === "number" ? String(r.Id) : null),
    invoiceNo: num(r.InvoiceNo),
    invoiceDate: day(r.VoucherDate),
    dueDate: due,
    sentAt: str(r.SentDateTimeOffset),
    total: total === null ? null : money(total, currency),
    balance: money(balance, currency),
    daysOverdue: balance === 0 ? 0 : overdue(due),
  };
}
