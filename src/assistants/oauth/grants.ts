/**
 * @module
 * What an OAuth grant is made of: one tenant, one scope, one lifetime, a random id. Id and tenant
 * travel in the props the library seals, so a token names nothing a client could change; the
 * tenant's object says whether the grant is live. See docs/design/faces.md.
 */
import { z } from "zod";
import { randomSecret } from "../../kernel/crypto";
import { GrantId } from "../tenant/assistant-grants";
import { parseTenantName, type TenantName } from "../../kernel/stubs";

/** The lifetimes a person may pick: three months at most, or nobody remembers giving it. */
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
 * The authorization server's user id of a tenant's grants: `.` for `:`, which its tokens reserve.
 * @example grantUserId("demo:acme") // "demo.acme"
 */
export function grantUserId(tenant: TenantName): string {
  return tenant.replace(":", ".");
}

/**
 * The tenant an access token claims (`<user>:<grant>:<secret>`), or null: only to tell a token
 * from a gateway key; nothing is trusted, or counted, by it.
 * @example claimedByToken("demo.acme:abc:xyz") // "demo:acme"
 */
export function claimedByToken(token: string): TenantName | null {
  const parts = token.split(":");
  if (parts.length !== 3) return null;
  const name = (parts[0] ?? "").replace(".", ":");
  const parsed = parseTenantName(name);
  return parsed.ok ? (name as TenantName) : null;
}
