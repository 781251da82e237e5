// The shop side of the orders bench (bench/orders.mjs): the bench order, its buyer and products,
// signed Standard Webhooks deliveries, a tenant to send them to, and reading the runs back.
import { createHmac, randomBytes } from "node:crypto";
import { ADMIN, GW, json, newTenant, sleep } from "./lib.mjs";

/**
 * The products of the bench order: VAT included in `gross`; `net` is what a client sends the API.
 */
export const CATALOG = {
  pledd: {
    sku: "PLEDD-ROROS",
    name: "Ullpledd, Røros Tweed, 150 × 200 cm",
    gross: "1249.00",
    net: 999.2,
    vat: "25",
    account: 3000,
  },
  kaffe: {
    sku: "KAFFE-1KG",
    name: "Kaffe, hele bønner, 1 kg",
    gross: "287.50",
    net: 250,
    vat: "15",
    account: 3030,
  },
  frakt: {
    sku: "FRAKT-25",
    name: "Bring, Pakke til bedrift",
    gross: "149.00",
    net: 119.2,
    vat: "25",
    account: 3000,
  },
};
/** A company buyer: Oslo, a valid MOD11 organization number written the VAT-register way. */
export const BUYER = {
  id: "cust_4471",
  email: "innkjop@nordlys-interior.no",
  firstName: "Kari",
  lastName: "Nordmann",
  company: "Nordlys Interiør AS",
  organizationNumber: "NO 926 483 013 MVA",
  phone: "+47 22 12 34 56",
  address: { line1: "Storgata 14", line2: null, zip: "0184", city: "Oslo", countryCode: "NO" },
};
/**
 * A second company buyer and two other SKUs, for the order whose customer and products are in the
 * books but not yet known to the tenant (put there with `seedBooks`, as a bookkeeper would).
 */
export const KNOWN_TO_BOOKS = {
  buyer: {
    ...BUYER,
    id: "cust_5120",
    email: "post@fjelltind-kafe.no",
    company: "Fjelltind Kafé AS",
    organizationNumber: "974 760 673",
  },
  orgDigits: "974760673",
  skus: { pledd: "PLEDD-FJELL", kaffe: "KAFFE-FJELL" },
};
export const ORG_DIGITS = "926483013";
export const TOTAL = "3509.50"; // 2 × 1 249.00 + 3 × 287.50 + 149.00
export const TERMINAL = new Set(["settled", "failed", "cancelled", "credited"]);

/**
 * ledgergate's order JSON for order `id` (docs/order-json.md): two lines at 25 % and 15 %,
 * shipping, VAT included; `buyer` and `skus` replace the bench's own; `paymentMethod`, how it was
 * paid (none: the provider `other`).
 */
export function orderEvent(id, { buyer = BUYER, skus = {}, paymentMethod } = {}) {
  const now = new Date().toISOString();
  return {
    type: "order.paid",
    timestamp: now,
    data: {
      id,
      number: `NB-${id}`,
      placedAt: now,
      paidAt: now,
      currency: "NOK",
      taxIncluded: true,
      buyer,
      lines: [
        {
          id: "L1",
          sku: skus.pledd ?? CATALOG.pledd.sku,
          name: CATALOG.pledd.name,
          quantity: 2,
          unitPrice: CATALOG.pledd.gross,
          discount: "0.00",
          vat: "25",
        },
        {
          id: "L2",
          sku: skus.kaffe ?? CATALOG.kaffe.sku,
          name: CATALOG.kaffe.name,
          quantity: 3,
          unitPrice: CATALOG.kaffe.gross,
          discount: "0.00",
          vat: "15",
        },
      ],
      shipping: [
        {
          id: "S1",
          name: CATALOG.frakt.name,
          price: CATALOG.frakt.gross,
          discount: "0.00",
          vat: "25",
        },
      ],
      total: TOTAL,
      ...(paymentMethod ? { paymentMethod } : {}),
    },
  };
}

