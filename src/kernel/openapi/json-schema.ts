/**
 * @module
 * zod 4 schemas as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), placed under
 * `components.schemas`. A schema that cannot be converted becomes an open object with a note,
 * never a crash: the document must build for every operation of the catalog.
 */
import { z } from "zod";

/** A JSON Schema object as it goes into the document. */
export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of `schema` as a request body (input side: defaults are optional, transforms see
 * their input).
 */
export function toJsonSchema(
  schema: z.ZodType,
): { ok: true; schema: JsonSchema } | { ok: false; reason: string } {
  try {
    // "any" for what JSON Schema cannot say (a transform's output, a custom check): the part stays
    // open, the rest is exact.
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

/**
 * `schema` moved to `#/components/schemas/{name}`: its own references (`#`, `#/$defs/…`, relative
 * to itself when it stood alone) are rewritten to point at where it now lives.
 */
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
