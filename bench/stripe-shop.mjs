// The Stripe side of the payouts bench (bench/payouts.mjs): the bench order as a Stripe
// `invoice.paid` (the same products and total as bench/orders-shop.mjs's, VAT included), Stripe's
// signature, a stand-in Stripe account in the sandbox (`/_sandbox/stripe/…`, docs/sandbox.md) whose
// restricted key the tenant is given, and Stripe's payout events.
import { createHmac, randomBytes } from "node:crypto";
import { ADMIN, GW, SB, json, sleep } from "./lib.mjs";
import { BUYER, CATALOG, TERMINAL } from "./orders-shop.mjs";

/** Minor units of a decimal string: "1249.00" → 124900. */
const minor = (s) => Math.round(Number(s) * 100);

/** A line of `qty` × `item`, VAT included at its rate, as Stripe's invoice line carries it. */
function line(k, item, qty) {
  const amount = minor(item.gross) * qty;
  const rate = Number(item.vat);
  const tax = Math.round((amount * rate) / (100 + rate));
  return {
    id: `il_bench${k}`,
    object: "line_item",
    amount,
    currency: "nok",
    description: item.name,
    quantity: qty,
    metadata: { sku: item.sku },
    tax_amounts: [
      {
        amount: tax,
        inclusive: true,
        tax_rate: { percentage: rate, inclusive: true },
        taxable_amount: amount - tax,
      },
    ],
  };
}

/** The payment intent bench order `id` is paid with. */
export const intentOf = (id) => `pi_bench_${id}`;

/** Stripe's `invoice.paid` of bench order `id` (the invoice's id), paid with `intentOf(id)`. */
export function invoicePaid(id) {
  const now = Math.floor(Date.now() / 1000);
  const lines = [line(0, CATALOG.pledd, 2), line(1, CATALOG.kaffe, 3), line(2, CATALOG.frakt, 1)];
  return {
    id: `evt_${randomBytes(12).toString("hex")}`,
    object: "event",
    api_version: "2024-06-20",
    created: now,
    type: "invoice.paid",
    data: {
      object: {
        id,
        object: "invoice",
        number: `NB-${id}`,
        created: now,
        currency: "nok",
        customer: BUYER.id,
        customer_email: BUYER.email,
        customer_name: BUYER.company,
        customer_phone: BUYER.phone,
        customer_address: {
          line1: BUYER.address.line1,
          line2: null,
          postal_code: BUYER.address.zip,
          city: BUYER.address.city,
          country: "NO",
        },
        customer_tax_ids: [{ type: "no_vat", value: BUYER.organizationNumber }],
        lines: { object: "list", data: lines, has_more: false },
        amount_paid: lines.reduce((n, l) => n + l.amount, 0),
        status_transitions: { paid_at: now },
        payment_intent: intentOf(id),
      },
    },
  };
}

/** Stripe's event of `type` carrying `payout` (the stand-in's Payout object). */
export const payoutEvent = (type, payout) => ({
  id: `evt_${randomBytes(12).toString("hex")}`,
  object: "event",
  api_version: "2025-03-31.basil",
  created: Math.floor(Date.now() / 1000),
  type,
  data: { object: payout },
});

/** Sends `event` to `tenant`'s Stripe route, signed as Stripe signs; the HTTP status. */
export async function sendStripe(tenant, event) {
  const body = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac("sha256", tenant.stripeSecret).update(`${t}.${body}`).digest("hex");
  const res = await fetch(`${GW}/webhooks/stripe/${tenant.slug}/demo`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": `t=${t},v1=${v1}` },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/**
 * `tenant` given a Stripe signing secret and a stand-in Stripe account, whose restricted key is set
 * as the tenant's Stripe key; the tenant with `stripeSecret` and `stripe` (`{ account, key }`).
 */
export async function withStripe(tenant) {
  const stripeSecret = `whsec_${randomBytes(24).toString("hex")}`;
  const put = await fetch(`${GW}/admin/tenants/demo/${tenant.slug}/webhooks/stripe`, {
    method: "PUT",
    headers: { "content-type": "application/json", ...ADMIN },
    body: JSON.stringify({ secret: stripeSecret }),
  });
  if (put.status !== 204) throw new Error(`setting the Stripe secret answered ${put.status}`);
  const stripe = await json("POST", `${SB}/_sandbox/stripe/accounts`, {});
  const key = await json(
    "PUT",
    `${GW}/admin/tenants/demo/${tenant.slug}/stripe-key`,
    { key: stripe.key },
    ADMIN,
  );
  if (!key?.stripeKey?.set)
    throw new Error(`setting the Stripe key answered ${JSON.stringify(key)}`);
  return { ...tenant, stripeSecret, stripe };
}

/** The stand-in's control call `path` under the tenant's account. */
export const account = (tenant, method, path, body) =>
  json(method, `${SB}/_sandbox/stripe/accounts/${tenant.stripe.account}${path}`, body);

/** The stand-in's counters: `{ requests, refused, byPath, versions }`. */
export const stripeStats = () => json("GET", `${SB}/_sandbox/stripe/stats`);

/** Polls until Stripe order `id` ends (or `timeoutMs`); its run. */
export async function untilStripeOrder(tenant, id, timeoutMs = 60_000) {
  const t0 = Date.now();
  let run = null;
  while (Date.now() - t0 < timeoutMs) {
    run = await json("GET", `${GW}/orders/stripe/${encodeURIComponent(id)}`, undefined, {
      authorization: `Bearer ${tenant.gatewayKey}`,
    });
    if (TERMINAL.has(run?.state)) return run;
    await sleep(200);
  }
  return run;
}
