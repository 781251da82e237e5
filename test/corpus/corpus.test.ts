/**
 * The order corpus end to end: 36 realistic orders per shop source (mixed VAT, discounts,
 * shipping, fees, five currencies, persons and companies, tax-inclusive and not) go through the
 * gateway as signed webhooks, and every one becomes a sent, settled invoice whose total is exactly
 * what the buyer paid. This project lifts the rate limit on both sides (see vitest.config.ts):
 * it proves amounts; `npm run bench` measures throughput at the real 10 req/s.
 */
import { describe, expect, it } from "vitest";
import type { Source } from "../../src/orders/order";
import { reference } from "../../src/ledger/refs";
import type { CorpusCase } from "../fixtures/orders/catalog";
import { corpus as shopify } from "../fixtures/orders/shopify";
import { corpus as standard } from "../fixtures/orders/standard";
import { corpus as stripe } from "../fixtures/orders/stripe";
import { corpus as woocommerce } from "../fixtures/orders/woocommerce";
import { control } from "../helpers/gateway";
import { shopTenant, type Run } from "../helpers/orders";

const CORPORA: Record<Source, () => CorpusCase[]> = { shopify, woocommerce, stripe, standard };

/** The order id each source's payload carries. */
function orderIdOf(source: Source, c: CorpusCase): string {
  const p = c.payload as Record<
    string,
    Record<string, unknown> & { object?: Record<string, unknown> }
  >;
  if (source === "stripe") return String(p.data?.object?.id);
  if (source === "standard") return String(p.data?.id);
  return String((c.payload as { id: unknown }).id);
}

describe.each(Object.keys(CORPORA) as Source[])("%s corpus", (source) => {
  it("every order becomes one sent, settled invoice for exactly what the buyer paid", async () => {
    await control("PUT", "/settings", { rateLimitPerSecond: 200 });
    const cases = CORPORA[source]();
    expect(cases.length).toBeGreaterThanOrEqual(30);
    const t = await shopTenant();
    for (const c of cases) {
      const res = await t.send(source, c.payload, { topic: c.topic });
      expect(res.status, `${c.name}: ${await res.clone().text()}`).toBe(202);
    }
    const pending = new Map(cases.map((c) => [orderIdOf(source, c), c]));
    const runs = new Map<string, Run>();
    for (let i = 0; i < 600 && pending.size > 0; i++) {
      for (const id of [...pending.keys()]) {
        const run = (await (await t.orders(`/${source}/${encodeURIComponent(id)}`)).json()) as Run;
        if (run.state === "settled" || run.state === "failed") {
          runs.set(id, run);
          pending.delete(id);
        }
      }
      if (pending.size > 0) await new Promise((r) => setTimeout(r, 250));
    }
    expect([...pending.keys()], "orders still running").toEqual([]);
    const failed = [...runs.values()]
      .filter((r) => r.state !== "settled")
      .map((r) => `${r.state}: ${JSON.stringify(r.error)}`);
    expect(failed).toEqual([]);
    const invoices = new Map(
      (await t.rows("/OutgoingInvoices")).map((i) => [String(i.ExternalImportReference), i]),
    );
    expect(invoices.size).toBe(cases.length);
    const mismatches = cases.flatMap((c) => {
      const inv = invoices.get(reference(source, "o", orderIdOf(source, c)));
      const got = { total: inv?.TotalAmount, currency: inv?.CurrencyCode, balance: inv?.Balance };
      const want = { total: c.expectedTotal / 100, currency: c.currency, balance: 0 };
      return JSON.stringify(got) === JSON.stringify(want)
        ? []
        : [`${c.name}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`];
    });
    expect(mismatches).toEqual([]);
    const rounded = [...runs.values()].filter((r) =>
      r.steps.some((s) => s.name === "sales order" && s.result.roundingAdded !== "0.00"),
    );
    // Our model of the API's rounding matched the API's own for every order (no correcting call).
    expect(rounded.map((r) => r.total)).toEqual([]);
    await control("PUT", "/settings", { rateLimitPerSecond: 10 });
  });
});
