/**
 * @module
 * Shape-agnostic records, for the operations whose v2 request and response shapes no reachable
 * source publishes (budgets, shareholders, UBOs, supplier payment terms, imports, bank transfers,
 * the newer journal posts and the quality module). The sandbox stores the JSON object the caller
 * sends, whatever its property names, adds only `Id`, and answers what it stored; lists, paging,
 * `Fields`, `OrderBy`, JSON Patch and delete work as for every other resource.
 *
 * Why no other field: any name the sandbox chose (a status, a parent id, a timestamp) would teach
 * integrators a name the real API may not use. What the sandbox must remember besides the caller's
 * object (who the record hangs under, when it changed, whether an import is posted) is kept in a
 * separate `meta` part of the stored document that no answer ever shows.
 */
import { JsonPatch } from "../../../shared/v2/json-patch";
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
import { filter, predicateOf } from "./filters";
import type { Dto, Stored } from "./store";

/**
 * The header (and its value) that marks an answer whose fields are the caller's own: no v2 shape is
 * published.
 */
export const SHAPE_HEADER = "x-sandbox-shape";
export const UNPUBLISHED = { [SHAPE_HEADER]: "unpublished" } as const;

/** One kind of shape-agnostic record. */
export interface FreeSpec {
  /** Storage kind, e.g. `Budget`. */
  kind: string;
  /** Entity name in problem titles ("Budget validation error(s)"). */
  entity: string;
  /** Ids as the reference says: GUIDs for imports and bank transfers, integers otherwise. */
  idType: "int" | "uuid";
}

/** What is stored: the caller's object, and the sandbox's own notes that no answer shows. */
interface FreeDoc {
  body: Dto;
  meta: Dto;
}

const docOf = (r: Stored) => r.dto as unknown as FreeDoc;

/** The record as the API answers it: `Id`, then the caller's own properties. */
export function freeDto(spec: FreeSpec, r: Stored): Dto {
  return { Id: spec.idType === "int" ? Number(r.id) : r.id, ...docOf(r).body };
}

/** The sandbox's notes on a record (parent, times, state); never part of an answer. */
export function freeMeta(r: Stored): Dto {
  return docOf(r).meta;
}

/** Stores a new record of `spec` and returns it. */
export function createFree(
  ctx: Ctx,
  spec: FreeSpec,
  body: Dto,
  opts: { parent?: string | null; meta?: Dto } = {},
): Stored {
  const id = spec.idType === "uuid" ? crypto.randomUUID() : String(ctx.store.nextId());
  const at = ctx.now.toISOString();
  const doc: FreeDoc = { body, meta: { created: at, changed: at, ...opts.meta } };
  ctx.store.put(spec.kind, id, doc as unknown as Dto, {
    parent: opts.parent ?? null,
    owner: ctx.call.integration,
  });
  return ctx.store.get(spec.kind, id) as Stored;
}

/** Replaces the notes of a record (its body stays). */
export function updateMeta(ctx: Ctx, spec: FreeSpec, r: Stored, meta: Dto): Stored {
  const doc: FreeDoc = {
    body: docOf(r).body,
    meta: { ...docOf(r).meta, ...meta, changed: ctx.now.toISOString() },
  };
  ctx.store.put(spec.kind, r.id, doc as unknown as Dto, { parent: r.parent, owner: r.owner });
  return ctx.store.get(spec.kind, r.id) as Stored;
}

/**
 * The caller's JSON object, without an `Id` of its own (the sandbox assigns it). Anything but an
 * object is refused: a record needs property names, even if the sandbox does not know them.
 */
export function bodyObject(spec: FreeSpec, body: unknown): Result<Dto> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return fail(problems.validation(spec.entity, "The body must be a JSON object."));
  const { Id: _ignored, ...rest } = body as Dto;
  return { ok: true, value: rest };
}

/** The record `{param}` of `spec` (under `parent` when given), or the API's 404. */
export function findFree(ctx: Ctx, spec: FreeSpec, param = "id", parent?: string): Result<Stored> {
  const id = spec.idType === "uuid" ? uuidParam(ctx, param) : intParam(ctx, param);
  if (!id.ok) return id;
  const r = ctx.store.get(spec.kind, id.value);
  if (!r || (parent !== undefined && r.parent !== parent))
    return fail(problems.notFound(spec.entity, id.value));
  return { ok: true, value: r };
}

/** `201` (or `status`) with the stored record. */
export function createdReply(spec: FreeSpec, r: Stored, status = 201): Result<Reply> {
  return ok(freeDto(spec, r), status);
}