/**
 * A Standard Webhooks delivery of `body`: `v1,<base64 HMAC-SHA256 of "id.ts.body">` under the
 * decoded whsec_ key.
 */
export function signed(secret, body, webhookId, ts) {
  const sig = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
    .update(`${webhookId}.${ts}.${body}`)
    .digest("base64");
  return {
    "content-type": "application/json",
    "webhook-id": webhookId,
    "webhook-timestamp": String(ts),
    "webhook-signature": `v1,${sig}`,
  };
}

/** A new tenant (bench/lib.mjs's `newTenant`) with a Standard Webhooks secret. */
export async function orderTenant(tag) {
  const tenant = await newTenant("Bench Nettbutikk AS", tag);
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const res = await fetch(`${GW}/admin/tenants/demo/${tenant.slug}/webhooks/standard`, {
    method: "PUT",
    headers: { "content-type": "application/json", ...ADMIN },
    body: JSON.stringify({ secret }),
  });
  if (res.status !== 204)
    throw new Error(`setting the secret of ${tenant.slug} answered ${res.status}`);
  return { ...tenant, secret };
}

/**
 * Puts `KNOWN_TO_BOOKS`' customer and products into `tenant`'s books through the gateway's /v2, as
 * a bookkeeper would.
 */
export async function seedBooks(tenant) {
  const v2 = (path, body) =>
    json("POST", `${GW}/v2${path}`, body, { authorization: `Bearer ${tenant.gatewayKey}` });
  const { buyer, orgDigits, skus } = KNOWN_TO_BOOKS;
  const c = await v2("/Customers", {
    IsPerson: false,
    Name: buyer.company,
    OrganizationNumber: orgDigits,
    EmailAddress: buyer.email,
    InvoiceEmailAddress: buyer.email,
  });
  if (!c?.Id) throw new Error(`seeding the customer answered ${JSON.stringify(c)}`);
  for (const [key, sku] of Object.entries(skus))
    await v2("/Products", {
      Code: sku,
      Name: CATALOG[key].name,
      StandardSalesAccount: CATALOG[key].account,
    });
}

/** Sends order `id` to `tenant` as a new event; the HTTP status. */
export async function sendOrder(
  tenant,
  id,
  variant = {},
  webhookId = `msg_${randomBytes(12).toString("hex")}`,
  ts = Math.floor(Date.now() / 1000),
) {
  const body = JSON.stringify(orderEvent(id, variant));
  const res = await fetch(`${GW}/webhooks/standard/${tenant.slug}/demo`, {
    method: "POST",
    headers: signed(tenant.secret, body, webhookId, ts),
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

export const orderRun = (tenant, id) =>
  json("GET", `${GW}/orders/standard/${encodeURIComponent(id)}`, undefined, {
    authorization: `Bearer ${tenant.gatewayKey}`,
  });
export const orderRuns = (tenant) =>
  json("GET", `${GW}/orders?limit=500`, undefined, {
    authorization: `Bearer ${tenant.gatewayKey}`,
  }).then((r) => r.orders ?? []);

/** Polls until order `id` ends (or `timeoutMs`); the run as the status API shows it. */
export async function untilDone(tenant, id, timeoutMs = 60_000) {
  const t0 = Date.now();
  let run = null;
  while (Date.now() - t0 < timeoutMs) {
    run = await orderRun(tenant, id);
    if (TERMINAL.has(run?.state)) return run;
    await sleep(200);
  }
  return run;
}

/** The upstream calls a run's steps report, in all and step by step. */
export const stepCalls = (run) =>
  (run?.steps ?? []).reduce((n, s) => n + (Number(s.result?.upstreamCalls) || 0), 0);
export const byStep = (run) =>
  (run?.steps ?? []).map((s) => `${s.name}: ${s.result?.upstreamCalls ?? 0}`).join(" · ");
