/** @module zod 4 schemas as JSON Schema 2020-12: a failure to convert is answered, never thrown. */
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

/** `schema` as a request body (input side: defaults optional, transforms see their input). */
export function toJsonSchema(
  schema: z.ZodType,
): { ok: true; schema: JsonSchema } | { ok: false; reason: string } {
  try {
    // "any" for what JSON Schema cannot say: that part stays open, the rest is exact.
    const converted = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io: "input",
      unrepresentable: "any",
    }) as JsonSchema;
    const { $schema: _dialect, ...rest } = converted;
    return { ok: true, schema: rest };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.name : "unknown" };
  }
}

/** `schema` moved to `#/components/schemas/{name}`, its own `#` and `#/$defs/…` refs rewritten. */
export function relocate(schema: JsonSchema, name: string): JsonSchema {
  const home = `#/components/schemas/${name}`;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== "object" || v === null) return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        k === "$ref" && typeof x === "string" && (x === "#" || x.startsWith("#/$defs/"))
          ? home + x.slice(1)
          : walk(x),
      ]),
    );
  };
  return walk(schema) as JsonSchema;
}
