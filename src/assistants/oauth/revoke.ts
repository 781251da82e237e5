/**
 * @module
 * Revoking grants in `OAUTH_KV` after the tenant's object dropped them, so the library refuses a
 * refresh itself. Best effort: a KV failure is logged, since the grant is already dead where it
 * matters (`tenant/grant-face.ts`).
 */
import { z } from "zod";
import type { Bindings } from "../../kernel/config";
import { log } from "../../kernel/log";
import type { TenantName } from "../../kernel/stubs";
import { grantUserId } from "./grants";
import { authorizationServer } from "./server";

/** The most KV grants read while looking for one tenant's (a page is 1000; a tenant holds 100). */
const MAX_PAGES = 5;

const Metadata = z.object({ grant: z.string() }).partial();

/**
 * Revokes, in KV, the tenant's grant `grant` (every grant when null).
 * @example await revokeGrantRecords(env, origin, "demo:acme", "grant_…")
 */
export async function revokeGrantRecords(
  env: Bindings,
  origin: string,
  tenant: TenantName,
  grant: string | null,
): Promise<number> {
  const oauth = authorizationServer(origin).getOAuthApi(env);
  const userId = grantUserId(tenant);
  let revoked = 0;
  try {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const list = await oauth.listUserGrants(userId, cursor === undefined ? {} : { cursor });
      for (const g of list.items) {
        if (grant !== null && Metadata.safeParse(g.metadata).data?.grant !== grant) continue;
        await oauth.revokeGrant(g.id, userId);
        revoked++;
      }
      cursor = list.cursor;
      if (!cursor) break;
    }
  } catch (e) {
    log.warn("oauth-revoke-failed", { tenant, error: e instanceof Error ? e.name : "unknown" });
  }
  return revoked;
}
