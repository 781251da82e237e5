/**
 * @module
 * Turns an order (or a refund) into sales order lines whose invoice total, as the API computes it
 * (net per line, VAT rounded per line), is what the buyer paid, to the øre: nets chosen to give the
 * gross back, two lines for an amount that does not divide by its quantity, and one bounded
 * VAT-free rounding line for the rest. See docs/design/order-runs.md.
 */
import type { OrderMapping } from "../ledger/mapping";
import { vatPercent } from "../ledger/mapping";
import { formatMinor, minorPerUnit, mulDiv, toDecimal } from "../ledger/money";
import type { Order, OrderLine, Refund, VatClass } from "./order";

/** One sales order line as planned: unit price in minor units, quantity negative on a credit. */
export interface PlannedLine {
  productCode: string;
  description: string;
  quantity: number;
  unitPrice: number;
  vat: VatClass;
}

/** The lines of an invoice or credit note, and the total the API should compute for them. */
export interface LinePlan {
  lines: PlannedLine[];
  total: number;
  /** What the rounding line carries (0: none). */
  rounding: number;
}

/**
 * The most a rounding line may carry, in the currency's smallest units: the orders of `test/corpus`
 * need at most 2; a larger gap is money the lines do not explain, not to be booked VAT-free.
 */
export const MAX_ROUNDING_UNITS = 5;

/**
 * Why `plan` cannot be booked (its rounding line is over `MAX_ROUNDING_UNITS`), or null. The run
 * checks this before its first call.
 *
 * @example roundingProblem(invoicePlan(order, {}, mapping), "NOK") // "The total 268.89 NOK is
 * 50.00 more than the lines add up to (218.89), …"
 */
export function roundingProblem(plan: LinePlan, currency: string): string | null {
  if (Math.abs(plan.rounding) <= MAX_ROUNDING_UNITS * minorPerUnit(currency)) return null;
  const lines = plan.total - plan.rounding;
  const [more, amount] = plan.rounding > 0 ? ["more", plan.rounding] : ["less", -plan.rounding];
  return `The total ${formatMinor(plan.total)} ${currency} is ${formatMinor(amount)} ${more} than the lines add up to (${formatMinor(lines)}), and a rounding line may carry at most ${MAX_ROUNDING_UNITS} of the currency's smallest unit: something the lines do not show (a tip, duties, a fee) or a shop error. Nothing was booked for it; book it by hand.`;
}

export type LineProducts = Record<string, string>;

/** VAT on `net` minor units as the API rounds it: half up, per line. */
export function lineVat(net: number, vat: VatClass): number {
  return Math.floor((2 * net * vatPercent(vat) + 100) / 200);
}

/** Net + VAT of planned lines: what the API's TotalAmount will be. */
export function plannedTotal(lines: readonly PlannedLine[]): number {
  return lines.reduce((sum, l) => {
    const net = l.quantity * l.unitPrice;
    return sum + net + lineVat(net, l.vat);
  }, 0);
}

/** `quantity` units worth `net` in all, as one line or two with whole quantities. */
function split(
  base: Omit<PlannedLine, "quantity" | "unitPrice">,
  quantity: number,
  net: number,
  sign: 1 | -1,
): PlannedLine[] {
  const magnitude = Math.abs(net);
  const price = Math.floor(magnitude / quantity);
  const rest = magnitude - price * quantity;
  // The quantity carries the credit's sign; the price keeps the amount's own.
  const unit = net < 0 ? -1 : 1;
  if (rest === 0) return [{ ...base, quantity: sign * quantity, unitPrice: unit * price }];
  return [
    { ...base, quantity: sign * (quantity - rest), unitPrice: unit * price },
    { ...base, quantity: sign * rest, unitPrice: unit * (price + 1) },
  ];
}

/**
 * Ways to carry `net` over `quantity` units in at most two lines: the even split, and one odd unit
 * beside q − 1. VAT is rounded per line, so one of them often hits the gross exactly.
 */
function splits(
  base: Omit<PlannedLine, "quantity" | "unitPrice">,
  quantity: number,
  net: number,
  sign: 1 | -1,
): PlannedLine[][] {
  const even = split(base, quantity, net, sign);
  if (quantity < 2) return [even];
  const price = Math.floor(net / quantity);
  const odd = [price - 1, price].map((p) => [
    { ...base, quantity: sign * (quantity - 1), unitPrice: p },
    { ...base, quantity: sign, unitPrice: net - p * (quantity - 1) },
  ]);
  return [even, ...odd];
}

