/**
 * The matcher (`src/payouts/match.ts`): every line of a payout matched to a settled order or
 * refund of the book, or an issue naming the line, and the voucher's plan only when nothing is
 * wrong: clearing credits per account, fees, adjustments and disputes, rates only across
 * currencies. A payout that pays out no order, or names orders its source may not claim, is held;
 * the operator's confirmation waives the first rule only, every other check still holds.
 */
import { describe, expect, it } from "vitest";
import { resolveMapping } from "../../src/ledger/mapping";
import { MAX_RATE_LOOKUPS, matchPayout } from "../../src/payouts/match";
import type { MatchLookup, OrderFacts } from "../../src/payouts/plan";
import type { Payout, PayoutLine } from "../../src/payouts/payout";

const mapping = resolveMapping();
const at = (accountNo: number, date = "2026-03-01") => ({ accountNo, date });
const settled = (total: number, currency = "NOK", where = at(1904)) => ({
  currency,
  total,
  settlement: where,
});

/** A book of orders by id, and claims by other payouts. */
function book(
  orders: Record<string, OrderFacts>,
  claims: Record<string, string> = {},
): MatchLookup {
  return {
    order: (id) => orders[id] ?? null,
    claimedBy: (id, refundId) => claims[`${id}:${refundId ?? ""}`] ?? null,
  };
}

const line = (l: Partial<PayoutLine> & Pick<PayoutLine, "type" | "amount">): PayoutLine => ({
  orderId: null,
  refundId: null,
  fee: 0,
  ...l,
});

function payout(lines: PayoutLine[], extra: Partial<Payout> = {}): Payout {
  return {
    id: "po_1",
    provider: "stripe",
    currency: "NOK",
    amount: lines.reduce((n, l) => n + l.amount - l.fee, 0),
    arrivalDate: "2026-03-04",
    orderSource: "standard",
    lines,
    ...extra,
  };
}

const BOOK = book({
  "o-1": { settled: settled(100_000), refunds: { "r-1": settled(20_000) } },
  "o-2": { settled: settled(50_000, "NOK", at(1901)), refunds: {} },
  "o-3": { settled: null, refunds: {} },
  "o-bank": { settled: settled(10_000, "NOK", at(1920)), refunds: {} },
  "e-1": { settled: settled(10_000, "EUR", at(1904, "2026-03-02")), refunds: {} },
});

describe("matchPayout: a payout that matches", () => {
  it("plans one credit per clearing account, fees and the rest as costs, the orders claimed", () => {
    const p = payout([
      line({ type: "charge", orderId: "o-1", amount: 100_000, fee: 2_400 }),
      line({ type: "refund", orderId: "o-1", refundId: "r-1", amount: -20_000 }),
      line({ type: "charge", orderId: "o-2", amount: 50_000, fee: 1_300 }),
      line({ type: "fee", amount: -200 }),
      line({ type: "dispute", orderId: "o-9", amount: -5_000, fee: 1_500 }),
      line({ type: "adjustment", amount: 1_000 }),
    ]);
    const r = matchPayout("standard", p, BOOK, mapping);
    if (r.kind !== "matched") throw new Error(JSON.stringify(r));
    expect(r.claims).toEqual([
      { orderId: "o-1", refundId: null },
      { orderId: "o-1", refundId: "r-1" },
      { orderId: "o-2", refundId: null },
    ]);
    expect(r.plan).toMatchObject({
      reference: "lg:std:po:po_1",
      date: "2026-03-04",
      deposit: p.amount,
      bankAccount: 1920,
      fees: 2_400 + 1_300 + 200 + 1_500,
      disputes: 5_000,
      adjustments: -1_000,
      rates: [],
    });
    expect(r.plan.clearing).toEqual([
      { accountNo: 1904, currency: "NOK", date: null, amount: 80_000, orders: 1, refunds: 1 },
      { accountNo: 1901, currency: "NOK", date: null, amount: 50_000, orders: 1, refunds: 0 },
    ]);
  });

  it("across currencies: each credit in its order's currency and day, and the rates to look up", () => {
    const r = matchPayout(
      "standard",
      payout([line({ type: "charge", orderId: "e-1", amount: 115_000 })]),
      BOOK,
      mapping,
    );
    if (r.kind !== "matched") throw new Error(JSON.stringify(r));
    expect(r.plan.clearing).toEqual([
      {
        accountNo: 1904,
        currency: "EUR",
        date: "2026-03-02",
        amount: 10_000,
        orders: 1,
        refunds: 0,
      },
    ]);
    expect(r.plan.rates).toEqual([{ currency: "EUR", date: "2026-03-02" }]);
  });
});

