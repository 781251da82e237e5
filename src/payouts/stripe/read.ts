/**
 * @module
 * A payout run's reads of Stripe: the payout itself (what Stripe says now, not the event's copy),
 * then its balance transactions a page at a time. What a person must act on (401, 403, 404) is
 * answered as `refused`; what may pass later throws a retryable `RunError`, anything else a final
 * one.
 */
import { formatMinor, stripeMinor } from "../../ledger/money";
import { RunError } from "../../ledger/run-api";
import { MAX_PAYOUT_LINES } from "../../orders/adapters/standard-schema";
import { BalanceTransactionPage, StripePayout } from "./api";
import type { StripeAnswer, StripeClient } from "./client";
import type { PayoutLine } from "../payout";
import { stripeLines } from "./lines";

export const STRIPE_PAGE_SIZE = 100;
/** Pages read for one payout at most: as many lines as a payout event may carry, and its own. */
export const MAX_STRIPE_PAGES = Math.ceil((MAX_PAYOUT_LINES + 1) / STRIPE_PAGE_SIZE);

const NOT_AUTOMATIC = /only be filtered on automatic/i;

export type HeadRead =
  | { kind: "ready" }
  | { kind: "refused"; detail: string }
  | { kind: "waiting" }
  | { kind: "not-itemised"; reason: string };

export type PageRead =
  | {
      kind: "page";
      lines: PayoutLine[];
      /** Transactions on the page, the payout's own included. */
      read: number;
      categories: Record<string, number>;
      /** Null after the last page. */
      next: string | null;
    }
  | { kind: "refused"; detail: string }
  | { kind: "not-itemised"; reason: string };

function refusal(a: StripeAnswer, payoutId: string): string | null {
  if (a.kind !== "refused") return null;
  if (a.status === 401)
    return "Stripe refused the key (401): it is not a valid key. Set the tenant's Stripe key (a restricted key with Read on Payouts, Balance, Charges, Refunds and Disputes) in the admin API or the console; the payout is read again when it is set.";
  if (a.status === 403)
    return `Stripe refused the key (403: ${a.message}). Give the restricted key Read on Payouts, Balance, Charges, Refunds and Disputes, then set it again.`;
  if (a.status === 404)
    return `Stripe knows no payout ${payoutId} under this key: it is another Stripe account's key, or a test key for a live payout (or the other way). Set the key of the account that sent the event.`;
  return null;
}

function failure(a: Exclude<StripeAnswer, { kind: "ok" }>, what: string): RunError {
  return a.kind === "unavailable"
    ? new RunError(`${what}: ${a.detail}; tried again later.`, true)
    : new RunError(
        `${what}: Stripe answered ${a.status} (${a.code ?? "error"}): ${a.message}`,
        false,
      );
}

/** Reads the payout and checks it: paid, its ledger complete, automatic, the event's amount. */
export async function readHead(
  client: StripeClient,
  payoutId: string,
  expected: { amount: number; currency: string },
): Promise<HeadRead> {
  const a = await client.get(`/v1/payouts/${encodeURIComponent(payoutId)}`, []);
  if (a.kind !== "ok") {
    const detail = refusal(a, payoutId);
    if (detail) return { kind: "refused", detail };
    throw failure(a, `Reading payout ${payoutId}`);
  }
  const p = StripePayout.safeParse(a.body);
  if (!p.success) throw new RunError(`Stripe's payout ${payoutId} is not as expected.`, false);
  const head = p.data;
  if (!head.automatic || head.method === "instant")
    return {
      kind: "not-itemised",
      reason: head.automatic ? "an instant payout" : "a manual payout (automatic: false)",
    };
  if (head.status === "failed" || head.status === "canceled")
    throw new RunError(
      `Stripe says payout ${payoutId} is ${head.status}: nothing is booked (payout.failed reverses what was).`,
      false,
    );
  if (head.reconciliation_status !== "completed") return { kind: "waiting" };
  const currency = head.currency.toUpperCase();
  if (currency !== expected.currency || stripeMinor(head.amount, currency) !== expected.amount)
    throw new RunError(
      `Stripe's payout ${payoutId} is ${formatMinor(stripeMinor(head.amount, currency))} ${currency}, its event said ${formatMinor(expected.amount)} ${expected.currency}.`,
      false,
    );
  return { kind: "ready" };
}

/** One page of the payout's transactions after `cursor` (null: the first). */
export async function readPage(
  client: StripeClient,
  payoutId: string,
  currency: string,
  cursor: string | null,
): Promise<PageRead> {
  const query: [string, string][] = [
    ["payout", payoutId],
    ["limit", String(STRIPE_PAGE_SIZE)],
    ["expand[]", "data.source"],
  ];
  if (cursor !== null) query.push(["starting_after", cursor]);
  const a = await client.get("/v1/balance_transactions", query);
  if (a.kind !== "ok") {
    if (a.kind === "refused" && a.status === 400 && NOT_AUTOMATIC.test(a.message))
      return { kind: "not-itemised", reason: a.message };
    const detail = refusal(a, payoutId);
    if (detail) return { kind: "refused", detail };
    throw failure(a, `Listing the transactions of payout ${payoutId}`);
  }
  const page = BalanceTransactionPage.safeParse(a.body);
  if (!page.success)
    throw new RunError(`Stripe's transactions of payout ${payoutId} are not as expected.`, false);
  const lines = stripeLines(payoutId, currency, page.data.data);
  if (!lines.ok) throw new RunError(lines.error, false);
  const last = page.data.data.at(-1);
  return {
    kind: "page",
    lines: lines.value.lines,
    read: page.data.data.length,
    categories: lines.value.categories,
    next: page.data.has_more && last ? last.id : null,
  };
}
