import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../../src/orders/adapters/adapters";
import { Order, type Source, type VatClass } from "../../../src/orders/order";
import { isValidOrgNumber } from "../../../src/orders/orgnr";
import { BP, CURRENCIES, type CorpusCase } from "../../fixtures/orders/catalog";
import { corpus as shopifyCorpus } from "../../fixtures/orders/shopify";
import { sign, TEST_SECRETS, toDelivery } from "../../fixtures/orders/sign";
import { corpus as standardCorpus } from "../../fixtures/orders/standard";
import { corpus as stripeCorpus } from "../../fixtures/orders/stripe";
import { corpus as wooCorpus } from "../../fixtures/orders/woocommerce";

const CORPORA: Record<Source, CorpusCase[]> = {
  shopify: shopifyCorpus(),
  woocommerce: wooCorpus(),
  stripe: stripeCorpus(),
  standard: standardCorpus(),
};

describe.each(Object.entries(CORPORA) as [Source, CorpusCase[]][])("%s corpus", (source, cases) => {
  const adapter = ADAPTERS[source];

  it("is large and varied enough to mean something", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(cases.map((c) => c.currency))).toEqual(new Set(CURRENCIES));
    expect(cases.some((c) => c.orgNumber !== null)).toBe(true);
    expect(cases.some((c) => c.orgNumber === null)).toBe(true);
    const classes = new Set(cases.flatMap((c) => Object.keys(c.byVat)));
    for (const v of ["25", "15", "12", "zero"]) expect(classes).toContain(v);
    expect(cases.some((c) => ["25", "15", "12", "zero"].every((v) => v in c.byVat))).toBe(true);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  it("covers both tax modes, discounts, quantities above one, shipping and fees", async () => {
    const orders = [];
    for (const c of cases) {
      const parsed = adapter.parse(
        toDelivery(await sign(source, c.payload, undefined, { topic: c.topic })),
      );
      if (parsed.ok && parsed.value[0]?.kind === "paid") orders.push(parsed.value[0].order);
    }
    const lines = orders.flatMap((o) => o.lines);
    expect(new Set(orders.map((o) => o.taxIncluded)).size).toBe(source === "woocommerce" ? 1 : 2);
    expect(lines.some((l) => l.kind === "item" && l.discount > 0)).toBe(true);
    expect(lines.some((l) => l.quantity > 1)).toBe(true);
    expect(lines.some((l) => l.kind === "shipping")).toBe(true);
    expect(lines.some((l) => l.sku === null && l.kind === "item") || source === "woocommerce").toBe(
      true,
    );
    if (source === "woocommerce" || source === "standard")
      expect(lines.some((l) => l.kind === "fee")).toBe(true);
    expect(orders.some((o) => o.buyer.company !== null)).toBe(true);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const delivery = toDelivery(await sign(source, c.payload, undefined, { topic: c.topic }));
    const verified = await adapter.verify(delivery, TEST_SECRETS[source], Date.now());
    expect(verified.ok).toBe(true);
    const parsed = adapter.parse(delivery);
    if (!parsed.ok) throw new Error(parsed.error.detail);
    expect(parsed.value).toHaveLength(1);
    const event = parsed.value[0];
    if (event?.kind !== "paid") throw new Error(`expected paid, got ${JSON.stringify(event)}`);
    const order = event.order;
    expect(Order.safeParse(order).success).toBe(true);
    expect(order.source).toBe(source);
    expect(order.total).toBe(c.expectedTotal);
    expect(order.currency).toBe(c.currency);
    const sum = order.lines.reduce((s, l) => s + l.amount, 0);
    if (order.taxIncluded) {
      expect(sum).toBe(order.total);
    } else {
      expect(sum).toBeLessThanOrEqual(order.total);
      // The VAT on top is each line's VAT rounded to the øre: within one øre per line of the exact
      // figure.
      const vat = order.lines.reduce((s, l) => s + (l.amount * BP[l.vat]) / 10_000, 0);
      expect(Math.abs(order.total - sum - vat)).toBeLessThanOrEqual(order.lines.length);
    }
    const byVat: Partial<Record<VatClass, number>> = {};
    for (const l of order.lines) byVat[l.vat] = (byVat[l.vat] ?? 0) + l.amount;
    expect(byVat).toEqual(c.byVat);
    expect(order.buyer.organizationNumber).toBe(c.orgNumber);
    if (order.buyer.company !== null)
      expect(isValidOrgNumber(order.buyer.organizationNumber ?? "")).toBe(true);
    for (const l of order.lines) {
      expect(l.discount).toBeGreaterThanOrEqual(0);
      expect(l.quantity).toBeGreaterThan(0);
    }
  });
});
