/**
 * Helpers of the Stripe payout tests: a stand-in Stripe account in the sandbox
 * (`/_sandbox/stripe/...`), its charges, refunds, fees and payouts, its counters, and a tenant with
 * the account's restricted key set through the admin API.
 */
import { expect } from "vitest";
import { ADMIN, control, gw, json } from "./gateway";
import { shopTenant } from "./orders";

type Json = Record<string, unknown>;

/** The stand-in's counters (`GET /_sandbox/stripe/stats`). */
export interface StripeStats {
  requests: number;
  refused: number;
  byPath: Record<string, number>;
  versions: Record<string, number>;
}

/** A stand-in Stripe account: its id, its key, and its control calls. */
export async function stripeAccount() {
  const a = await control<{ account: string; key: string }>("POST", "/stripe/accounts", {}, 201);
  const at = `/stripe/accounts/${a.account}`;
  return {
    ...a,
    /** Charges, each paid with `paymentIntent` (the invoice's), with Stripe's fee. */
    charges: async (charges: { amount: number; fee: number; paymentIntent?: string }[]) =>
      (
        await control<{
          charges: { charge: string; paymentIntent: string; balanceTransaction: string }[];
        }>("POST", `${at}/charges`, { charges }, 201)
      ).charges,
    refund: (charge: string, amount: number) =>
      control<{ refund: string }>("POST", `${at}/refunds`, { charge, amount }, 201),
    fee: (amount: number) => control("POST", `${at}/fees`, { amount }, 201),
    payout: (body: Json = {}) => control<Json>("POST", `${at}/payouts`, body, 201),
    updatePayout: (id: unknown, body: Json) =>
      control<Json>("PATCH", `${at}/payouts/${String(id)}`, body),
  };
}

/** The stand-in's counters. */
export const stripeStats = () => control<StripeStats>("GET", "/stripe/stats");

/** Sets `key` as the tenant's Stripe key (`PUT …/stripe-key`); the answer. */
export async function setStripeKey(t: { environment: string; client: string }, key: string) {
  const res = await gw(
    `/admin/tenants/${t.environment}/${t.client}/stripe-key`,
    json({ key }, "PUT", ADMIN),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { stripeKey: Json; payoutsRestarted: number };
}

/** A tenant with every webhook secret, a stand-in Stripe account, and that account's key set. */
export async function stripeTenant() {
  const t = await shopTenant();
  const stripe = await stripeAccount();
  await setStripeKey(t, stripe.key);
  return { ...t, stripe };
}
