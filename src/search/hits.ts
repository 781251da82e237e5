/**
 * @module
 * What the operator's search finds (`GET /admin/search`, the console's search box): a record of
 * one tenant, named and linked. Only what the gateway keeps is searched; never the API.
 */
import { z } from "zod";

/** The kinds of record a search finds. */
export const HitKind = z.enum([
  "order",
  "invoice",
  "customer",
  "request",
  "webhook",
  "event",
  "payout",
]);
export type HitKind = z.output<typeof HitKind>;

/** One record found in one tenant, before the tenant is named: its page under the tenant's. */
export const TenantHit = z.strictObject({
  kind: HitKind,
  id: z.string(),
  label: z.string(),
  /** The record's page in the console, under the tenant's page (`/orders/shopify/1042`). */
  page: z.string(),
  at: z.string().nullable(),
});
export type TenantHit = z.output<typeof TenantHit>;

/** One record found, as the search answers it. */
export const SearchHit = TenantHit.omit({ page: true }).extend({
  tenant: z.string(),
  href: z.string().meta({ description: "The record's page in the console." }),
});
export type SearchHit = z.output<typeof SearchHit>;

/** What one search may ask: trimmed, 1–200 characters. */
export const SearchText = z
  .string()
  .trim()
  .min(1, "q is empty: give an id, a number or a name")
  .max(200, "q is longer than 200 characters");