describe("matchPayout: what does not match is named, and nothing is planned", () => {
  const issuesOf = (lines: PayoutLine[], lookup = BOOK, extra: Partial<Payout> = {}) => {
    const r = matchPayout("standard", payout(lines, extra), lookup, mapping);
    if (r.kind !== "unmatched") throw new Error("matched");
    return r.issues.map((i) => [i.line, i.reason, i.orderId]);
  };

  it("names each line's reason", () => {
    expect(
      issuesOf(
        [
          line({ type: "charge", amount: 100 }),
          line({ type: "charge", orderId: "o-9", amount: 100 }),
          line({ type: "refund", orderId: "o-1", refundId: "r-9", amount: -100 }),
          line({ type: "charge", orderId: "o-3", amount: 100 }),
          line({ type: "charge", orderId: "o-bank", amount: 10_000 }),
          line({ type: "charge", orderId: "o-1", amount: 99_999 }),
          line({ type: "charge", orderId: "o-1", amount: 100_000 }),
        ],
        BOOK,
      ),
    ).toEqual([
      [0, "no-order", null],
      [1, "unknown-order", "o-9"],
      [2, "unknown-refund", "o-1"],
      [3, "not-settled", "o-3"],
      [4, "settled-to-bank", "o-bank"],
      [5, "amount-differs", "o-1"],
      [6, "duplicate-line", "o-1"],
    ]);
  });

  it("an order another payout holds, and a deposit the lines do not explain", () => {
    const claimed = book({ "o-1": { settled: settled(100_000), refunds: {} } }, { "o-1:": "po_0" });
    const r = matchPayout(
      "standard",
      payout([line({ type: "charge", orderId: "o-1", amount: 100_000 })], { amount: 99_000 }),
      claimed,
      mapping,
    );
    expect(r.kind === "unmatched" && r.issues.map((i) => [i.reason, i.detail])).toEqual([
      ["in-other-payout", "line 0: order o-1 is in payout po_0 already"],
      [
        "deposit-differs",
        "the lines add up to 1000.00 NOK (amount − fee), the deposit is 990.00: -10.00 is not explained",
      ],
    ]);
  });

  it("its own claim is no obstacle (the attempt's step asked again)", () => {
    const own = book({ "o-1": { settled: settled(100_000), refunds: {} } }, { "o-1:": "po_1" });
    const r = matchPayout(
      "standard",
      payout([line({ type: "charge", orderId: "o-1", amount: 100_000 })]),
      own,
      mapping,
    );
    expect(r.kind).toBe("matched");
  });

  it(`more than ${MAX_RATE_LOOKUPS} days of rates is shown, not looked up`, () => {
    const orders: Record<string, OrderFacts> = {};
    const lines: PayoutLine[] = [];
    for (let d = 1; d <= MAX_RATE_LOOKUPS + 1; d++) {
      const day = `2026-01-${String(d).padStart(2, "0")}`;
      orders[`e-${d}`] = { settled: settled(100, "EUR", at(1904, day)), refunds: {} };
      lines.push(line({ type: "charge", orderId: `e-${d}`, amount: 1_165 }));
    }
    const r = matchPayout("standard", payout(lines), book(orders), mapping);
    expect(r.kind === "unmatched" && r.issues.map((i) => i.reason)).toEqual(["too-many-rates"]);
  });

  it("keeps the first 200 issues and counts them all", () => {
    const lines = Array.from({ length: 250 }, (_, i) =>
      line({ type: "charge", orderId: `x-${i}`, amount: 100 }),
    );
    const r = matchPayout("standard", payout(lines), BOOK, mapping);
    expect(r.kind === "unmatched" && [r.issues.length, r.issueCount]).toEqual([200, 250]);
  });
});

describe("matchPayout: a payout its source's rules forbid is held, whatever its lines", () => {
  const held = (p: Payout, source: "standard" | "stripe" = "standard") => {
    const r = matchPayout(source, p, BOOK, mapping);
    if (r.kind !== "unmatched") throw new Error(`matched: ${JSON.stringify(r.plan)}`);
    return r.issues.map((i) => [i.line, i.reason]);
  };

  it("one adjustment of 1,000,000.00 and nothing else: held, naming the payout", () => {
    expect(held(payout([line({ type: "adjustment", amount: 100_000_000 })]))).toEqual([
      [null, "needs-orders"],
    ]);
  });

  it("fees, disputes and adjustments alone, even naming an order: held", () => {
    expect(
      held(
        payout([
          line({ type: "fee", amount: -5_000_000 }),
          line({ type: "dispute", orderId: "o-1", amount: 5_000 }),
          line({ type: "adjustment", orderId: "o-1", amount: 1_000 }),
        ]),
      ),
    ).toEqual([[null, "needs-orders"]]);
  });

  it("one matched charge and an adjustment: booked as before", () => {
    const r = matchPayout(
      "standard",
      payout([
        line({ type: "charge", orderId: "o-1", amount: 100_000, fee: 2_400 }),
        line({ type: "adjustment", amount: 1_000 }),
      ]),
      BOOK,
      mapping,
    );
    if (r.kind !== "matched") throw new Error(JSON.stringify(r));
    expect(r.claims).toEqual([{ orderId: "o-1", refundId: null }]);
    expect(r.plan).toMatchObject({ fees: 2_400, adjustments: -1_000 });
  });

  it("a Standard payout of Stripe's orders, and a Stripe payout of other orders: held", () => {
    const charge = [line({ type: "charge", orderId: "o-1", amount: 100_000 })];
    expect(held(payout(charge, { orderSource: "stripe" }))).toEqual([[null, "other-source"]]);
    expect(held(payout(charge, { orderSource: "standard" }), "stripe")).toEqual([
      [null, "other-source"],
    ]);
  });

  it("a Standard payout of Shopify or WooCommerce orders is matched against them", () => {
    const charge = [line({ type: "charge", orderId: "o-1", amount: 100_000 })];
    for (const orderSource of ["shopify", "woocommerce"] as const)
      expect(matchPayout("standard", payout(charge, { orderSource }), BOOK, mapping).kind).toBe(
        "matched",
      );
  });
});

