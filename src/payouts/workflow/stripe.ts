/**
 * @module
 * The Stripe steps of a payout attempt: the payout, then a page of transactions per step, so a
 * failure retries its page only and no stored result holds more than a page. The key is opened
 * inside each step and never leaves it.
 */
import type { WorkflowStep, WorkflowStepConfig } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import { readConfig, type Bindings } from "../../kernel/config";
import { RunError } from "../../ledger/run-api";
import { MAX_PAYOUT_LINES } from "../../orders/adapters/standard-schema";
import type { PayoutLine } from "../payout";
import type { LedgerRead, PayoutRunPort } from "../port";
import type { PayoutParams } from "../records";
import { MAX_STRIPE_PAGES, readHead, readPage, type HeadRead, type PageRead } from "../stripe/read";
import { stripeClient, type StripeClient } from "../stripe/client";

/** Steps that call Stripe: as the API steps. */
const STRIPE_STEP: WorkflowStepConfig = {
  retries: { limit: 6, delay: "2 seconds", backoff: "exponential" },
  timeout: "2 minutes",
};

export const NO_STRIPE_KEY =
  "No Stripe key is set for this tenant, so Stripe cannot be asked for the payout's lines. Set one (a restricted key with Read on Payouts, Balance, Charges, Refunds and Disputes) in the admin API or the console; the payout is read then.";

export type LedgerOutcome =
  | { kind: "read"; read: LedgerRead }
  /** No key, or Stripe refused it: the step it happened in, and what to do. */
  | { kind: "needs-key"; step: string; detail: string }
  /** Stripe has not finished the payout's ledger. */
  | { kind: "waiting" };

type StepResult = Record<string, string | number | boolean | null>;

export interface LedgerContext {
  step: WorkflowStep;
  port: PayoutRunPort;
  env: Bindings;
  p: PayoutParams;
  runId: string;
  report(name: string, ok: boolean, result: StepResult): Promise<void>;
}

/** Reads the payout's lines from Stripe; `expected`: the event's copy of its amount. */
export async function readLedger(
  c: LedgerContext,
  expected: { amount: number; currency: string },
): Promise<LedgerOutcome> {
  const head = await stripeStep(c, "read Stripe payout", async (client) => {
    const h = await readHead(client, c.p.payoutId, expected);
    return { value: h, result: { found: h.kind } };
  });
  if (head.kind === "refused")
    return { kind: "needs-key", step: "read Stripe payout", detail: head.detail };
  if (head.kind === "waiting") return { kind: "waiting" };
  if (head.kind === "not-itemised") return { kind: "read", read: head };
  const lines: PayoutLine[] = [];
  let read = 0;
  let cursor: string | null = null;
  for (let n = 1; ; n++) {
    if (n > MAX_STRIPE_PAGES)
      throw new NonRetryableError(
        `Payout ${c.p.payoutId} has more than ${MAX_PAYOUT_LINES} lines in Stripe, the most one payout is read with; it is not booked.`,
      );
    const after = cursor;
    const name = `read Stripe lines ${n}`;
    const page: PageRead = await stripeStep(c, name, async (client) => {
      const pg = await readPage(client, c.p.payoutId, expected.currency, after);
      const result: StepResult =
        pg.kind === "page"
          ? {
              transactions: pg.read,
              lines: pg.lines.length,
              categories: Object.entries(pg.categories)
                .map(([k, v]) => `${k} ${v}`)
                .join(", "),
              more: pg.next !== null,
            }
          : { found: pg.kind };
      return { value: pg, result };
    });
    if (page.kind === "refused") return { kind: "needs-key", step: name, detail: page.detail };
    if (page.kind === "not-itemised") return { kind: "read", read: page };
    lines.push(...page.lines);
    read += page.read;
    if (page.next === null) break;
    cursor = page.next;
  }
  return { kind: "read", read: { kind: "lines", lines, read } };
}

/** One step reading Stripe with the tenant's key; no key is answered as a refusal. */
async function stripeStep<T extends HeadRead | PageRead>(
  c: LedgerContext,
  name: string,
  fn: (client: StripeClient) => Promise<{ value: T; result: StepResult }>,
): Promise<T> {
  // JSON text: a page's full type is too deep for the step's typing.
  const text = await c.step.do(name, STRIPE_STEP, async () => {
    try {
      if (readConfig(c.env).stripeApiBaseUrl === null)
        throw new RunError(
          "STRIPE_API_BASE_URL is not an https:// URL: no payout can be read from Stripe until it is.",
          false,
        );
      const key = await c.port.stripeKey();
      if (key === null) {
        await c.report(name, false, { stripeCalls: 0, found: "no key" });
        return JSON.stringify({ kind: "refused", detail: NO_STRIPE_KEY });
      }
      const client = stripeClient({ env: c.env, tenant: c.p.tenant, key, runId: c.runId });
      const { value, result } = await fn(client);
      await c.report(name, value.kind !== "refused", { ...result, stripeCalls: client.calls });
      return JSON.stringify(value);
    } catch (e) {
      if (e instanceof RunError && !e.retryable) throw new NonRetryableError(e.message);
      throw e;
    }
  });
  return JSON.parse(text) as T;
}
