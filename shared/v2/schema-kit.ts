/**
 * @module
 * Building blocks for the API v2 resource schemas. The API's DTOs are PascalCase, reject unknown
 * properties, take enums as strings matched case-insensitively (never as numbers), and mark most
 * fields nullable. One helper per convention keeps every resource schema short and alike.
 */
import { z } from "zod";

/**
 * An enum that accepts any casing of its members and yields the canonical spelling. Numbers are
 * refused: the API serializes enums as strings, and a number would silently mean "the n-th member".
 *
 * @param values the canonical member names, as the API spells them
 * @returns a zod schema producing one of `values`
 * @example enumCI(["PdfByEmail", "Print"]).parse("pdfbyemail") // "PdfByEmail"
 */
export function enumCI<const T extends readonly [string, ...string[]]>(values: T) {
  const byLower = new Map(values.map((v) => [v.toLowerCase(), v] as const));
  return z
    .string({ error: `expected one of ${values.join(", ")} as a string` })
    .transform((raw, ctx) => {
      const hit = byLower.get(raw.toLowerCase());
      if (hit === undefined) {
        ctx.addIssue({ code: "custom", message: `'${raw}' is not one of ${values.join(", ")}` });
        return z.NEVER;
      }
      return hit as T[number];
    });
}

/** An int64 id or number as the API sends it: a JSON integer that fits in a double exactly. */
export const int64 = z.int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** A calendar date `YYYY-MM-DD`. */
export const isoDate = z.iso.date();

/** Makes a field optional and nullable, the API's default for writable DTO fields. */
export function opt<T extends z.ZodType>(schema: T) {
  return schema.nullish();
}

/**
 * An ISO 3166-1 alpha-2 country code, checked for form only (which codes a client enabled is stored
 * state).
 */
export const countryCode = z.string().regex(/^[A-Za-z]{2}$/, "must be an ISO 3166-1 alpha-2 code");

/**
 * An ISO 4217 currency code, checked for form only (which currencies a client enabled is stored
 * state).
 */
export const currencyCode = z.string().regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 code");

/** A percentage from 0 to 100, both included. */
export const percentage = z.number().min(0).max(100);

/**
 * A string the spec lists as required: present, not null and not blank. ASP.NET's `[Required]`
 * refuses "" and whitespace too, so letting them through here would only move the 400 upstream.
 *
 * @param max the longest length allowed, when the spec gives one
 * @returns a zod string schema
 * @example requiredText(100).safeParse(" ").success // false
 */
export function requiredText(max?: number) {
  const s = z.string().regex(/\S/, "must not be empty");
  return max === undefined ? s : s.max(max);
}

/**
 * Reports `toKey` when both dates are set and `to` falls before `from` (ISO dates compare correctly
 * as strings; equal dates are a valid one-day period).
 *
 * @param ctx the refinement context of the object being checked
 * @example checkOrder(ctx, e.StartDate, e.EndDate, "StartDate", "EndDate")
 */
export function checkOrder(
  ctx: z.RefinementCtx,
  from: string | null | undefined,
  to: string | null | undefined,
  fromKey: string,
  toKey: string,
) {
  if (from && to && to < from) {
    ctx.addIssue({
      code: "custom",
      path: [toKey],
      message: `${toKey} (${to}) is before ${fromKey} (${from})`,
    });
  }
}
