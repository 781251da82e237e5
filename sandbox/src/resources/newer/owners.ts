/**
 * @module
 * Contact shareholders and ultimate beneficial owners, shape-agnostic (no v2 shape is published).
 * What the seed and the reference state: each hangs under an existing contact (404 for an unknown
 * one), which the v1 reference says is a customer or a supplier, and each follows the contact
 * access policy of the other contact sub-resources: the group's own privilege, or the owning
 * contact kind's (read forms read, `_Full` forms write), with lists leaving out contacts the caller
 * cannot read.
 *
 * The seed names `POST /ContactShareholders` without a contact; there the contact comes from the
 * `contactId` query parameter (the sandbox's choice: a body property would have to be a guessed
 * name).
 */
import { fail, ok, type Ctx, type Handler } from "../../engine/call";
import {
  createFromBody,
  freeDto,
  listFree,
  patchFree,
  removeFree,
  withFree,
  type FreeSpec,
} from "../../engine/free";
import { filter, predicateOf } from "../../engine/filters";
import type { Stored } from "../../engine/store";
import { problems, type Result } from "../../lib/problem";
import { contactOf, mayReach, type Contact, type ContactKind } from "../contact-scope";

/** One group of records under a contact. */
interface OwnerSpec extends FreeSpec {
  path: string;
  /** The group's own privilege, e.g. `Shareholder` (`Shareholder_Full` writes). */
  privilege: string;
}

/** The contact kinds these records exist for ([V1]: the owner is a customer or a supplier). */
const KINDS: readonly ContactKind[] = ["Customer", "Supplier"];

const SHAREHOLDERS: OwnerSpec = {
  kind: "ContactShareholder",
  entity: "ContactShareholder",
  idType: "int",
  path: "/ContactShareholders",
  privilege: "Shareholder",
};
const UBOS: OwnerSpec = {
  kind: "ContactUBO",
  entity: "ContactUBO",
  idType: "int",
  path: "/ContactUBOs",
  privilege: "UBO",
};

/**
 * The contact of the call, checked to exist, to be of a kind that has these records, and to be
 * within reach.
 */
function reachable(ctx: Ctx, spec: OwnerSpec, write: boolean): Result<Contact> {
  const contact = contactOf(ctx);
  if (!contact.ok) return contact;
  const { kind, id } = contact.value;
  if (!KINDS.includes(kind))
    return fail(
      problems.validation(spec.entity, `Not available for ${kind.toLowerCase()} contacts.`),
    );
  if (mayReach(ctx.call.privileges, spec.privilege, kind, write)) return contact;
  const need = write
    ? `${spec.privilege}_Full or ${kind}_Full`
    : `${spec.privilege}, ${kind} or their _Full forms`;
  return fail({
    status: 403,
    title: "Forbidden",
    detail: `Contact with id = ${id} is a ${kind.toLowerCase()}; ${write ? "changing" : "reading"} its records needs ${need}.`,
  });
}

/**
 * The call with `{contactId}` taken from the query (for the seed's POST without a contact in the
 * path).
 */
function contactFromQuery(ctx: Ctx): Result<Ctx> {
  const raw = ctx.q.get("contactid")?.trim();
  if (!raw)
    return fail({
      status: 400,
      title: "One or more validation errors occurred.",
      detail: "The contactId field is required.",
      errors: { contactId: ["The contactId field is required."] },
    });
  return {
    ok: true,
    value: { ...ctx, call: { ...ctx.call, params: { ...ctx.call.params, contactId: raw } } },
  };
}

function create(ctx: Ctx, spec: OwnerSpec): ReturnType<Handler> {
  const contact = reachable(ctx, spec, true);
  return contact.ok ? createFromBody(ctx, spec, { parent: contact.value.id }) : contact;
}

/** Runs `then` on record `{id}` of the path's contact, once the contact is within reach. */
const onRecord =
  (spec: OwnerSpec, write: boolean, then: (ctx: Ctx, r: Stored) => ReturnType<Handler>): Handler =>
  (ctx) => {
    const contact = reachable(ctx, spec, write);
    return contact.ok ? withFree(ctx, spec, "id", (r) => then(ctx, r), contact.value.id) : contact;
  };

/** Every record of the group whose contact the caller may read, filtered by `contactIds`. */
function list(ctx: Ctx, spec: OwnerSpec): ReturnType<Handler> {
  const pred = predicateOf([filter("contactIds", "contact", "ids")], ctx.q);
  if (!pred.ok) return pred;
  const readable = new Set(
    KINDS.filter((k) => mayReach(ctx.call.privileges, spec.privilege, k, false)).flatMap((k) =>
      ctx.store.all(k).map((c) => c.id),
    ),
  );
  return listFree(
    ctx,
    spec,
    ctx.store
      .all(spec.kind)
      .filter(
        (r) => r.parent !== null && readable.has(r.parent) && pred.value({ contact: r.parent }),
      ),
  );
}

function handlers(spec: OwnerSpec): Record<string, Handler> {
  const item = `${spec.path}/{contactId}/{id}`;
  return {
    [`GET ${spec.path}`]: (ctx) => list(ctx, spec),
    [`POST ${spec.path}/{contactId}`]: (ctx) => create(ctx, spec),
    [`GET ${item}`]: onRecord(spec, false, (_ctx, r) => ok(freeDto(spec, r))),
    [`PATCH ${item}`]: onRecord(spec, true, (ctx, r) => patchFree(ctx, spec, r)),
    [`DELETE ${item}`]: onRecord(spec, true, (ctx, r) => removeFree(ctx, spec, r)),
  };
}

export const ownerHandlers: Record<string, Handler> = {
  ...handlers(SHAREHOLDERS),
  ...handlers(UBOS),
  "POST /ContactShareholders": (ctx) => {
    const withContact = contactFromQuery(ctx);
    return withContact.ok ? create(withContact.value, SHAREHOLDERS) : withContact;
  },
};
