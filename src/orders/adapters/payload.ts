/**
 * @module
 * What the adapters share when they read a delivery: refusals, strict JSON decoding, exact money,
 * VAT classes from a rate or a tax/base ratio, and the shops' date forms.
 */
import { z } from "zod";
import type { Result } from "../../kernel/result";
import { toMinor } from "../../ledger/money";
import type { Order, OrderEvent, UnusableOrder, VatClass } from "../order";
import { Order as OrderSchema } from "../order";
import type { Refusal } from "./source";

/** A 400 refusal: the body is not the source's JSON. */
export function badBody(detail: string): { ok: false; error: Refusal } {
  return { ok: false, error: { status: 400, detail } };
}

/** A 401 refusal: the signature (or its timestamp) does not check out. */
export function unauthorized(detail: string): { ok: false; error: Refusal } {
  return { ok: false, error: { status: 401, detail } };
}

const utf8Strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** `JSON.parse`'s reviver with each primitive's source text (TC39 "source text access"). */
type SourceReviver = (
  this: unknown,
  key: string,
  value: unknown,
  context: { source?: string },
) => unknown;

/**
 * Keeps an integer literal no JS number holds exactly as its digits: shop ids are 64-bit (Shopify's
 * test order 820982911946154508 would round to another order's id).
 */
const exactIntegers: SourceReviver = (_key, value, context) =>
  typeof value === "number" &&
  !Number.isSafeInteger(value) &&
  context.source !== undefined &&
  /^-?\d+$/.test(context.source)
    ? context.source
    : value;

/** The body as JSON, big integers kept exact; a body that is not UTF-8 JSON is a 400 refusal. */
export function decodeJson(body: Uint8Array): Result<unknown, Refusal> {
  try {
    return {
      ok: true,
      value: JSON.parse(utf8Strict.decode(body), exactIntegers as Parameters<typeof JSON.parse>[1]),
    };
  } catch {
    return badBody("the body is not JSON");
  }
}

/** `value` parsed with `schema`; a mismatch is a 400 refusal naming the first offending field. */
export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  what: string,
): Result<z.output<T>, Refusal> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue ? issue.path.join(".") : "";
  const message =
    issue?.code === "unrecognized_keys"
      ? `unknown field(s) ${issue.keys.join(", ")}`
      : (issue?.message ?? "invalid");
  return badBody(`${what}: ${path ? `${path}: ` : ""}${message}`);
}

/**
 * A paid order the adapter cannot invoice (`UnusableOrder`): not a refusal, since the shop would
 * only send it again; its run is recorded as failed.
 * @example return unusable(o.id, o.name, `line_items.${i}: the shop states no VAT for this line`);
 */
export function unusable(
  id: string,
  number: string,
  problem: string,
): { ok: true; value: UnusableOrder } {
  return { ok: true, value: { id, number, problem } };
}

/**
 * The event of a mapped order: checked against the normalized schema (what fails is the source's
 * fault, a 400), or `unusable`.
 */
export function paidEvent(order: Order | UnusableOrder): Result<OrderEvent[], Refusal> {
  if ("problem" in order)
    return {
      ok: true,
      value: [
        {
          kind: "unusable",
          orderId: order.id,
          reason: `Order ${order.number} cannot be invoiced as the shop sent it: ${order.problem}`,
        },
      ],
    };
  const checked = parseWith(OrderSchema, order, `order ${order.id}`);
  return checked.ok ? { ok: true, value: [{ kind: "paid", order: checked.value }] } : checked;
}

/** A decimal amount as shops send it (string or JSON number), to minor units without a float. */
export const Money = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const m = toMinor(v);
  if (m === null) {
    ctx.addIssue({ code: "custom", message: "expected a decimal amount" });
    return z.NEVER;
  }
  return m;
});

/** A shop id: Shopify and WooCommerce send numbers, others strings; either becomes a string. */
export const Id = z.union([z.int().nonnegative(), z.string().min(1).max(100)]).transform(String);

/** Empty or blank text as null: shops send `""` for a field nobody filled in. */
export const Text = z
  .string()
  .nullish()
  .transform((s) => (s == null || s.trim() === "" ? null : s.trim()));

/** VAT class of a rate in basis points (2500 = 25 %); null when it is not a Norwegian rate. */
export function vatOfBasisPoints(bp: number): VatClass | null {
  if (bp === 0) return "zero";
  if (bp === 2500) return "25";
  if (bp === 1500) return "15";
  if (bp === 1200) return "12";
  return null;
}

/** Norwegian VAT rates in percent, highest first. */
const RATES = [25, 15, 12] as const;

/**
 * The VAT class whose rate best explains `tax` on the ex-tax `base` to within `slack` minor units
 * (shops round tax per line or unit); no tax is `zero`; null when no Norwegian rate fits.
 */
export function vatOfTax(tax: number, base: number, slack: number): VatClass | null {
  const t = Math.abs(tax);
  const b = Math.abs(base);
  if (t === 0) return "zero";
  if (b === 0) return null;
  let best: { rate: number; off: number } | null = null;
  for (const rate of RATES) {
    const off = Math.abs(t * 100 - b * rate); // hundredths of a minor unit
    if (best === null || off < best.off) best = { rate, off };
  }
  if (best === null || best.off > (slack + 0.5) * 100) return null;
  return String(best.rate) as VatClass;
}

export function unixToIso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

export const IsoDateTime = z.iso.datetime({ offset: true });

/** First present header of `names` (Headers look names up case-insensitively), trimmed. */
export function header(headers: Headers, ...names: string[]): string | null {
  for (const n of names) {
    const v = headers.get(n);
    if (v !== null && v.trim() !== "") return v.trim();
  }
  return null;
}

/** An event id from an unsigned header, only if short printable ASCII: it becomes a storage key. */
export function safeEventId(value: string | null): string | null {
  return value !== null && /^[\x21-\x7e]{1,200}$/.test(value) ? value : null;
}
