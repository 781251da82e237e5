import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../src/orders/adapters/adapters";
import { creditPlan, invoicePlan, lineVat, plannedTotal } from "../../src/orders/invoice-lines";
import { resolveMapping } from "../../src/ledger/mapping";
import type { Order, Source } from "../../src/orders/order";
import { corpus as shopify } from "../fixtures/orders/shopify";
import { corpus as standard } from "../fixtures/orders/standard";
import { corpus as stripe } from "../fixtures/orders/stripe";
import { corpus as woocommerce } from "../fixtures/orders/woocommerce";
import { sign, toDelivery } from "../fixtures/orders/sign";

const mapping = resolveMapping();
const CORPORA = { shopify, woocommerce, stripe, standard };

async function orders(source: Source): Promise<Order[]> {
  const out: Order[] = [];
  for (const c of CORPORA[source]()) {
    const parsed = ADAPTERS[source].parse(
      toDelivery(await sign(source, c.payload, undefined, { topic: c.topic })),
    );
    if (parsed.ok && parsed.value[0]?.kind === "paid") out.push(parsed.value[0].order);
  }
  return out;
}

const base: Order = {
  source: "standard",
  id: "1",
  number: "1",
  placedAt: "2026-11-20T10:00:00Z",
  paidAt: null,
  currency: "NOK",
  taxIncluded: true,
  buyer: {
    externalId: null,
    email: null,
    firstName: "Kari",
    lastName: "Nordmann",
    company: null,
    organizationNumber: null,
    phone: null,
    address: null,
  },
  lines: [],
  total: 0,
};
const line = (
  ref: string,
  quantity: number,
  amount: number,
  vat: Order["lines"][number]["vat"],
) => ({ ref, kind: "item" as const, sku: ref, name: ref, quantity, amount, discount: 0, vat });

describe("invoice lines", () => {
  it.each(Object.keys(CORPORA) as Source[])(
    "plan every %s corpus order to exactly its total, in whole quantities",
    async (source) => {
      for (const o of await orders(source)) {
        const plan = invoicePlan(o, {}, mapping);
        expect(plannedTotal(plan.lines)).toBe(o.total);
        expect(
          plan.lines.every((l) => Number.isInteger(l.quantity) && Number.isInteger(l.unitPrice)),
        ).toBe(true);
      }
    },
  );

  it("splits an amount that does not divide by its quantity into two lines, and finds the net whose VAT gives the gross back", () => {
    const o = { ...base, lines: [line("A", 3, 10000, "25")], total: 10000 };
    const plan = invoicePlan(o, {}, mapping);
    // 100.00 gross at 25 % is 80.00 net: 3 units cannot carry 80.00 at one price, and the even
    // split (26.66 + 2 × 26.67) rounds its VAT up twice; two at 26.66 and one at 26.68 do not.
    expect(plan.lines.map((l) => [l.quantity, l.unitPrice])).toEqual([
      [2, 2666],
      [1, 2668],
    ]);
    expect(plan.rounding).toBe(0);
    expect(plannedTotal(plan.lines)).toBe(10000);
    expect(lineVat(2667 * 2, "25")).toBe(1334);
    expect(lineVat(2666 * 2, "25")).toBe(1333);
  });

  it("puts what the shop's own tax rounding leaves on one VAT-free rounding line", () => {
    // A tax-exclusive shop that rounded its 25 % tax on 0.02 net to 0.00: the buyer paid 0.02 +
    // 0.01 + 0.00.
    const o = {
      ...base,
      taxIncluded: false,
      lines: [line("A", 1, 2, "25"), line("B", 1, 2, "25")],
      total: 4,
    };
    const plan = invoicePlan(o, {}, mapping);
    expect(plan.rounding).toBe(-2);
    expect(plan.lines.at(-1)).toMatchObject({
      productCode: "AVRUNDING",
      quantity: 1,
      unitPrice: -2,
      vat: "exempt",
    });
    expect(plannedTotal(plan.lines)).toBe(4);
  });

  it("credits a refund of named lines, a full refund, and a bare amount shared over the lines, each to the øre", () => {
    const o = {
      ...base,
      lines: [
        line("A", 2, 24900, "25"),
        line("B", 1, 4990, "15"),
        { ...line("S", 1, 9900, "25"), kind: "shipping" as const, sku: null },
      ],
      total: 39790,
    };
    const named = creditPlan(
      o,
      {
        id: "r1",
        at: base.placedAt,
        lines: [{ ref: "A", name: "A", quantity: 1, amount: 12450, vat: "25" }],
        total: 12450,
      },
      { A: "A" },
      mapping,
    );
    expect(plannedTotal(named.lines)).toBe(-12450);
    expect(named.lines.every((l) => l.quantity < 0 && l.productCode === "A")).toBe(true);
    const full = creditPlan(
      o,
      { id: "r2", at: base.placedAt, lines: [], total: 39790 },
      { A: "A", B: "B", S: "FRAKT-25" },
      mapping,
    );
    expect(plannedTotal(full.lines)).toBe(-39790);
    expect(full.lines.map((l) => l.productCode)).toEqual(["A", "B", "FRAKT-25"]);
    const part = creditPlan(
      o,
      { id: "r3", at: base.placedAt, lines: [], total: 10001 },
      { A: "A", B: "B", S: "FRAKT-25" },
      mapping,
    );
    expect(plannedTotal(part.lines)).toBe(-10001);
    expect(part.lines.filter((l) => l.vat !== "exempt").map((l) => l.productCode)).toEqual([
      "A",
      "B",
      "FRAKT-25",
    ]);
  });
});