describe("matchPayout: a payout the operator confirmed pays out no order", () => {
  const adjustment = (extra: Partial<Payout> = {}) =>
    payout([line({ type: "adjustment", amount: 100_000_000 })], extra);

  it("is matched with no clearing credit: the deposit to the bank, the adjustment on its account", () => {
    const r = matchPayout("standard", adjustment(), BOOK, mapping, true);
    if (r.kind !== "matched") throw new Error(JSON.stringify(r));
    expect(r.claims).toEqual([]);
    expect(r.plan).toMatchObject({
      deposit: 100_000_000,
      clearing: [],
      fees: 0,
      adjustments: -100_000_000,
      disputes: 0,
      rates: [],
    });
  });

  it("still has every other check: a deposit its lines do not add up to, and another source's orders", () => {
    const differs = matchPayout("standard", adjustment({ amount: 1 }), BOOK, mapping, true);
    expect(differs.kind === "unmatched" && differs.issues.map((i) => i.reason)).toEqual([
      "deposit-differs",
    ]);
    const other = matchPayout(
      "standard",
      adjustment({ orderSource: "stripe" }),
      BOOK,
      mapping,
      true,
    );
    expect(other.kind === "unmatched" && other.issues.map((i) => i.reason)).toEqual([
      "other-source",
    ]);
  });

  it("a line naming an order is still checked against it", () => {
    const r = matchPayout(
      "standard",
      payout([
        line({ type: "charge", orderId: "o-404", amount: 100 }),
        line({ type: "adjustment", amount: 100 }),
      ]),
      BOOK,
      mapping,
      true,
    );
    expect(r.kind === "unmatched" && r.issues.map((i) => i.reason)).toEqual(["unknown-order"]);
  });
});

describe("matchPayout: lines read from a provider's ledger (Vipps's)", () => {
  const twoRefunds = book(
    {
      "o-1": {
        settled: settled(100_000),
        refunds: { "r-1": settled(20_000), "r-2": settled(20_000), "r-3": settled(5_000) },
      },
    },
    { "o-1:r-1": "po_0" },
  );

  it("a refund that names only its order takes that order's refund of the same amount no payout holds, each once", () => {
    const r = matchPayout(
      "vipps",
      payout(
        [
          line({ type: "charge", orderId: "o-1", amount: 100_000 }),
          line({ type: "refund", orderId: "o-1", amount: -20_000 }),
          line({ type: "refund", orderId: "o-1", amount: -5_000 }),
        ],
        { provider: "vipps" },
      ),
      twoRefunds,
      mapping,
    );
    expect(r.kind === "matched" && r.claims).toEqual([
      { orderId: "o-1", refundId: null },
      { orderId: "o-1", refundId: "r-2" },
      { orderId: "o-1", refundId: "r-3" },
    ]);
    // A second refund of that amount finds none left: it names no refund.
    const again = matchPayout(
      "vipps",
      payout(
        [
          line({ type: "refund", orderId: "o-1", amount: -20_000 }),
          line({ type: "refund", orderId: "o-1", amount: -20_000 }),
        ],
        { provider: "vipps" },
      ),
      twoRefunds,
      mapping,
    );
    expect(again.kind === "unmatched" && again.issues.map((i) => [i.line, i.reason])).toEqual([
      [1, "no-order"],
    ]);
  });

  it("an entry of a type not known holds the payout, naming it; a Vipps payout needs no sale", () => {
    const r = matchPayout(
      "vipps",
      payout([line({ type: "unknown", amount: 300, entryType: "interest-credited" })], {
        provider: "vipps",
      }),
      BOOK,
      mapping,
    );
    expect(r.kind === "unmatched" && r.issues.map((i) => i.reason)).toEqual(["unknown-entry"]);
    expect(r.kind === "unmatched" && r.issues[0]?.detail).toContain('"interest-credited"');
    const adjustment = matchPayout(
      "vipps",
      payout([line({ type: "adjustment", amount: 300 })], { provider: "vipps" }),
      BOOK,
      mapping,
    );
    expect(adjustment.kind).toBe("matched");
  });
});
