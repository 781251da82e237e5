/**
 * @module
 * Reading the gateway's own JSON bodies: size-capped, content type checked, parsed with zod, failures
 * thrown as `Problem`s that list each field (used by `middleware/validate.ts`).
 */
import type { z } from "zod";
import { Problem, type FieldError } from "./problem";

/** Largest body of ledgergate's own JSON routes, bytes. */
export const MAX_ADMIN_BODY_BYTES = 65_536;

/** zod issues as `{ path, message }`. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({
    path: i.code === "unrecognized_keys" ? [...i.path, ...i.keys].join(".") : i.path.join(".") || "$",
    message: i.code === "unrecognized_keys" ? `unknown field(s): ${i.keys.join(", ")}` : i.message,
  }));
}

/** Parses a JSON body with `schema`; an empty body counts as `empty` when given. */
export async function jsonBody<T extends z.ZodType>(req: Request, schema: T, empty?: unknown): Promise<z.output<T>> {
  const type = req.headers.get("content-type") ?? "";
  const text = await req.text();
  if (text.length > MAX_ADMIN_BODY_BYTES) throw new Problem("payload-too-large", `The body is larger than ${MAX_ADMIN_BODY_BYTES} bytes.`);
  let value: unknown = empty;
  if (text.trim() !== "" || empty === undefined) {
    if (!/^application\/(.+\+)?json/i.test(type)) throw new Problem("unsupported-media-type", "Send the body as application/json.");
    try {
      value = JSON.parse(text);
    } catch {
      throw new Problem("bad-request", "The body is not valid JSON.");
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Problem("validation-failed", "The body failed validation; see errors.", { errors: fieldErrors(parsed.error) });
  return parsed.data;
}
