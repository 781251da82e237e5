/**
 * @module
 * List filters of the API, declared per resource: a camelCase query parameter, the DTO property it
 * tests, and how its value is read (comma lists, number ranges, id lists, date-times, booleans).
 */
import { problems, type Result } from "../lib/problem";
import { idList, numberRanges, stringList, timestampParam } from "../lib/query";
import type { Dto } from "./store";

export type FilterKind =
  /** comma-separated strings, any casing */
  | "strings"
  /** `10000-11000, 12000, 13000-` */
  | "ranges"
  /** comma-separated positive ids; ranges refused */
  | "ids"
  /** a DTO array property (e.g. ContactGroupIds) containing any of the ids */
  | "contains"
  /** date-time, exclusive lower bound */
  | "after"
  /** date, inclusive lower / upper bound */
  | "from"
  | "to"
  | "bool"
  /**
   * `only…=true` keeps the records whose boolean property is true; `false` keeps all, as the API
   * reads it
   */
  | "only"
  /** exact string, any casing */
  | "eq";

/** One filter: query parameter, DTO property, kind. */
export interface Filter {
  param: string;
  field: string;
  kind: FilterKind;
  /**
   * For id filters: the kind of record each id must name; an unknown id is a 404, as the API
   * answers.
   */
  names?: { kind: string; entity: string };
}

/** Shorthand for a filter declaration. */
export const filter = (
  param: string,
  field: string,
  kind: FilterKind,
  names?: Filter["names"],
): Filter => ({ param, field, kind, ...(names ? { names } : {}) });

type Predicate = (d: Dto) => boolean;

/**
 * A query that wants to hear which filters a handler declares. Most lists declare theirs inline,
 * next to the code that reads them, so this is how test/sandbox/query-params.test.ts lists every
 * operation's filters (and checks them against `shared/v2/query.ts`) without running a request.
 */
export interface DeclaringQuery extends Map<string, string> {
  declare?(filters: readonly Filter[]): void;
}

/**
 * Builds the predicate of the given filters from a query with lowercased names; a malformed value
 * is a problem.
 */
export function predicateOf(
  filters: readonly Filter[],
  q: DeclaringQuery,
  exists?: (kind: string, id: number) => boolean,
): Result<Predicate> {
  q.declare?.(filters);
  const preds: Predicate[] = [];
  for (const f of filters) {
    const raw = q.get(f.param.toLowerCase())?.trim();
    if (!raw) continue;
    if (f.names && exists) {
      const ids = idList(raw, f.param);
      if (!ids.ok) return ids;
      const missing = ids.value.find((id) => !exists(f.names?.kind ?? "", id));
      if (missing !== undefined)
        return { ok: false, problem: problems.notFound(f.names.entity, missing) };
    }
    const p = one(f, raw);
    if (!p.ok) return p;
    preds.push(p.value);
  }
  return { ok: true, value: (d) => preds.every((p) => p(d)) };
}

function one(f: Filter, raw: string): Result<Predicate> {
  const value = (d: Dto) => d[f.field];
  switch (f.kind) {
    case "strings": {
      const wanted = new Set(stringList(raw));
      return { ok: true, value: (d) => wanted.has(String(value(d) ?? "").toLowerCase()) };
    }
    case "eq":
      return { ok: true, value: (d) => String(value(d) ?? "").toLowerCase() === raw.toLowerCase() };
    case "ranges": {
      const r = numberRanges(raw);
      if (!r)
        return {
          ok: false,
          problem: problems.cast(
            `${f.param} must be numbers or ranges such as "10000-11000, 12000, 13000-".`,
          ),
        };
      // A number, or a string of digits (a stored number may have come in as text): anything else
      // never matches.
      const numberOf = (v: unknown) =>
        typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : null;
      return {
        ok: true,
        value: (d) => {
          const n = numberOf(value(d));
          return n !== null && r.some(([lo, hi]) => n >= lo && n <= hi);
        },
      };
    }
    case "ids":
    case "contains": {
      const ids = idList(raw, f.param);
      if (!ids.ok) return ids;
      const wanted = new Set(ids.value);
      return f.kind === "ids"
        ? { ok: true, value: (d) => wanted.has(Number(value(d))) }
        : {
            ok: true,
            value: (d) =>
              Array.isArray(value(d)) && (value(d) as unknown[]).some((x) => wanted.has(Number(x))),
          };
    }
    case "after": {
      const t = timestampParam(raw);
      if (t === null)
        return {
          ok: false,
          problem: problems.cast(
            `${f.param} must be a date-time such as 2021-09-25 08:03:00.123456+00:00.`,
          ),
        };
      return { ok: true, value: (d) => Date.parse(String(value(d))) > t };
    }
    case "from":
    case "to": {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(raw))
        return {
          ok: false,
          problem: problems.cast(`${f.param} must be a date such as 2026-01-31.`),
        };
      return {
        ok: true,
        value: (d) =>
          typeof value(d) === "string" &&
          (f.kind === "from" ? String(value(d)) >= raw : String(value(d)).slice(0, 10) <= raw),
      };
    }
    case "bool":
    case "only": {
      if (!/^(true|false)$/i.test(raw))
        return { ok: false, problem: problems.cast(`${f.param} must be true or false.`) };
      const want = raw.toLowerCase() === "true";
      if (f.kind === "only" && !want) return { ok: true, value: () => true };
      return { ok: true, value: (d) => (value(d) === true) === want };
    }
  }
}
