/** @module Reading the gateway's own JSON bodies, failures thrown as `Problem`s. */
import type { z } from "zod";
import { readCapped } from "../../shared/bytes";
import { Problem, type FieldError } from "./problem";

export const MAX_ADMIN_BODY_BYTES = 65_536;

export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({
    path:
      i.code === "unrecognized_keys" ? [...i.path, ...i.keys].join(".") : i.path.join(".") || "$",
    message: i.code === "unrecognized_keys" ? `unknown field(s): ${i.keys.join(", ")}` : i.message,
  }));
}

/**
 * A JSON body, size-capped and content type checked; empty is `undefined` when `optional`,
 * refused otherwise. The caller applies the schema.
 */
export async function readJson(req: Request, optional = false): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  // Never hold a huge body whole; decoded here, as the runtime warns on `req.text()` of non-text.
  const bytes = req.body ? await readCapped(req.body, MAX_ADMIN_BODY_BYTES) : new Uint8Array();
  if (bytes === null)
    throw new Problem(
      "payload-too-large",
      `The body is larger than ${MAX_ADMIN_BODY_BYTES} bytes.`,
    );
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "" && optional) return undefined;
  if (!/^application\/(.+\+)?json/i.test(type))
    throw new Problem("unsupported-media-type", "Send the body as application/json.");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Problem("bad-request", "The body is not valid JSON.");
  }
}
