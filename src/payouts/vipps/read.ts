/**
 * @module
 * The reads of Vipps MobilePay's Report API: the merchant's ledgers, and one date of a ledger
 * (its funds rows, then its fees rows, page by page). A date not yet closed answers `open`; any
 * failure answers what stopped it, and nothing of that date is taken.
 */
import type { z } from "zod";
import { LedgersAnswer, ReportPage, type Row } from "./api";
import type { VippsAnswer, VippsClient } from "./client";

/** Rows one report of one date is read with at most: the most lines of one payout, and some. */
export const PAGE_SIZE = 1_000;
export const MAX_PAGES = 6;

export type Failure = { kind: "refused"; detail: string } | { kind: "unavailable"; detail: string };

export type DateRows = { kind: "closed"; funds: Row[]; fees: Row[] } | { kind: "open" } | Failure;

const failure = (a: Exclude<VippsAnswer, { kind: "ok" }>, what: string): Failure => ({
  kind: a.kind,
  detail: `${what}: ${a.detail}`,
});

/** The merchant's ledgers, one page (a sales unit has one ledger per currency). */
export async function readLedgers(
  client: VippsClient,
  merchantSerialNumber: string,
): Promise<z.output<typeof LedgersAnswer>["items"] | Failure> {
  const a = await client.get("/settlement/v1/ledgers", {
    settlesForRecipientHandles: `api:${merchantSerialNumber}`,
  });
  if (a.kind !== "ok") return failure(a, "listing the ledgers");
  const parsed = LedgersAnswer.safeParse(a.body);
  return parsed.success
    ? parsed.data.items
    : {
        kind: "unavailable",
        detail: "listing the ledgers: Vipps's answer is not a list of ledgers",
      };
}

/** One date of one ledger: open, or closed with every row of both reports. */
export async function readDateRows(
  client: VippsClient,
  ledgerId: string,
  date: string,
): Promise<DateRows> {
  const funds = await readReport(client, ledgerId, "funds", date);
  if (funds.kind !== "rows") return funds;
  const fees = await readReport(client, ledgerId, "fees", date);
  if (fees.kind !== "rows") return fees.kind === "open" ? { kind: "open" } : fees;
  return { kind: "closed", funds: funds.rows, fees: fees.rows };
}

async function readReport(
  client: VippsClient,
  ledgerId: string,
  report: "funds" | "fees",
  date: string,
): Promise<{ kind: "rows"; rows: Row[] } | { kind: "open" } | Failure> {
  const what = `reading ledger ${ledgerId}'s ${report} of ${date}`;
  const path = `/report/v2/ledgers/${encodeURIComponent(ledgerId)}/${report}/dates/${date}`;
  const all: Row[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < MAX_PAGES; n++) {
    const query: Record<string, string> = { pageSize: String(PAGE_SIZE) };
    if (cursor) query.cursor = cursor;
    const a = await client.get(path, query);
    if (a.kind !== "ok") return failure(a, what);
    const page = ReportPage.safeParse(a.body);
    if (!page.success)
      return { kind: "unavailable", detail: `${what}: the page is not Vipps's rows` };
    if (page.data.tryLater) return { kind: "open" };
    all.push(...page.data.items);
    cursor = page.data.cursor ?? null;
    if (!page.data.hasMore || !cursor) return { kind: "rows", rows: all };
  }
  return {
    kind: "refused",
    detail: `${what}: more than ${MAX_PAGES * PAGE_SIZE} rows, more than one payout is booked with`,
  };
}
