/** @module Where codes apply in a body: only where the catalog's schema has the Id. Pure. */
import { z } from "zod";
import { CATALOG, matchOperation } from "../../../shared/v2/catalog";
import type { FieldError } from "../../kernel/problem";
import { CODE_REFS, codeKey, type Site } from "./code-refs";
import { isJsonObject } from "./merge-patch";

/**
 * `merge`: every code whose Id the resource has is resolved and a null code clears the Id. `post`:
 * only a code the schema lacks is resolved, and a null code is left out.
 */
export type CodeMode = "merge" | "post";

export interface Sites {
  sites: Site[];
  errors: FieldError[];
  changed: boolean;
}

/** PATCHes whose record is not created by a POST to the parent path, with the POST that is. */
const PATCH_DOCUMENT_OF: Record<string, string> = { "/SalesOrders/{id}": "/SalesOrders/Complete" };

/** The schema whose fields tell where codes apply to `method path`; null: none apply. */
export function codeSchema(method: "POST" | "PATCH", path: string): z.ZodType | null {
  const m = matchOperation(method, path);
  if (m.kind !== "operation") return null;
  if (method === "POST") return m.op.body === "json" ? m.op.schema : null;
  const document = PATCH_DOCUMENT_OF[m.op.path] ?? m.op.path.replace(/\/[^/]+$/, "");
  const post = CATALOG.find((o) => o.method === "POST" && o.path === document);
  return post?.body === "json" ? post.schema : null;
}

/**
 * The code sites of `body`, edited in place: a code beside its Id is dropped (the Id wins).
 *
 * @example findSites({ VoucherLines: [{ AccountNo: 3000 }] }, schema, "post").sites[0].path
 */
export function findSites(body: unknown, schema: z.ZodType, mode: CodeMode): Sites {
  const out: Sites = { sites: [], errors: [], changed: false };
  walk(body, schema, [], mode, out);
  return out;
}

function walk(
  value: unknown,
  schema: unknown,
  path: (string | number)[],
  mode: CodeMode,
  out: Sites,
): void {
  const shape = objectShape(schema);
  if (!isJsonObject(value) || !shape) return;
  for (const ref of CODE_REFS) {
    if (!(ref.code in value) || !(ref.id in shape) || (mode === "post" && ref.code in shape))
      continue;
    out.changed = true;
    const raw = value[ref.code];
    const at = [...path, ref.code].join(".");
    if (value[ref.id] !== undefined) {
      Reflect.deleteProperty(value, ref.code);
    } else if (raw === null || raw === "") {
      Reflect.deleteProperty(value, ref.code);
      if (mode === "merge") value[ref.id] = null;
    } else {
      const k = codeKey(ref.target, raw);
      if (k.ok) out.sites.push({ holder: value, ref, path: at, key: k.key, spelling: k.spelling });
      else out.errors.push({ path: at, message: `${ref.code} ${k.message}` });
    }
  }
  for (const [key, child] of Object.entries(value)) {
    if (Array.isArray(child)) {
      const element = elementOf(shape[key]);
      child.forEach((item, i) => walk(item, element, [...path, key, i], mode, out));
    } else if (isJsonObject(child)) {
      walk(child, shape[key], [...path, key], mode, out);
    }
  }
}

/** `s` without its optional, nullable, default, readonly, lazy, catch and pipe wrappers. */
function bare(s: unknown): unknown {
  for (let i = 0; i < 16; i++) {
    if (
      s instanceof z.ZodOptional ||
      s instanceof z.ZodNullable ||
      s instanceof z.ZodDefault ||
      s instanceof z.ZodPrefault ||
      s instanceof z.ZodReadonly ||
      s instanceof z.ZodLazy ||
      s instanceof z.ZodCatch
    )
      s = s.unwrap();
    else if (s instanceof z.ZodPipe) s = s.in;
    else return s;
  }
  return s;
}

function objectShape(s: unknown): Record<string, unknown> | null {
  const b = bare(s);
  return b instanceof z.ZodObject ? (b.shape as Record<string, unknown>) : null;
}

function elementOf(s: unknown): unknown {
  const b = bare(s);
  return b instanceof z.ZodArray ? b.element : null;
}
