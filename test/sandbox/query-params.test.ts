/**
 * The sandbox against `shared/v2/query.ts`, the query parameters the gateway's `/v2/openapi.json`
 * declares: every operation's handler runs once with each declared parameter set to a valid
 * example, over a query that records what the handler reads and which filters it declares
 * (`DeclaringQuery` in engine/filters.ts) and a store that has every record and lists none. Then
 * every parameter the sandbox reads is declared, with the same kind; every declared one is read,
 * but for the few the facts name and the sandbox leaves alone; and the paged lists are the ones
 * that take ResourceParameters.
 */
import { describe, expect, it } from "vitest";
import type { Ctx } from "../../sandbox/src/engine/call";
import type { DeclaringQuery, Filter, FilterKind } from "../../sandbox/src/engine/filters";
import type { Store, Stored } from "../../sandbox/src/engine/store";
import { HANDLERS } from "../../sandbox/src/resources/index";
import { CATALOG, type Operation } from "../../shared/v2/catalog";
import {
  QUERY,
  queryOf,
  RESOURCE_PARAMETERS,
  type QueryKind,
  type QueryParam,
} from "../../shared/v2/query";

/**
 * Declared from the API's published document and filtering conventions, and not (yet) read by the
 * sandbox.
 */
const UNSERVED: Record<string, readonly string[]> = {
  "GET /SalesOrders": ["includeSubProject", "showInherited"],
  "GET /SalesOrders/{id}": ["showInherited"],
  "GET /SalesOrders/{id}/Complete": ["showInherited"],
  "GET /OutgoingInvoices": ["departmentCodes", "projectCodes", "includeSubProject"],
};

/** The sandbox's kinds that differ from the wire's only in how a record is matched. */
const WIRE_KIND: Record<FilterKind, QueryKind> = {
  strings: "strings",
  ranges: "ranges",
  ids: "ids",
  contains: "ids",
  after: "after",
  from: "from",
  to: "to",
  bool: "bool",
  only: "bool",
  eq: "eq",
};

const UUID = "00000000-0000-4000-8000-000000000001";
/** ResourceParameters, and the OData names the sandbox reads only to refuse them. */
const PAGING = new Set([
  ...RESOURCE_PARAMETERS.map((r) => r.name.toLowerCase()),
  "$top",
  "$skip",
  "$filter",
  "$orderby",
]);

/** A value of `p` that the API accepts. */
function example(p: QueryParam): string {
  const values: Record<QueryKind, string> = {
    strings: p.values?.[0] ?? "a",
    ranges: "1-2, 5",
    ids: "1",
    after: "2021-09-25T08:03:00Z",
    from: "2026-01-31",
    to: "2026-01-31",
    date: "2026-01-31",
    bool: "true",
    eq: p.values?.[0] ?? "a",
    int: "2026",
    uuid: UUID,
  };
  return values[p.kind];
}

/**
 * A store in which every record exists (so parents and filtered ids are found) and no list has
 * rows; an order's or invoice's lines are empty.
 */
const record: Stored = {
  id: "1",
  parent: "1",
  owner: "integration",
  dto: { Id: 1, Lines: [], SalesOrderLines: [] },
};
const store = new Proxy(
  {},
  {
    get: (_t, name) =>
      name === "get" || name === "findBy" ? () => record : name === "all" ? () => [] : () => 1,
  },
) as Store;

interface Seen {
  /** Lowercased names of the parameters the handler read. */
  reads: Set<string>;
  /** The filters it declared, by name. */
  filters: Map<string, FilterKind>;
}

/**
 * Runs the handler of `op` with integer ids and with uuids (a handler reads the one it takes) and
 * records what it looks at.
 */
