/**
 * @module
 * Reading the gateway's own JSON bodies: size-capped, content type checked, parsed with zod,
 * failures thrown as `Problem`s; zod issues as field errors (used by
 * `kernel/middleware/validate.ts` and the pass-through).
 */
import type { z } from "zod";
import { readCapped } from "../../shared/bytes";
import { Problem, type FieldError } from "./problem";

/** Largest body of ledgergate's own JSON routes, bytes. */
export const MAX_ADMIN_BODY_BYTES = 65_536;

/** zod issues as `{ path, message }`. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({
    path:
      i.code === "unrecognized_keys" ? [...i.path, ...i.keys].join(".") : i.path.join(".") || "$",
    message: i.code === "unrecognized_keys" ? `unknown field(s): ${i.keys.join(", ")}` : i.message,
  }));
}

/**
 * Reads a JSON body: size-capped, content type checked, parsed. An empty body is `undefined` when
 * `optional`; otherwise it is refused like any body that is not JSON. The schema is applied by the
 * caller (the route's declared schema, `kernel/middleware/validate.ts`).
 */
export async function readJson(req: Request, optional = false): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  // Read up to the cap and no further (a huge body is never held whole), decoded here rather than
  // by `req.text()`, which the runtime warns about for a body whose type is not text.
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
