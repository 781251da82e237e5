/**
 * @module
 * `/Onboarding`: the external onboarding workflow. In Go a user opens the TemporaryUrl, signs in,
 * picks the clients to onboard and is redirected to RedirectUri with an onboarding token, which the
 * integration exchanges at Finalize for one client key per client. The sandbox has no sign-in page
 * and no user to click: the token is issued at once, in the TemporaryUrl's `token` parameter, as if
 * the user had authorized every client offered. The clients offered are the partner's clients
 * (`POST /ClientAdmin/CreateNewClient`), narrowed to ClientOrganizationNo when it is given.
 */
import type { FinalizeOnboardingPost, InitiateOnboardingPost } from "../../../../shared/v2/clients";
import { fail, ok, problems, type Handler } from "../../engine/call";
import { CLIENT_KIND } from "./clients";

const TOKEN_KIND = "OnboardingToken";

/** How long the TemporaryUrl, and the token in it, can be used. */
const TOKEN_LIFETIME_MS = 15 * 60 * 1000;

/** The simulated user who "authorizes" the onboarding: example.com is reserved, so no mail can reach anyone. */
const ONBOARDING_USER_EMAIL = "sandbox.user@example.com";

/** An opaque token of the length and alphabet the spec's example shows. */
function newToken(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return [...crypto.getRandomValues(new Uint8Array(128))].map((b) => alphabet[b % alphabet.length]).join("");
}

const initiate: Handler = (ctx) => {
  // ApplicationKey is checked for form only: the application keys live with the platform, not in a
  // client's data, and the token that reached here was already issued for a valid one.
  const body = ctx.call.body as InitiateOnboardingPost;
  const orgNo = body.ClientOrganizationNo?.trim() || null;
  const clients = ctx.store.all(CLIENT_KIND).filter((c) => orgNo === null || c.dto.OrganizationNumber === orgNo);
  if (clients.length === 0) {
    // Refused here rather than at Finalize: the user would have had nothing to authorize.
    const which = orgNo === null ? "No client" : `No client with organization number ${orgNo}`;
    return fail(problems.validation("Onboarding", `${which} is available to onboard. The sandbox offers the partner's clients; create one with POST /ClientAdmin/CreateNewClient.`));
  }
  const token = newToken();
  const validUntil = new Date(ctx.now.getTime() + TOKEN_LIFETIME_MS).toISOString();
  ctx.store.put(TOKEN_KIND, token, {
    ApplicationKey: body.ApplicationKey, ClientIds: clients.map((c) => c.id), RedirectUri: body.RedirectUri ?? null, ValidUntilDateTimeOffset: validUntil,
  }, { owner: ctx.call.integration });
  // No page is served at this address; the token in it is what Finalize takes.
  const url = new URL("/ApiAuthV2", ctx.call.url);
  url.search = new URLSearchParams({ token }).toString();
  return ok({ TemporaryUrl: url.toString(), ValidUntilDateTimeOffset: validUntil });
};

const finalize: Handler = (ctx) => {
  const { OnboardingToken } = ctx.call.body as FinalizeOnboardingPost;
  const stored = ctx.store.get(TOKEN_KIND, OnboardingToken.trim());
  // The spec documents only 400 here: an unknown, used or expired token is a bad request.
  if (!stored || Date.parse(String(stored.dto.ValidUntilDateTimeOffset)) <= ctx.now.getTime()) {
    return fail(problems.validation("Onboarding", "The OnboardingToken is unknown, already used or expired. Start again with POST /Onboarding/Initiate."));
  }
  ctx.store.remove(TOKEN_KIND, stored.id);
  const clients = (stored.dto.ClientIds as string[]).flatMap((id) => {
    const c = ctx.store.get(CLIENT_KIND, id)?.dto;
    // A fresh key per client, like Go's; it is not known to the token endpoint (see AddIntegrationToClient).
    return c ? [{ ClientKey: crypto.randomUUID(), ClientName: c.ClientName ?? null, ClientOrganizationNumber: c.OrganizationNumber ?? null }] : [];
  });
  return ok({ OnboardedClientsInformation: clients, UserEmail: ONBOARDING_USER_EMAIL });
};

export const onboardingHandlers: Record<string, Handler> = {
  "POST /Onboarding/Initiate": initiate,
  "POST /Onboarding/Finalize": finalize,
};
