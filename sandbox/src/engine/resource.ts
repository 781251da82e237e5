/**
 * @module
 * The standard resource of API v2 as one declaration: list with filters and paging, create, get,
 * JSON Patch and delete, with the rules every such resource shares: unknown or mistyped properties
 * refused naming the field, references resolved with Id winning over Code, PATCH referring by Id
 * only, unique fields, number series, server-set timestamps, owner-only writes where the API has
 * them, and "in use" conflicts on delete.
 */
import type { z } from "zod";
import { JsonPatch } from "../../../shared/v2/json-patch";
import { pointerTokens } from "../../../shared/v2/json-patch";
import { applyPatch } from "../lib/json-patch";
import { problems, schemaProblem, type Problem, type Result } from "../lib/problem";
import {
  empty,
  fail,
  intParam,
  listReply,
  ok,
  uuidParam,
  type Ctx,
  type Handler,
  type Reply,
} from "./call";
import { predicateOf, type Filter } from "./filters";
import { shape, type Dto, type Stored } from "./store";

/**
 * A reference from one record to another by Id or by Code (or number): Id wins when both are given.
 */
export interface Ref {
  id: string;
  code?: string;
  kind: string;
  entity: string;
  /** Property of the target the code is matched against. */
  by?: string;
}

export interface ResourceSpec {
  /**
   * Collection path as the catalog names it, e.g. `/Departments` or
   * `/Employees/{employeeId}/HourlyRates`.
   */
  path: string;
  /** Name of the item's path parameter (default `id`). */
  itemParam?: string;
  /** Entity name in problem titles ("Department validation error(s)"). */
  entity: string;
  /** Storage kind (default: the entity). */
  kind?: string;
  idType?: "int" | "uuid";
  post: z.ZodObject;
  /** Response-only properties, filled with null unless the resource sets them. */
  fields: readonly string[];
  /** Properties of the POST body that the response DTO lacks (kept in storage, never answered). */
  omit?: readonly string[];
  filters?: readonly Filter[];
  /** Properties unique within the client (a duplicate is a 400 validation error). */
  unique?: readonly string[];
  /**
   * What the API calls the record in a duplicate's message ("contact" for customers and suppliers).
   */
  label?: string;
  refs?: readonly Ref[];
  /**
   * A number series the `Number`-like property is assigned from, and must lie within when given.
   */
  numbered?: { field: string; first: number; last: number };
  /** Server-derived values, applied after the body is merged (defaults, computed names). */
  derive?: (dto: Dto, ctx: Ctx) => Dto;
  /** Rules that need other records; `self` is the id being changed. */
  check?: (dto: Dto, ctx: Ctx, self: string | null) => Problem | null;
  /** Why a record cannot be deleted, if it is in use. */
  inUse?: (id: string, ctx: Ctx) => string | null;
  /**
   * The stored record as a JSON Patch sees it, where the server rewrote a property on the way in (a
   * joined code).
   */
  writable?: (dto: Dto) => Dto;
  /** The parent record the path's first parameter names. */
  parent?: { param: string; kind: string; entity: string; field?: string };
  createStatus?: 200 | 201;
  /** Writes allowed only on records the calling integration created. */
  ownRecordsOnly?: boolean;
}

const kindOf = (spec: ResourceSpec) => spec.kind ?? spec.entity;

/** The handlers of a resource, keyed as the catalog names its operations. */
export function resourceHandlers(
  spec: ResourceSpec,
  only?: readonly ("list" | "create" | "get" | "patch" | "delete")[],
): Record<string, Handler> {
  const item = `${spec.path}/{${spec.itemParam ?? "id"}}`;
  const all: Record<string, [string, Handler]> = {
    list: [`GET ${spec.path}`, (ctx) => list(spec, ctx)],
    create: [`POST ${spec.path}`, (ctx) => create(spec, ctx)],
    get: [`GET ${item}`, (ctx) => withRecord(spec, ctx, (r) => ok(answer(spec, r, ctx)))],
    patch: [`PATCH ${item}`, (ctx) => withRecord(spec, ctx, (r) => patch(spec, ctx, r))],
    delete: [`DELETE ${item}`, (ctx) => withRecord(spec, ctx, (r) => remove(spec, ctx, r))],
  };
  const names = only ?? (["list", "create", "get", "patch", "delete"] as const);
  return Object.fromEntries(names.map((n) => all[n] as [string, Handler]));
}

/**
 * The properties of the resource's response DTO: the POST body's, less those the DTO lacks, and the
 * server's own. Answers carry exactly these, so stored bookkeeping never leaks and a seeded record
 * still names every property.
 */
export function responseFields(spec: Pick<ResourceSpec, "post" | "fields" | "omit">): string[] {
  return [
    ...new Set([
      ...Object.keys(spec.post.shape).filter((k) => !spec.omit?.includes(k)),
      ...spec.fields,
    ]),
  ];
}

/** The response DTO of `r` as the calling integration sees it. */
function answer(spec: ResourceSpec, r: Stored, ctx: Ctx): Dto {
  return shape(responseFields(spec), present(r, ctx));
}

