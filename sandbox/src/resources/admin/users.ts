/**
 * @module
 * Users of a partner's clients (`/ClientAdmin/{clientId}/Users...`) and the clients a user can
 * reach (`/ClientAdmin/{userId}/UserAccessRoles`). An invited user has no Id until the invitation
 * is accepted (per `UserDto.Id`); nobody accepts in the sandbox, so an invite stays InvitePending
 * and is seen only in the client's user list.
 */
import { z } from "zod";
import {
  type AddPartnerUserPost,
  type InviteUserPost,
  userPatchableFields,
} from "../../../../shared/v2/clients";
import { JsonPatch, pointerTokens } from "../../../../shared/v2/json-patch";
import { isoDate, opt } from "../../../../shared/v2/schema-kit";
import {
  fail,
  listReply,
  ok,
  problems,
  uuidParam,
  type Ctx,
  type Handler,
  type Reply,
} from "../../engine/call";
import type { Dto, Stored } from "../../engine/store";
import { applyPatch } from "../../lib/json-patch";
import { schemaProblem, type Result } from "../../lib/problem";
import { USER_DTO_FIELDS } from "../fields/admin";
import { accessRoleProblem, CLIENT_KIND, partnerClient, USER_KIND, userKey } from "./clients";

/**
 * `UserDto`: the invite body's fields (less InviteAsEmployee, which only matters on acceptance) and
 * the server's.
 */
const USER_FIELDS = [
  "AccessRoleId",
  "EmailAddress",
  "FirstName",
  "FromDate",
  "LastName",
  "ToDate",
  ...USER_DTO_FIELDS,
] as const;

/** What a user's JSON Patch must leave behind: the role is required, the period inclusive. */
const UserPatched = z.strictObject({
  AccessRoleId: z.guid(),
  FromDate: opt(isoDate),
  ToDate: opt(isoDate),
});

/**
 * The user as the API shows it: access outside FromDate..ToDate (inclusive) makes it Inactive on
 * the client.
 */
function present(dto: Dto, ctx: Ctx): Dto {
  if (dto.Status === "InvitePending") return dto;
  const today = ctx.now.toISOString().slice(0, 10);
  const outside =
    (typeof dto.FromDate === "string" && today < dto.FromDate) ||
    (typeof dto.ToDate === "string" && today > dto.ToDate);
  return { ...dto, Status: outside ? "Inactive" : "Active" };
}

function periodProblem(from: string | null | undefined, to: string | null | undefined) {
  return from && to && to < from
    ? problems.validation("Users", `ToDate (${to}) must not be before FromDate (${from}).`)
    : null;
}

/** A user with an Id on the given client, or 404. */
function userOn(ctx: Ctx, client: Stored): Result<Stored> {
  const id = uuidParam(ctx, "userId");
  if (!id.ok) return id;
  const user = ctx.store.get(USER_KIND, userKey(client.id, id.value));
  return user ? { ok: true, value: user } : fail(problems.notFound("User", id.value));
}

const listUsers: Handler = (ctx) => {
  const client = partnerClient(ctx);
  if (!client.ok) return client;
  return listReply(
    ctx,
    ctx.store.all(USER_KIND, client.value.id).map((r) => present(r.dto, ctx)),
    USER_FIELDS,
  );
};

const getUser: Handler = (ctx) => {
  const client = partnerClient(ctx);
  if (!client.ok) return client;
  const user = userOn(ctx, client.value);
  return user.ok ? ok(present(user.value.dto, ctx)) : user;
};

const invite: Handler = (ctx) => {
  const client = partnerClient(ctx);
  if (!client.ok) return client;
  const body = ctx.call.body as InviteUserPost;
  const role = accessRoleProblem(body.AccessRoleId, client.value.id);
  if (role) return fail(role);
  const email = body.EmailAddress.trim();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
    return fail(
      problems.validation("Users", `EmailAddress '${email}' is not a valid e-mail address.`),
    );
  if (ctx.store.findBy(USER_KIND, "EmailAddress", email, client.value.id)) {
    return fail(
      problems.validation(
        "Users",
        `A user with EmailAddress '${email}' is already on the client with id = ${client.value.id}.`,
      ),
    );
  }
  const dto: Dto = {
    AccessRoleId: body.AccessRoleId.toLowerCase(),
    EmailAddress: email,
    FirstName: body.FirstName,
    FromDate: body.FromDate ?? null,
    Id: null,
    LastName: body.LastName,
    Status: "InvitePending",
    ToDate: body.ToDate ?? null,
  };
  ctx.store.put(USER_KIND, userKey(client.value.id, crypto.randomUUID()), dto, {
    parent: client.value.id,
    owner: ctx.call.integration,
  });
  return ok(dto);
};

