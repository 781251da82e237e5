/**
 * @module
 * The records that hang under a contact (persons, bank accounts, delivery addresses): which contact
 * a call is about, whether the caller may reach it, and the five operations around the standard
 * resource engine. A contact is a Customer, Supplier or Employee record whose id is `{contactId}`;
 * ids come from one counter per client, so an id names at most one of them.
 *
 * Access: the catalog lets the owner kinds' privileges (Customer, Supplier, Employee) reach these
 * endpoints. Held without the detail's own privilege (e.g. ContactBankAccount), such a privilege
 * reaches only contacts of its own kind, and only its `_Full` form writes; the API documents the
 * list as "coupled with the contact access privileges", so lists leave out what the caller cannot
 * read.
 */
import { fail, intParam, listReply, type Ctx, type Handler, type Reply } from "../engine/call";
import { predicateOf, type Filter } from "../engine/filters";
import { resourceHandlers, responseFields, type ResourceSpec } from "../engine/resource";
import { shape, type Dto } from "../engine/store";
import { problems, type Problem, type Result } from "../lib/problem";

export const CONTACT_KINDS = ["Customer", "Supplier", "Employee"] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];

/** A contact: its kind and id. */
export interface Contact {
  kind: ContactKind;
  id: string;
}

/** One kind of contact detail. */
export interface DetailSpec {
  /**
   * The list path, e.g. `/ContactPersons`; the others are `{path}/{contactId}` and
   * `{path}/{contactId}/{id}`.
   */
  path: string;
  /** The detail's own privilege, e.g. `ContactPerson`. */
  privilege: string;
  /** The kinds of contact the detail exists for. */
  kinds: readonly ContactKind[];
  /** Why a contact of a kind not in `kinds` is refused (a 400). */
  wrongKind?: string;
  filters: readonly Filter[];
  /** The engine's resource, without path and parent (they come from here). */
  resource: Omit<ResourceSpec, "path" | "parent" | "filters">;
  /**
   * A flag at most one record of a contact holds (IsDefault, IsPrimary): setting it clears it on
   * the others.
   */
  exclusive?: string;
  /**
   * With `exclusive`: a contact that has records always has one holder; deleting it passes the flag
   * on.
   */
  keepHolder?: boolean;
}

/** The contact `{contactId}` names, or 404. */
export function contactOf(ctx: Ctx): Result<Contact> {
  const id = intParam(ctx, "contactId");
  if (!id.ok) return id;
  for (const kind of CONTACT_KINDS)
    if (ctx.store.get(kind, id.value)) return { ok: true, value: { kind, id: String(id.value) } };
  return fail(problems.notFound("Contact", id.value));
}

/** Whether `privileges` reach a contact of `kind` through the detail privilege `own`. */
export function mayReach(
  privileges: readonly string[],
  own: string,
  kind: ContactKind,
  write: boolean,
): boolean {
  const held = new Set(privileges);
  return (
    held.has(`${own}_Full`) ||
    held.has(`${kind}_Full`) ||
    (!write && (held.has(own) || held.has(kind)))
  );
}

function forbidden(spec: DetailSpec, contact: Contact, write: boolean): Problem {
  const need = write
    ? `${spec.privilege}_Full or ${contact.kind}_Full`
    : `${spec.privilege}, ${contact.kind} or their _Full forms`;
  return {
    status: 403,
    title: "Forbidden",
    detail: `Contact with id = ${contact.id} is a ${contact.kind.toLowerCase()}; ${write ? "changing" : "reading"} its records needs ${need}.`,
  };
}