/**
 * The lines for `quantity` units worth `gross` VAT included: nets near gross / (1 + rate) tried
 * for an exact gross; failing that, the nearest net (the rounding line takes the øre).
 */
function grossLines(
  base: Omit<PlannedLine, "quantity" | "unitPrice">,
  quantity: number,
  gross: number,
  sign: 1 | -1,
): PlannedLine[] {
  const start = mulDiv(gross, 100, 100 + vatPercent(base.vat));
  for (const delta of [0, -1, 1, -2, 2]) {
    for (const lines of splits(base, quantity, start + delta, sign))
      if (plannedTotal(lines) === sign * gross) return lines;
  }
  return split(base, quantity, start, sign);
}

function orderLineLines(
  order: Order,
  line: OrderLine,
  productCode: string,
  sign: 1 | -1,
): PlannedLine[] {
  const description =
    line.discount > 0 ? `${line.name} (rabatt ${formatMinor(line.discount)})` : line.name;
  const base = {
    productCode,
    description: sign < 0 ? `Kreditert: ${description}` : description,
    vat: line.vat,
  };
  return order.taxIncluded
    ? grossLines(base, line.quantity, line.amount, sign)
    : split(base, line.quantity, line.amount, sign);
}

function withRounding(lines: PlannedLine[], total: number, mapping: OrderMapping): LinePlan {
  const rest = total - plannedTotal(lines);
  if (rest === 0) return { lines, total, rounding: 0 };
  return {
    lines: [
      ...lines,
      {
        productCode: mapping.roundingProduct,
        description: "Øreavrunding",
        quantity: 1,
        unitPrice: rest,
        vat: "exempt",
      },
    ],
    total,
    rounding: rest,
  };
}

/** The invoice lines of a paid order. */
export function invoicePlan(order: Order, products: LineProducts, mapping: OrderMapping): LinePlan {
  const lines = order.lines.flatMap((l) =>
    orderLineLines(order, l, products[l.ref] ?? mapping.vat[l.vat].fallbackProduct, 1),
  );
  return withRounding(lines, order.total, mapping);
}

function lineGross(order: Order, line: OrderLine): number {
  return order.taxIncluded ? line.amount : line.amount + lineVat(line.amount, line.vat);
}

/**
 * The credit note lines of a refund: the refunded lines if named; the invoice mirrored for a full
 * refund; else the amount shared over the lines in proportion (the last takes the remainder).
 */
export function creditPlan(
  order: Order,
  refund: Refund,
  products: LineProducts,
  mapping: OrderMapping,
): LinePlan {
  const productOf = (ref: string | null, vat: VatClass) =>
    (ref && products[ref]) || mapping.vat[vat].fallbackProduct;
  if (refund.lines.length > 0) {
    const lines = refund.lines.flatMap((r) =>
      grossLines(
        { productCode: productOf(r.ref, r.vat), description: `Kreditert: ${r.name}`, vat: r.vat },
        r.quantity,
        r.amount,
        -1,
      ),
    );
    return withRounding(lines, -refund.total, mapping);
  }
  if (refund.total === order.total) {
    const lines = order.lines.flatMap((l) => orderLineLines(order, l, productOf(l.ref, l.vat), -1));
    return withRounding(lines, -refund.total, mapping);
  }
  const grosses = order.lines.map((l) => lineGross(order, l));
  const whole = grosses.reduce((a, b) => a + b, 0);
  let left = refund.total;
  const lines = order.lines.flatMap((l, i) => {
    const share =
      i === order.lines.length - 1 ? left : mulDiv(refund.total, grosses[i] ?? 0, whole);
    left -= share;
    if (share === 0) return [];
    return grossLines(
      { productCode: productOf(l.ref, l.vat), description: `Refusjon: ${l.name}`, vat: l.vat },
      1,
      share,
      -1,
    );
  });
  return withRounding(lines, -refund.total, mapping);
}

/** A planned line as `SalesOrderLinePostDto`. */
export function apiLine(l: PlannedLine): {
  ProductCode: string;
  Description: string;
  Quantity: number;
  ProductUnitPrice: number;
} {
  return {
    ProductCode: l.productCode,
    Description: l.description.slice(0, 400),
    Quantity: l.quantity,
    ProductUnitPrice: toDecimal(l.unitPrice),
  };
}