function walk(op: Operation): Seen | null {
  const handler = HANDLERS[op.key];
  if (!handler) return null;
  const seen: Seen = { reads: new Set(), filters: new Map() };
  class Recording extends Map<string, string> implements DeclaringQuery {
    override get(k: string) {
      seen.reads.add(k);
      return super.get(k);
    }
    override has(k: string) {
      seen.reads.add(k);
      return super.has(k);
    }
    declare(filters: readonly Filter[]) {
      for (const f of filters) seen.filters.set(f.param, f.kind);
    }
  }
  for (const id of ["1", UUID]) {
    const q = new Recording(
      (queryOf(op.key)?.params ?? []).map((p) => [p.name.toLowerCase(), example(p)]),
    );
    const params = Object.fromEntries(
      [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1] as string, id]),
    );
    const ctx: Ctx = {
      store,
      q,
      now: new Date("2026-02-01T00:00:00Z"),
      wakeAt: () => undefined,
      call: {
        key: op.key,
        params,
        query: [...q],
        url: `https://sandbox.test/v2${op.path}`,
        body: null,
        upload: null,
        environment: "demo",
        clientId: "c",
        integration: "integration",
        privileges: [...op.privileges],
      },
    };
    try {
      handler(ctx);
    } catch {
      // The stand-in store's records are empty shells; what was read before a handler tripped on
      // one still counts.
    }
  }
  return seen;
}

const SEEN = new Map(CATALOG.map((op) => [op.key, walk(op)] as const));

describe("query parameters: the sandbox and shared/v2/query.ts", () => {
  it("declares only operations of the catalog", () => {
    const keys = new Set(CATALOG.map((op) => op.key));
    expect(Object.keys(QUERY).filter((k) => !keys.has(k))).toEqual([]);
  });

  it("declares every parameter the sandbox reads, and each filter with the sandbox's kind", () => {
    const undeclared: string[] = [];
    const kinds: string[] = [];
    for (const [key, seen] of SEEN) {
      if (!seen) continue;
      const declared = new Map((queryOf(key)?.params ?? []).map((p) => [p.name, p]));
      const names = new Set([...declared.keys()].map((n) => n.toLowerCase()));
      for (const read of seen.reads)
        if (!PAGING.has(read) && !names.has(read)) undeclared.push(`${key} ?${read}`);
      for (const [name, kind] of seen.filters) {
        const p = declared.get(name);
        if (!p) undeclared.push(`${key} ?${name} (filter, spelt so)`);
        else if (p.kind !== WIRE_KIND[kind])
          kinds.push(`${key} ?${name}: sandbox ${kind}, declared ${p.kind}`);
      }
    }
    expect(undeclared).toEqual([]);
    expect(kinds).toEqual([]);
  });

  it("reads every parameter it declares, but for those the sandbox is known to leave alone", () => {
    const unread: string[] = [];
    for (const [key, query] of Object.entries(QUERY)) {
      const seen = SEEN.get(key);
      for (const p of query.params) {
        if (UNSERVED[key]?.includes(p.name)) continue;
        if (!seen?.reads.has(p.name.toLowerCase())) unread.push(`${key} ?${p.name}`);
      }
    }
    expect(unread).toEqual([]);
    // Each exception is still declared: a stale one would hide nothing and should go.
    for (const [key, names] of Object.entries(UNSERVED)) {
      for (const name of names) {
        expect(
          queryOf(key)?.params.map((p) => p.name),
          key,
        ).toContain(name);
        expect(
          SEEN.get(key)?.reads.has(name.toLowerCase()),
          `${key} ?${name} is read now: drop it from UNSERVED`,
        ).toBe(false);
      }
    }
  });

  it("marks as paged exactly the lists that take ResourceParameters", () => {
    const paged = [...SEEN]
      .filter(([, seen]) => seen?.reads.has("pagesize"))
      .map(([key]) => key)
      .sort();
    expect(
      Object.entries(QUERY)
        .filter(([, q]) => q.paged)
        .map(([key]) => key)
        .sort(),
    ).toEqual(paged);
  });
});