/** The handlers of one detail, keyed as the catalog names them. */
export function detailHandlers(spec: DetailSpec): Record<string, Handler> {
  const kind = spec.resource.kind ?? spec.resource.entity;
  const collection = `${spec.path}/{contactId}`;
  const item = `${collection}/{id}`;
  // One engine resource per contact kind: the engine checks the parent against a single kind.
  const byKind = new Map(
    spec.kinds.map((k) => [
      k,
      resourceHandlers(
        {
          ...spec.resource,
          path: collection,
          parent: { param: "contactId", kind: k, entity: "Contact", field: "ContactId" },
        },
        ["create", "get", "patch", "delete"],
      ),
    ]),
  );

  const scoped =
    (key: string, write: boolean): Handler =>
    (ctx) => {
      const contact = contactOf(ctx);
      if (!contact.ok) return contact;
      const handlers = byKind.get(contact.value.kind);
      if (!handlers)
        return fail(
          problems.validation(
            spec.resource.entity,
            spec.wrongKind ?? `Not available for ${contact.value.kind.toLowerCase()} contacts.`,
          ),
        );
      if (!mayReach(ctx.call.privileges, spec.privilege, contact.value.kind, write))
        return fail(forbidden(spec, contact.value, write));
      let before: Dto | null = null;
      if (key !== `POST ${collection}`) {
        const found = itemOf(ctx, spec, kind, contact.value.id);
        if (!found.ok) return found;
        before = found.value;
      }
      const result = (handlers[key] as Handler)(ctx);
      if (result.ok && spec.exclusive)
        settleFlag(
          ctx,
          spec,
          kind,
          contact.value.id,
          key.startsWith("DELETE") ? null : (result.value.json as Dto),
          before,
        );
      return result;
    };

  return {
    [`GET ${spec.path}`]: (ctx) => list(ctx, spec, kind),
    [`POST ${collection}`]: scoped(`POST ${collection}`, true),
    [`GET ${item}`]: scoped(`GET ${item}`, false),
    [`PATCH ${item}`]: scoped(`PATCH ${item}`, true),
    [`DELETE ${item}`]: scoped(`DELETE ${item}`, true),
  };
}

/** The record `{id}` of the contact, or the 404 the API words for it. */
function itemOf(ctx: Ctx, spec: DetailSpec, kind: string, contactId: string): Result<Dto> {
  const id = intParam(ctx, "id");
  if (!id.ok) return id;
  const r = ctx.store.get(kind, id.value);
  if (r && r.parent === contactId) return { ok: true, value: r.dto };
  return fail({
    status: 404,
    title: "Object(s) not found",
    detail: `${spec.resource.entity} with id = ${id.value} not found on Contact with id = ${contactId}.`,
  });
}

/**
 * Keeps the exclusive flag with at most one record of the contact (exactly one with `keepHolder`).
 */
function settleFlag(
  ctx: Ctx,
  spec: DetailSpec,
  kind: string,
  contactId: string,
  changed: Dto | null,
  before: Dto | null,
): void {
  const flag = spec.exclusive as string;
  const at = ctx.now.toISOString();
  const rows = ctx.store.all(kind, contactId);
  const write = (r: (typeof rows)[number], value: boolean) => {
    const dto = { ...r.dto, [flag]: value };
    if ("LastChangedDateTimeOffset" in dto) dto.LastChangedDateTimeOffset = at;
    ctx.store.put(kind, r.id, dto, { parent: r.parent, owner: r.owner });
  };
  if (changed?.[flag] === true) {
    for (const r of rows) if (r.id !== String(changed.Id) && r.dto[flag] === true) write(r, false);
  } else if (!changed && spec.keepHolder && before?.[flag] === true && rows[0]) {
    // The holder was deleted: the oldest remaining record takes the flag over.
    write(rows[0], true);
  }
}

function list(ctx: Ctx, spec: DetailSpec, kind: string): Result<Reply> {
  const pred = predicateOf(spec.filters, ctx.q);
  if (!pred.ok) return pred;
  const readable = new Set(
    spec.kinds
      .filter((k) => mayReach(ctx.call.privileges, spec.privilege, k, false))
      .flatMap((k) => ctx.store.all(k).map((c) => c.id)),
  );
  const fields = responseFields(spec.resource);
  const rows = ctx.store
    .all(kind)
    .filter((r) => r.parent !== null && readable.has(r.parent))
    .map((r) => r.dto)
    .filter(pred.value)
    .map((d) => shape(fields, d));
  return listReply(ctx, rows, fields);
}