/** The stored DTO as the calling integration sees it. */
export function present(r: Stored, ctx: Ctx): Dto {
  return "IsCreatedByCurrentIntegration" in r.dto
    ? { ...r.dto, IsCreatedByCurrentIntegration: r.owner === ctx.call.integration }
    : r.dto;
}

/** The parent id named by the path, checked to exist. */
export function parentOf(spec: Pick<ResourceSpec, "parent">, ctx: Ctx): Result<string | undefined> {
  if (!spec.parent) return { ok: true, value: undefined };
  const id = intParam(ctx, spec.parent.param);
  if (!id.ok) return id;
  return ctx.store.get(spec.parent.kind, id.value)
    ? { ok: true, value: String(id.value) }
    : fail(problems.notFound(spec.parent.entity, id.value));
}

function list(spec: ResourceSpec, ctx: Ctx): Result<Reply> {
  const parent = parentOf(spec, ctx);
  if (!parent.ok) return parent;
  const pred = predicateOf(
    spec.filters ?? [],
    ctx.q,
    (kind, id) => ctx.store.get(kind, id) !== null,
  );
  if (!pred.ok) return pred;
  const fields = responseFields(spec);
  const rows = ctx.store
    .all(kindOf(spec), parent.value)
    .map((r) => present(r, ctx))
    .filter(pred.value)
    .map((d) => shape(fields, d));
  return listReply(ctx, rows, fields);
}

function withRecord(
  spec: ResourceSpec,
  ctx: Ctx,
  run: (r: Stored) => Result<Reply>,
): Result<Reply> {
  const parent = parentOf(spec, ctx);
  if (!parent.ok) return parent;
  const param = spec.itemParam ?? "id";
  const id = spec.idType === "uuid" ? uuidParam(ctx, param) : intParam(ctx, param);
  if (!id.ok) return id;
  const r = ctx.store.get(kindOf(spec), id.value);
  if (!r || (parent.value !== undefined && r.parent !== parent.value))
    return fail(problems.notFound(spec.entity, id.value));
  return run(r);
}

function create(spec: ResourceSpec, ctx: Ctx): Result<Reply> {
  const parent = parentOf(spec, ctx);
  if (!parent.ok) return parent;
  const parsed = spec.post.safeParse(ctx.call.body);
  if (!parsed.success) return fail(schemaProblem(parsed.error));
  const id = spec.idType === "uuid" ? crypto.randomUUID() : ctx.store.nextId();
  const now = ctx.now.toISOString();
  const base = shape([...spec.fields, ...Object.keys(spec.post.shape)]);
  const stamps: Dto = {};
  for (const f of ["CreatedDateTimeOffset", "LastChangedDateTimeOffset"])
    if (spec.fields.includes(f)) stamps[f] = now;
  if (spec.fields.includes("IsCreatedByCurrentIntegration"))
    stamps.IsCreatedByCurrentIntegration = true;
  if (spec.parent?.field) stamps[spec.parent.field] = Number(parent.value);
  const dto = finish(
    spec,
    ctx,
    { ...base, ...stripNulls(parsed.data as Dto), ...stamps, Id: id },
    null,
  );
  if (!dto.ok) return dto;
  ctx.store.put(kindOf(spec), id, dto.value, {
    parent: parent.value ?? null,
    owner: ctx.call.integration,
  });
  return ok(shape(responseFields(spec), dto.value), spec.createStatus ?? 201);
}

function patch(spec: ResourceSpec, ctx: Ctx, r: Stored): Result<Reply> {
  if (spec.ownRecordsOnly && r.owner !== ctx.call.integration)
    return fail(notOwn(spec.entity, r.id));
  const doc = JsonPatch.safeParse(ctx.call.body);
  if (!doc.success) return fail(schemaProblem(doc.error, "patch"));
  const codeFields = new Map(
    (spec.refs ?? []).flatMap((ref) => (ref.code ? [[ref.code.toLowerCase(), ref] as const] : [])),
  );
  for (const op of doc.data) {
    const ref = codeFields.get((pointerTokens(op.path)[0] ?? "").toLowerCase());
    if (ref)
      return fail(
        problems.validation(
          spec.entity,
          `PATCH refers to other records by Id only: use /${ref.id} instead of /${ref.code}.`,
        ),
      );
  }
  const view = writableView(spec, spec.writable?.(r.dto) ?? r.dto);
  const applied = applyPatch(view, doc.data);
  if (!applied.ok)
    return fail(
      problems.validation(spec.entity, `Operation ${applied.index}: ${applied.message}.`),
    );
  const parsed = spec.post.safeParse(applied.value);
  if (!parsed.success) return fail(schemaProblem(parsed.error));
  const next: Dto = { ...r.dto };
  for (const key of Object.keys(spec.post.shape)) next[key] = (parsed.data as Dto)[key] ?? null;
  // The code of a reference follows its Id; a stale code must not win over the new Id.
  for (const ref of spec.refs ?? [])
    if (ref.code && next[ref.id] !== r.dto[ref.id]) next[ref.code] = null;
  if ("LastChangedDateTimeOffset" in next) next.LastChangedDateTimeOffset = ctx.now.toISOString();
  const dto = finish(spec, ctx, next, r.id);
  if (!dto.ok) return dto;
  ctx.store.put(kindOf(spec), r.id, dto.value, { parent: r.parent, owner: r.owner });
  return ok(answer(spec, { ...r, dto: dto.value }, ctx));
}

