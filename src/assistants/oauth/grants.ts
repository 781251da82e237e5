/**
 * @module
 * What an OAuth grant of ledgergate is made of: one tenant, one scope, one lifetime the person
 * picked, and a random id. The grant's id and tenant travel in the grant's props, which the
 * authorization server stores encrypted under a key only the token's holder can unwrap
 * (`@cloudflare/workers-oauth-provider`), so a token names its tenant and grant and nothing a
 * client could change; the tenant's object (`assistants/tenant/assistant-grants.ts`) says whether
 * the grant is still live. Pure functions, no state.
 */
import { z } from "zod";
import { randomSecret } from "../../kernel/crypto";
import { GrantId } from "../tenant/assistant-grants";
import { parseTenantName, type TenantName } from "../../kernel/stubs";

/**
 * The lifetimes a person may pick on the approval page, seconds. An hour for a try-out, three
 * months at most: a grant outliving that is one nobody remembers giving.
 */
export const GRANT_LIFETIMES = {
  "1h": { seconds: 3600, label: "1 hour" },
  "1d": { seconds: 86_400, label: "1 day" },
  "7d": { seconds: 7 * 86_400, label: "7 days" },
  "30d": { seconds: 30 * 86_400, label: "30 days" },
  "90d": { seconds: 90 * 86_400, label: "90 days" },
} as const;
export const Lifetime = z.enum(["1h", "1d", "7d", "30d", "90d"]);
export type Lifetime = z.output<typeof Lifetime>;
/** What the page offers first: a month, the authorization server's own default. */
export const DEFAULT_LIFETIME: Lifetime = "30d";

/** A tenant name as the props hold it. */
const TenantNameText = z
  .string()
  .refine((s) => parseTenantName(s).ok, "a tenant name")
  .transform((s) => s as TenantName);

/** The props of a grant: what its tokens carry, sealed by the authorization server. */
export const GrantProps = z.strictObject({
  tenant: TenantNameText,
  grant: GrantId,
  /** Epoch ms: the grant's end, for its refresh token's lifetime (`server.ts`). */
  expiresAt: z.int(),
});
export type GrantProps = z.output<typeof GrantProps>;

/** A new grant id (96 random bits). */
export function newGrantId(): string {
  return `grant_${randomSecret(12)}`;
}

/**
 * The authorization server's user id of a tenant's grants: its name with `.` for `:`, which the
 * server reserves as the separator of its tokens (`demo:acme` → `demo.acme`; a client slug has no
 * dot, so this is one to one).
 *
 * @example grantUserId("demo:acme") // "demo.acme"
 */
export function grantUserId(tenant: TenantName): string {
  return tenant.replace(":", ".");
}

/**
 * The tenant an OAuth access token claims, from its plaintext user id (`<user>:<grant>:<secret>`,
 * the authorization server's format), or null when it is not shaped like one. A claim only, to tell
 * a token from a gateway key at the MCP door: nothing is trusted, or counted, by it.
 *
 * @example claimedByToken("demo.acme:abc:xyz") // "demo:acme"
 */
export function claimedByToken(token: string): TenantName | null {
  const parts = token.split(":");
  if (parts.length !== 3) return null;
  const name = (parts[0] ?? "").replace(".", ":");
  const parsed = parseTenantName(name);
  return parsed.ok ? (name as TenantName) : null;
}