/** Creates from the call's body and answers it. */
export function createFromBody(
  ctx: Ctx,
  spec: FreeSpec,
  opts: { parent?: string | null; meta?: Dto } = {},
): Result<Reply> {
  const body = bodyObject(spec, ctx.call.body);
  return body.ok ? createdReply(spec, createFree(ctx, spec, body.value, opts)) : body;
}

/**
 * `current` with the JSON Patch `patch` applied. `guard` may refuse an operation by its path (a
 * property the seed says cannot change this way); `Id` is the sandbox's and never changes.
 */
export function patchedObject(
  spec: FreeSpec,
  current: Dto,
  patch: unknown,
  guard?: (path: string) => Problem | null,
): Result<Dto> {
  const doc = JsonPatch.safeParse(patch);
  if (!doc.success) return fail(schemaProblem(doc.error, "patch"));
  for (const op of doc.data) {
    const paths = "from" in op ? [op.path, op.from] : [op.path];
    if (paths.some((p) => /^\/id(\/|$)/i.test(p)))
      return fail(
        problems.validation(spec.entity, "Id is assigned by the server and cannot be changed."),
      );
    const refused = paths.map((p) => guard?.(p) ?? null).find(Boolean);
    if (refused) return fail(refused);
  }
  const applied = applyPatch(current, doc.data);
  if (!applied.ok)
    return fail(
      problems.validation(spec.entity, `Operation ${applied.index}: ${applied.message}.`),
    );
  return bodyObject(spec, applied.value);
}

/** Applies the call's JSON Patch to the caller's object of `r` and answers the result. */
export function patchFree(ctx: Ctx, spec: FreeSpec, r: Stored): Result<Reply> {
  const body = patchedObject(spec, docOf(r).body, ctx.call.body);
  if (!body.ok) return body;
  const next: FreeDoc = {
    body: body.value,
    meta: { ...docOf(r).meta, changed: ctx.now.toISOString() },
  };
  ctx.store.put(spec.kind, r.id, next as unknown as Dto, { parent: r.parent, owner: r.owner });
  return ok(freeDto(spec, ctx.store.get(spec.kind, r.id) as Stored));
}

/** Deletes a record and everything stored under it in `children` kinds. */
export function removeFree(
  ctx: Ctx,
  spec: FreeSpec,
  r: Stored,
  children: readonly string[] = [],
): Result<Reply> {
  for (const kind of children) ctx.store.removeChildren(kind, r.id);
  ctx.store.remove(spec.kind, r.id);
  return empty(200);
}

/**
 * A list of records: the change-polling filters the API's lists share (matched against the
 * sandbox's own times, since the caller's object has none it must name), then paging, `Fields` and
 * `OrderBy` over the properties the records carry.
 */
export function listFree(ctx: Ctx, spec: FreeSpec, rows: readonly Stored[]): Result<Reply> {
  const pred = predicateOf(
    [
      filter("createdDateTimeOffsetGreaterThan", "created", "after"),
      filter("lastChangedDateTimeOffsetGreaterThan", "changed", "after"),
    ],
    ctx.q,
  );
  if (!pred.ok) return pred;
  return listReply(
    ctx,
    rows.filter((r) => pred.value(freeMeta(r))).map((r) => freeDto(spec, r)),
  );
}

/**
 * The operations of a plain shape-agnostic resource at `path` (list, create) and `path/{param}`
 * (get, patch, delete), or only the `only` methods.
 */
export function freeHandlers(
  spec: FreeSpec,
  path: string,
  param = "id",
  only?: readonly string[],
): Record<string, Handler> {
  const item = `${path}/{${param}}`;
  const all: Record<string, Handler> = {
    [`GET ${path}`]: (ctx) => listFree(ctx, spec, ctx.store.all(spec.kind)),
    [`POST ${path}`]: (ctx) => createFromBody(ctx, spec),
    [`GET ${item}`]: (ctx) => withFree(ctx, spec, param, (r) => ok(freeDto(spec, r))),
    [`PATCH ${item}`]: (ctx) => withFree(ctx, spec, param, (r) => patchFree(ctx, spec, r)),
    [`DELETE ${item}`]: (ctx) => withFree(ctx, spec, param, (r) => removeFree(ctx, spec, r)),
  };
  return only
    ? Object.fromEntries(
        Object.entries(all).filter(([key]) => only.includes(key.split(" ")[0] ?? "")),
      )
    : all;
}

/** Runs `then` on the record `{param}`, or answers its 404. */
export function withFree(
  ctx: Ctx,
  spec: FreeSpec,
  param: string,
  then: (r: Stored) => Result<Reply>,
  parent?: string,
): Result<Reply> {
  const r = findFree(ctx, spec, param, parent);
  return r.ok ? then(r.value) : r;
}
