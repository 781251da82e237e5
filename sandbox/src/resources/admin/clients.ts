/**
 * @module
 * `/ClientAdmin` for partner integrations: the clients a partner has created, their access roles,
 * and adding the partner's integration to one of them. The sandbox client the token belongs to
 * plays the partner's own client; the clients it creates are records under it (kind
 * `PartnerClient`), so "only clients that belong to the partner are available" means: only those
 * records.
 */
import type { ClientPost } from "../../../../shared/v2/clients";
import {
  fail,
  listReply,
  ok,
  problems,
  uuidParam,
  type Ctx,
  type Handler,
} from "../../engine/call";
import { filter, predicateOf } from "../../engine/filters";
import type { Dto, Stored } from "../../engine/store";
import type { Result } from "../../lib/problem";
import { CLIENT_DTO_FIELDS } from "../fields/admin";

export const CLIENT_KIND = "PartnerClient";
const INTEGRATION_KIND = "PartnerIntegration";
/** Users of partner clients, stored under their client. */
export const USER_KIND = "ClientUser";

/**
 * The store key of a user on a client: the same partner user can be on several clients, and an
 * invited user has no Id until it accepts, so the key is the client plus the user (or invite) id.
 */
export const userKey = (clientId: string, userOrInvite: string) => `${clientId}:${userOrInvite}`;

/** `ClientDto`: the two fields the POST body shares with it, and the server's own. */
export const CLIENT_FIELDS = ["ClientName", "OrganizationNumber", ...CLIENT_DTO_FIELDS] as const;

/**
 * Go's built-in Administrator role has this fixed id on every client (per `UserDto.AccessRoleId`).
 */
export const ADMINISTRATOR_ROLE = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";

/**
 * The access roles every partner client has. Real clients define their own beyond Administrator
 * (and inherit them from a template client); the sandbox gives each the same small set so role ids
 * can be written into tests.
 */
export const ACCESS_ROLES: readonly { AccessRoleId: string; AccessRoleName: string }[] = [
  { AccessRoleId: ADMINISTRATOR_ROLE, AccessRoleName: "Administrator" },
  { AccessRoleId: "1b0e6f3c-2d4a-4c8e-9f10-5a6b7c8d9e01", AccessRoleName: "Accountant" },
  { AccessRoleId: "1b0e6f3c-2d4a-4c8e-9f10-5a6b7c8d9e02", AccessRoleName: "Payroll" },
  { AccessRoleId: "1b0e6f3c-2d4a-4c8e-9f10-5a6b7c8d9e03", AccessRoleName: "Read only" },
];

/**
 * The partner client the path's `clientId` names, or 404: another partner's client is as unknown as
 * a made-up id.
 */
export function partnerClient(ctx: Ctx): Result<Stored> {
  const id = uuidParam(ctx, "clientId");
  if (!id.ok) return id;
  const client = ctx.store.get(CLIENT_KIND, id.value);
  return client ? { ok: true, value: client } : fail(problems.notFound("Client", id.value));
}

/** Whether `roleId` is an access role of the client, or the API's 404 naming both. */
export function accessRoleProblem(roleId: string, clientId: string) {
  if (ACCESS_ROLES.some((r) => r.AccessRoleId === roleId.toLowerCase())) return null;
  return {
    status: 404,
    title: "Object(s) not found",
    detail: `Access Role id = ${roleId} is not found for the Client with id = ${clientId}.`,
  };
}

const listClients: Handler = (ctx) => {
  const pred = predicateOf([filter("isActive", "IsActive", "bool")], ctx.q);
  if (!pred.ok) return pred;
  return listReply(
    ctx,
    ctx.store
      .all(CLIENT_KIND)
      .map((r) => r.dto)
      .filter(pred.value),
    CLIENT_FIELDS,
  );
};

const createClient: Handler = (ctx) => {
  const body = ctx.call.body as ClientPost;
  if (body.TemplateClientId && !ctx.store.get(CLIENT_KIND, body.TemplateClientId.toLowerCase())) {
    return fail(problems.notFound("Client", body.TemplateClientId));
  }
  const id = crypto.randomUUID();
  // A new client starts active; nothing in API v2 deactivates one.
  const dto: Dto = {
    ClientName: body.ClientName,
    Id: id,
    IsActive: true,
    OrganizationNumber: body.OrganizationNumber,
  };
  ctx.store.put(CLIENT_KIND, id, dto, { owner: ctx.call.integration });
  // "This user will automatically be added to the client as an administrator." Its name is known
  // only if the partner user already appears on another of the partner's clients.
  const admin = body.AdminUserId.toLowerCase();
  const known = ctx.store.findBy(USER_KIND, "Id", admin)?.dto;
  ctx.store.put(
    USER_KIND,
    userKey(id, admin),
    {
      AccessRoleId: ADMINISTRATOR_ROLE,
      EmailAddress: known?.EmailAddress ?? null,
      FirstName: known?.FirstName ?? null,
      FromDate: null,
      Id: admin,
      LastName: known?.LastName ?? null,
      Status: "Active",
      ToDate: null,
    },
    { parent: id, owner: ctx.call.integration },
  );
  return ok(dto);
};

const addIntegration: Handler = (ctx) => {
  const client = partnerClient(ctx);
  if (!client.ok) return client;
  // One active instance of an application per client, as the platform's own integrations have.
  if (ctx.store.get(INTEGRATION_KIND, client.value.id)) {
    return fail(
      problems.validation(
        "Client",
        `The integration is already added to the client with id = ${client.value.id}.`,
      ),
    );
  }
  ctx.store.put(
    INTEGRATION_KIND,
    client.value.id,
    { ClientId: client.value.id, AddedDateTimeOffset: ctx.now.toISOString() },
    { owner: ctx.call.integration },
  );
  const c = client.value.dto;
  // The ClientKey is a fresh uuid of the right form, but partner clients live only inside this
  // sandbox client's data: the token endpoint does not know them, so the key cannot get a token.
  return ok({
    ClientId: c.Id,
    ClientKey: crypto.randomUUID(),
    ClientName: c.ClientName,
    OrganizationNumber: c.OrganizationNumber,
  });
};

const accessRoles: Handler = (ctx) => {
  const client = partnerClient(ctx);
  if (!client.ok) return client;
  return listReply(
    ctx,
    ACCESS_ROLES.map((r) => ({ ...r })),
    ["AccessRoleId", "AccessRoleName"],
  );
};

/**
 * The access roles a template client hands down, with the seed's `IsTemplateRole`: every role of
 * the sandbox's set except Administrator, which each client has of its own rather than from a
 * template. (The shape beyond the published role fields is unpublished; the sandbox's choice.)
 */
const templateAccessRoles: Handler = (ctx) =>
  listReply(
    ctx,
    ACCESS_ROLES.map((r) => ({ ...r, IsTemplateRole: r.AccessRoleId !== ADMINISTRATOR_ROLE })),
    ["AccessRoleId", "AccessRoleName", "IsTemplateRole"],
  );

export const clientHandlers: Record<string, Handler> = {
  "GET /ClientAdmin/TemplateAccessRoles": templateAccessRoles,
  "GET /ClientAdmin/Clients": listClients,
  "POST /ClientAdmin/CreateNewClient": createClient,
  "POST /ClientAdmin/AddIntegrationToClient/{clientId}": addIntegration,
  "GET /ClientAdmin/{clientId}/AccessRoles": accessRoles,
};