function remove(spec: ResourceSpec, ctx: Ctx, r: Stored): Result<Reply> {
  if (spec.ownRecordsOnly && r.owner !== ctx.call.integration)
    return fail(notOwn(spec.entity, r.id));
  const busy = spec.inUse?.(r.id, ctx);
  if (busy)
    return fail(
      problems.conflict(
        spec.entity,
        `${spec.entity} with id = ${r.id} is in use and cannot be deleted. ${busy}`,
      ),
    );
  ctx.store.remove(kindOf(spec), r.id);
  return empty(200);
}

/** Uniqueness, number series, references and the resource's own rules, in the API's order. */
function finish(spec: ResourceSpec, ctx: Ctx, dto: Dto, self: string | null): Result<Dto> {
  const resolved = resolveRefs(ctx, spec.refs ?? [], dto);
  if (!resolved.ok) return resolved;
  let out = resolved.value;
  if (spec.numbered) {
    const { field, first, last } = spec.numbered;
    const given = out[field];
    if (given === null || given === undefined) {
      const used = new Set(ctx.store.all(kindOf(spec)).map((r) => r.dto[field]));
      let n = first;
      while (used.has(n)) n++;
      if (n > last)
        return fail(
          problems.validation(spec.entity, `The number series ${first}-${last} is full.`),
        );
      out = { ...out, [field]: n };
    } else if (typeof given === "number" && (given < first || given > last)) {
      return fail(
        problems.validation(
          spec.entity,
          `${field} ${given} is outside the number series ${first}-${last}.`,
        ),
      );
    }
  }
  for (const field of spec.unique ?? []) {
    const value = out[field];
    if (value === null || value === undefined || value === "") continue;
    const taken = ctx.store
      .all(kindOf(spec))
      .find((r) => r.id !== (self ?? String(out.Id)) && sameValue(r.dto[field], value));
    if (taken)
      return fail(
        problems.validation(
          spec.entity,
          `${field} is already in use. '${String(value)}' is used on (${spec.label ?? spec.entity.toLowerCase()}) Id = ${taken.id}.`,
        ),
      );
  }
  if (spec.derive) out = { ...out, ...spec.derive(out, ctx) };
  const rule = spec.check?.(out, ctx, self);
  return rule ? fail(rule) : { ok: true, value: out };
}

/**
 * Resolves each reference: by Id when given (which wins), else by code; a missing target is a 404.
 */
export function resolveRefs(ctx: Ctx, refs: readonly Ref[], dto: Dto): Result<Dto> {
  const out = { ...dto };
  for (const ref of refs) {
    const id = out[ref.id];
    const code = ref.code ? out[ref.code] : null;
    if (id !== null && id !== undefined) {
      const target = ctx.store.get(ref.kind, String(id));
      if (!target) return fail(problems.notFound(ref.entity, String(id)));
      if (ref.code) out[ref.code] = target.dto[ref.by ?? "Code"] ?? null;
    } else if (ref.code && code !== null && code !== undefined && code !== "") {
      const target = ctx.store.findBy(ref.kind, ref.by ?? "Code", code);
      if (!target)
        return fail({
          status: 404,
          title: "Object(s) not found",
          detail: `${ref.entity} with code = '${String(code)}' not found.`,
        });
      out[ref.id] = typeof target.dto.Id === "number" ? target.dto.Id : target.id;
      // Codes match in any casing; the record answers with the target's own spelling.
      out[ref.code] = target.dto[ref.by ?? "Code"] ?? code;
    }
  }
  return { ok: true, value: out };
}

/**
 * The document a JSON Patch works on: the body's properties, without server-set parts of nested
 * objects.
 */
function writableView(spec: ResourceSpec, dto: Dto): Dto {
  const view: Dto = {};
  for (const key of Object.keys(spec.post.shape)) {
    const v = dto[key];
    if (v === null || v === undefined) continue;
    if (typeof v === "object" && !Array.isArray(v)) {
      const { Id: _id, LastChangedDateTimeOffset: _changed, ...rest } = v as Dto;
      view[key] = rest;
    } else {
      view[key] = v;
    }
  }
  return view;
}

function stripNulls(d: Dto): Dto {
  return Object.fromEntries(Object.entries(d).filter(([, v]) => v !== undefined));
}

function sameValue(a: unknown, b: unknown): boolean {
  return typeof a === "string" && typeof b === "string"
    ? a.toLowerCase() === b.toLowerCase()
    : a === b;
}

export function notOwn(entity: string, id: string): Problem {
  return {
    status: 403,
    title: "Forbidden",
    detail: `${entity} with id = ${id} was created by another integration; only its creator may change it.`,
  };
}
