/**
 * @module
 * Reading request bodies the way the API does: a size limit, the accepted media types, and JSON
 * that fails to parse answered as a validation problem rather than a crash.
 */
import { readCapped } from "../../../shared/bytes";
import type { z } from "zod";
import { problemResponse, schemaProblem, type Problem, type Result } from "./problem";

/**
 * Largest JSON body the sandbox reads, bytes. Larger bodies are refused with 413 before parsing.
 */
export const MAX_JSON_BODY_BYTES = 1_048_576;

/** Media types the API's JSON endpoints take (`application/*+json` covers json-patch+json). */
function isJsonType(contentType: string): boolean {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return (
    type === "application/json" ||
    type === "text/json" ||
    /^application\/[a-z0-9.+-]+\+json$/.test(type)
  );
}

/**
 * Reads and parses a JSON body.
 *
 * @param req the request
 * @param accept "json" for any JSON type, "json-patch" for `application/json-patch+json` only
 * @returns the parsed value, or the problem the API answers (400, 413, 415)
 */
export async function readJson(
  req: Request,
  accept: "json" | "json-patch",
): Promise<Result<unknown>> {
  const contentType = req.headers.get("content-type") ?? "";
  const typeOk =
    accept === "json-patch"
      ? contentType.toLowerCase().startsWith("application/json-patch+json")
      : isJsonType(contentType);
  if (!typeOk) {
    const want = accept === "json-patch" ? "application/json-patch+json" : "application/json";
    return {
      ok: false,
      problem: {
        status: 415,
        title: "Unsupported Media Type",
        detail: `Send the body as ${want}.`,
      },
    };
  }
  const text = await readLimited(req, MAX_JSON_BODY_BYTES);
  if (text === null) {
    return {
      ok: false,
      problem: {
        status: 413,
        title: "Payload Too Large",
        detail: `The body is larger than ${MAX_JSON_BODY_BYTES} bytes.`,
      },
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const problem: Problem = {
      status: 400,
      title: "One or more validation errors occurred.",
      detail: "The body is not valid JSON.",
      errors: { $: [e instanceof Error ? e.message : "invalid JSON"] },
    };
    return { ok: false, problem };
  }
}

/** Reads at most `max` bytes of the body as text; null when it is longer. */
export async function readLimited(req: Request, max: number): Promise<string | null> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (declared > max) return null;
  if (!req.body) return "";
  const bytes = await readCapped(req.body, max);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

/**
 * A control call's JSON body parsed with `schema`; the second element is the problem response to
 * answer instead, if any (the control API's and the Stripe stand-in's control routes share it).
 */
export async function controlBody<T extends z.ZodType>(
  req: Request,
  schema: T,
): Promise<[z.output<T>, null] | [null, Response]> {
  const raw = await readJson(req, "json");
  if (!raw.ok) return [null, problemResponse(raw.problem)];
  const parsed = schema.safeParse(raw.value);
  return parsed.success
    ? [parsed.data, null]
    : [null, problemResponse(schemaProblem(parsed.error))];
}