const addPartnerUser: Handler = (ctx) => {
  const client = partnerClient(ctx);
  if (!client.ok) return client;
  const body = ctx.call.body as AddPartnerUserPost;
  const role = accessRoleProblem(body.AccessRoleId, client.value.id);
  if (role) return fail(role);
  const id = body.PartnerUserId.toLowerCase();
  if (ctx.store.get(USER_KIND, userKey(client.value.id, id))) {
    return fail(
      problems.validation(
        "Users",
        `User with id = ${id} is already on the client with id = ${client.value.id}.`,
      ),
    );
  }
  // The sandbox has no directory of the partner's users: any id is taken as one, and its name is
  // known only if it is already on another of the partner's clients.
  const known = ctx.store.findBy(USER_KIND, "Id", id)?.dto;
  const dto: Dto = {
    AccessRoleId: body.AccessRoleId.toLowerCase(),
    EmailAddress: known?.EmailAddress ?? null,
    FirstName: known?.FirstName ?? null,
    FromDate: body.FromDate ?? null,
    Id: id,
    LastName: known?.LastName ?? null,
    Status: "Active",
    ToDate: body.ToDate ?? null,
  };
  ctx.store.put(USER_KIND, userKey(client.value.id, id), dto, {
    parent: client.value.id,
    owner: ctx.call.integration,
  });
  return ok(present(dto, ctx));
};

const patchUser: Handler = (ctx) => {
  const client = partnerClient(ctx);
  if (!client.ok) return client;
  const user = userOn(ctx, client.value);
  if (!user.ok) return user;
  return patched(ctx, client.value.id, user.value);
};

function patched(ctx: Ctx, clientId: string, user: Stored): Result<Reply> {
  const doc = JsonPatch.safeParse(ctx.call.body);
  if (!doc.success) return fail(schemaProblem(doc.error, "patch"));
  for (const op of doc.data) {
    const field = pointerTokens(op.path)[0] ?? "";
    if (![...userPatchableFields].includes(field)) {
      return fail(
        problems.validation(
          "Users",
          `${op.path} cannot be changed; a user's AccessRoleId, FromDate and ToDate can.`,
        ),
      );
    }
  }
  const view = Object.fromEntries(
    [...userPatchableFields].flatMap((f) =>
      user.dto[f] === null || user.dto[f] === undefined ? [] : [[f, user.dto[f]]],
    ),
  );
  const applied = applyPatch(view, doc.data);
  if (!applied.ok)
    return fail(problems.validation("Users", `Operation ${applied.index}: ${applied.message}.`));
  const next = applied.value as Dto;
  // The API's own words for a role patched away (its 400 example for this operation).
  if (next.AccessRoleId === undefined || next.AccessRoleId === null || next.AccessRoleId === "")
    return fail(problems.validation("Users", "Access Role id cannot be empty."));
  const parsed = UserPatched.safeParse(next);
  if (!parsed.success) return fail(schemaProblem(parsed.error));
  const role = accessRoleProblem(parsed.data.AccessRoleId, clientId);
  if (role) return fail(role);
  const period = periodProblem(parsed.data.FromDate, parsed.data.ToDate);
  if (period) return fail(period);
  const dto: Dto = {
    ...user.dto,
    AccessRoleId: parsed.data.AccessRoleId.toLowerCase(),
    FromDate: parsed.data.FromDate ?? null,
    ToDate: parsed.data.ToDate ?? null,
  };
  ctx.store.put(USER_KIND, user.id, dto, { parent: user.parent, owner: user.owner });
  return ok(present(dto, ctx));
}

const userAccessRoles: Handler = (ctx) => {
  const id = uuidParam(ctx, "userId");
  if (!id.ok) return id;
  const rows = ctx.store
    .all(USER_KIND)
    .filter((r) => r.dto.Id === id.value)
    .map((r) => ({
      AccessRoleId: r.dto.AccessRoleId,
      ClientId: r.parent,
      ClientName: ctx.store.get(CLIENT_KIND, r.parent ?? "")?.dto.ClientName ?? null,
    }));
  // The spec answers 404, not 204, for a user with no clients: such a user is unknown to the
  // partner.
  if (rows.length === 0) return fail(problems.notFound("User", id.value));
  return listReply(ctx, rows, ["AccessRoleId", "ClientId", "ClientName"]);
};

export const userHandlers: Record<string, Handler> = {
  "GET /ClientAdmin/{clientId}/Users": listUsers,
  "GET /ClientAdmin/{clientId}/Users/{userId}": getUser,
  "PATCH /ClientAdmin/{clientId}/Users/{userId}": patchUser,
  "POST /ClientAdmin/{clientId}/Users/Invite": invite,
  "POST /ClientAdmin/{clientId}/Users/AddPartnerUser": addPartnerUser,
  "GET /ClientAdmin/{userId}/UserAccessRoles": userAccessRoles,
};
