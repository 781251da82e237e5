/**
 * @module
 * RFC 6902 JSON Patch documents, the only body `PATCH` takes in API v2
 * (`application/json-patch+json`, PascalCase paths such as `/Name` or `/ContactGroupIds/-`).
 */
import { z } from "zod";

/** A JSON Pointer (RFC 6901): empty, or `/`-separated tokens. */
// No nested quantifier that can match "/" twice: the pattern runs in linear time on any input.
const Pointer = z
  .string()
  .max(1000)
  .regex(/^(?:\/(?:[^~/]|~[01])*)*$/, "must be a JSON Pointer such as /Name");

/** One patch operation. */
export const PatchOperation = z.discriminatedUnion("op", [
  z.strictObject({ op: z.literal("add"), path: Pointer, value: z.unknown() }),
  z.strictObject({ op: z.literal("replace"), path: Pointer, value: z.unknown() }),
  z.strictObject({ op: z.literal("test"), path: Pointer, value: z.unknown() }),
  z.strictObject({ op: z.literal("remove"), path: Pointer }),
  z.strictObject({ op: z.literal("move"), from: Pointer, path: Pointer }),
  z.strictObject({ op: z.literal("copy"), from: Pointer, path: Pointer }),
]);
export type PatchOperation = z.output<typeof PatchOperation>;

/** A patch document: a non-empty array of operations. */
export const JsonPatch = z
  .array(PatchOperation)
  .min(1, "a JSON Patch needs at least one operation")
  .max(1000);
export type JsonPatch = z.output<typeof JsonPatch>;

/** The tokens of a JSON Pointer, unescaped. */
export function pointerTokens(pointer: string): string[] {
  return pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}
