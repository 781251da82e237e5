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
