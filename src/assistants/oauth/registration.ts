/**
 * @module
 * Dynamic client registration behind its caps: a directory row first
 * (`assistants/oauth/directory-registrations.ts`), then the library's registration, then the
 * client's id on its row so the directory can delete it; a refused one gives its row back.
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
 * Registers the client `req` describes (body bounded by `capBody`), or answers a pace's 429.
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
  // Runs to its end even if the caller hangs up: an unnamed client would escape cap and deletion.
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
