/**
 * @module
 * Dynamic client registration (RFC 7591) behind its caps: a slot from the directory first
 * (`durable/directory/oauth-registrations.ts`: the pace and the number of registrations, for the
 * whole gateway), then the authorization server's own registration, which checks the metadata
 * (redirect URIs https or loopback, no dangerous scheme, known grant types) and stores the client.
 * A registration the server refuses gives its slot back: only stored records count.
 */
import {
  MAX_REGISTRATIONS,
  PER_WINDOW,
  WINDOW_MS,
} from "../../durable/directory/oauth-registrations";
import type { Bindings } from "../config";
import { Problem } from "../problem";
import { directoryStub } from "../stubs";
import { authorizationServer, CLIENT_REGISTRATION_TTL_SECONDS } from "./server";

/**
 * Registers the client `req` describes, or answers the 429 of a cap. The body was read under
 * `capBody` (`src/index.ts`), so its size is bounded before anything here runs.
 *
 * @example return register(c.env, c.executionCtx, c.req.raw)
 */
export async function register(
  env: Bindings,
  ctx: ExecutionContext,
  req: Request,
): Promise<Response> {
  const directory = directoryStub(env);
  const slot = await directory.admitRegistration(CLIENT_REGISTRATION_TTL_SECONDS * 1000);
  if (!slot.ok)
    throw new Problem(
      "too-many-requests",
      slot.reason === "pace"
        ? `Too many clients registered in the last ${WINDOW_MS / 60_000} minutes (${PER_WINDOW} at most, for the whole gateway): try again after the Retry-After.`
        : `The gateway holds as many registered clients as it may (${MAX_REGISTRATIONS} in ${CLIENT_REGISTRATION_TTL_SECONDS / 86_400} days): try again after the Retry-After, or connect with a client ID metadata document (claude.ai, ChatGPT and Claude Code publish one), which needs no registration.`,
      { headers: { "retry-after": String(slot.retryAfterSeconds) } },
    );
  const res = await authorizationServer(new URL(req.url).origin).fetch(req, env, ctx);
  if (res.status !== 201) await directory.releaseRegistration(slot.id);
  return res;
}
