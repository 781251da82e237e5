/**
 * @module
 * The query parameters of API v2's operations, as data: the ResourceParameters every paged list
 * takes (`PageNumber`, `PageSize`, `Fields`, `OrderBy`, `UseDatabaseValidation`) and each
 * operation's own filters with the kind of value they read (the table is `query-entries.ts`). The
 * gateway's `/v2/openapi.json` declares them, so the generated client can page and filter; the
 * sandbox is held to them by test/sandbox/query-params.test.ts.
 *
 * Filters are camelCase and paging is PascalCase, as the API spells them (it binds them
 * case-insensitively); multi-value filters are one comma-separated string, never repeated keys.
 */
import { QUERY_ENTRIES } from "./query-entries";

/**
 * How a parameter's value is read, as the caller writes it:
 * `strings` comma list of strings; `ranges` numbers and ranges (`10000-11000, 12000, 13000-`);
 * `ids` comma list of positive ids, no ranges; `after` date-time, exclusive lower bound;
 * `from`/`to` date, inclusive bounds; `date` one date; `bool`; `eq` one exact string (any casing);
 * `int` one whole number; `uuid` one uuid.
 */
export type QueryKind =
  "strings" | "ranges" | "ids" | "after" | "from" | "to" | "date" | "bool" | "eq" | "int" | "uuid";

/** One query parameter of an operation. */
export interface QueryParam {
  name: string;
  kind: QueryKind;
  /** One line: what it selects. */
  description: string;
  required?: boolean;
  /** The values the API names, for `eq` (an enum) and `strings` (each item one of them). */
  values?: readonly string[];
}

/** The query of one operation: whether it takes ResourceParameters, and its own parameters. */
export interface OperationQuery {
  paged: boolean;
  params: readonly QueryParam[];
}

/**
 * Page size when the caller gives none, and the largest allowed (the API's read-only MaxPageSize).
 */
export const DEFAULT_PAGE_SIZE = 5000;
export const MAX_PAGE_SIZE = 20_000;

/** A JSON Schema object; kept loose so both the gateway's builder and plain data can hold it. */
export type QuerySchema = Record<string, unknown>;

/** ResourceParameters: the spec models them as one exploded object, so each is a top-level key. */
export const RESOURCE_PARAMETERS: readonly {
  name: string;
  description: string;
  schema: QuerySchema;
}[] = [
  {
    name: "PageNumber",
    description: "The page to return, from 1.",
    schema: { type: "integer", format: "int32", minimum: 1, default: 1 },
  },
  {
    name: "PageSize",
    description: `Items per page (${DEFAULT_PAGE_SIZE} by default), at most MaxPageSize (${MAX_PAGE_SIZE}).`,
    schema: {
      type: "integer",
      format: "int32",
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
    },
  },
  {
    name: "Fields",
    description: "The properties to answer, comma-separated PascalCase names (all by default).",
    schema: { type: "string", examples: ["Id,Name"] },
  },
  {
    name: "OrderBy",
    description: "Properties to order by, each `asc` (default) or `desc`, comma-separated.",
    schema: { type: "string", examples: ["Name asc, Number desc"] },
  },
  {
    name: "UseDatabaseValidation",
    description: "Validate the filter values against the database (slow; for debugging).",
    schema: { type: "boolean" },
  },
];

/** Number or range, then more after commas; an open upper end (`13000-`) is allowed. */
const RANGES_PATTERN = String.raw`^\s*\d+(\s*-\s*\d*)?(\s*,\s*\d+(\s*-\s*\d*)?)*\s*$`;
const IDS_PATTERN = String.raw`^\s*\d+(\s*,\s*\d+)*\s*$`;

/** The JSON Schema of a parameter's value. */
export function querySchema(p: Pick<QueryParam, "kind" | "values">): QuerySchema {
  switch (p.kind) {
    case "strings":
      return { type: "string", examples: [p.values ? p.values.slice(0, 2).join(",") : "A,B"] };
    case "ranges":
      return { type: "string", pattern: RANGES_PATTERN, examples: ["10000-11000, 12000, 13000-"] };
    case "ids":
      return { type: "string", pattern: IDS_PATTERN, examples: ["41345, 21445"] };
    case "after":
      return {
        type: "string",
        format: "date-time",
        examples: ["2021-09-25T08:03:00.123456+00:00"],
      };
    case "from":
    case "to":
    case "date":
      return { type: "string", format: "date", examples: ["2026-01-31"] };
    case "bool":
      return { type: "boolean" };
    case "eq":
      return p.values ? { type: "string", enum: [...p.values] } : { type: "string" };
    case "int":
      return { type: "integer", format: "int64", minimum: 0 };
    case "uuid":
      return { type: "string", format: "uuid" };
  }
}

/** Every operation's query, keyed by the catalog's operation key (`GET /Customers`). */
export const QUERY: Readonly<Record<string, OperationQuery>> = QUERY_ENTRIES;

/**
 * The query of the operation `key`; none for operations that take no query parameters.
 *
 * @example queryOf("GET /Customers")?.params.find((p) => p.name === "customerNos")?.kind // "ranges"
 */
export function queryOf(key: string): OperationQuery | undefined {
  return Object.hasOwn(QUERY, key) ? QUERY[key] : undefined;
}
