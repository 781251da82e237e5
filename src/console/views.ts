/**
 * @module
 * What the console's pages show, computed from what the objects answer: plain values, no markup,
 * and never a secret (the objects' answers hold none, and nothing here adds one).
 */
import type { Environment } from "../kernel/config";
import type { Source } from "../orders/order";
import type { ConnectionView } from "../upstream/tenant/connection";

/** How each source is named on the page ("Shopify webhook secret", "Save Shopify secret"). */
export const SOURCE_LABELS: Record<Source, string> = {
  shopify: "Shopify",
  woocommerce: "WooCommerce",
  stripe: "Stripe",
  standard: "Standard",
};

/** The token part of a tenant's description (`OperatorFace.describe`). */
export type TokenView =
  { state: "valid"; expiresAt: string } | { state: "rejected"; reason: string } | { state: "none" };

/** The token's state as one word, and what the operator should know about it. */
export function tokenSummary(t: TokenView): { state: string; expiry: string; note: string | null } {
  switch (t.state) {
    case "valid":
      return { state: "valid", expiry: when(t.expiresAt), note: null };
    case "rejected":
      return {
        state: "rejected",
        expiry: "–",
        note: `The accounting API refused the client key: ${t.reason}. Connect the client again.`,
      };
    case "none":
      return { state: "none", expiry: "–", note: "No token yet: one is fetched at the next call." };
  }
}

/** The connection in a few words: connected, or lost since when (and restored when, after one). */
export function connectionSummary(c: ConnectionView | undefined): string {
  if (!c) return "–";
  if (c.state === "lost") return `lost since ${when(c.lostAt)}`;
  return c.restoredAt ? `connected (restored ${when(c.restoredAt)})` : "connected";
}

/**
 * An ISO time as operators in Norway read it, UTC said outright (the Worker has no time zone of
 * the reader): `2026-11-23 14:05:09 UTC`.
 */
export function when(iso: string | null | undefined): string {
  if (!iso) return "–";
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${new Date(t).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** The URL a shop posts its webhooks to, for the operator to paste into the shop's settings. */
export function webhookUrl(
  origin: string,
  source: Source,
  environment: Environment,
  client: string,
): string {
  return `${origin}/webhooks/${source}/${client}/${environment}`;
}

/** The console's path of a tenant (and below it). */
export function tenantPath(environment: Environment, client: string, rest = ""): string {
  return `/console/tenants/${environment}/${client}${rest}`;
}

/** The console's path of one order's run. */
export function orderPath(
  environment: Environment,
  client: string,
  source: Source,
  orderId: string,
): string {
  return tenantPath(environment, client, `/orders/${source}/${encodeURIComponent(orderId)}`);
}

/** A step result's upstream calls, when the run recorded them. */
export function stepCalls(result: Record<string, unknown>): string {
  const n = result.upstreamCalls;
  return typeof n === "number" ? String(n) : "–";
}
