/**
 * @module
 * Dynamic client registration (RFC 7591) behind its caps: a row from the directory first
 * (`assistants/oauth/directory-registrations.ts`: a pace per address and one for the gateway, and
 * the lifetime of a registration nobody approves), then the authorization server's own
 * registration, which checks the metadata (redirect URIs https or loopback, no dangerous scheme,
 * known grant types) and stores the client, then the client's id on its row, so the directory can
 * delete the record at its end. A registration the server refuses gives its row back: only stored
 * records count.
 */
import { z } from "zod";
import { PER_ADDRESS_PER_WINDOW, PER_WINDOW, WINDOW_MS } from "./directory-registrations";
import type { Bindings } from "../../kernel/config";
import { sha256Hex } from "../../kernel/crypto";
import { Problem } from "../../kernel/problem";
import { addressKey } from "../../upstream/rate/blocked-addresses";
import { directoryStub } from "../../kernel/stubs";
import { authorizationServer } from "./server";

const Registered = z.object({ client_id: z.string().min(1) });

const MINUTES = WINDOW_MS / 60_000;
const ELSEWHERE =
  "or connect with a client ID metadata document (claude.ai, ChatGPT and Claude Code publish one), which needs no registration.";

/** What the 429 of each pace says: its cap, and that it counts per address. */
const REFUSED = {
  address: `Too many clients registered from this address: at most ${PER_ADDRESS_PER_WINDOW} in ${MINUTES} minutes, counted per address. Try again after the Retry-After, ${ELSEWHERE}`,
  pace: `Too many clients registered on this gateway: at most ${PER_WINDOW} in ${MINUTES} minutes from all addresses together (and ${PER_ADDRESS_PER_WINDOW} per address). Try again after the Retry-After, ${ELSEWHERE}`,
} as const;

/** The SHA-256 of the caller's address key (`upstream/rate/blocked-addresses.ts`), or null. */
async function addressOf(req: Request): Promise<string | null> {
  const key = addressKey(req.headers.get("cf-connecting-ip") ?? "");
  return key === null ? null : sha256Hex(key);
}

/**
 * Registers the client `req` describes, or answers the 429 of a pace. The body was read under
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
  const row = await directory.admitRegistration(await addressOf(req));
  if (!row.ok)
    throw new Problem("too-many-requests", REFUSED[row.reason], {
      headers: { "retry-after": String(row.retryAfterSeconds) },
    });
  // Past the row, the work runs to its end even if the caller hangs up: a client stored but never
  // named to the directory would escape both the cap and its deletion.
  const done = (async () => {
    const res = await authorizationServer(new URL(req.url).origin).fetch(req, env, ctx);
    if (res.status !== 201) {
      await directory.releaseRegistration(row.id);
      return res;
    }
    const { client_id } = Registered.parse(await res.clone().json());
    await directory.recordRegistration(row.id, client_id);
    return res;
  })();
  ctx.waitUntil(done);
  return done;
}
