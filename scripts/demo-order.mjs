#!/usr/bin/env node
// `npm run demo:order [-- --source shopify]`: one shop order end to end, against a running `npm
// start`. It creates a sandbox client, registers it as a tenant, sets the tenant's webhook secret,
// sends ONE signed order (ledgergate's own order JSON over Standard Webhooks, or with `--source
// shopify` a Shopify `orders/paid`), follows the order's run until it is settled or failed, and
// prints where to look. The tenant is registered once (`demo:demo-shop`) and reused by every later
// run, which issues it a fresh gateway key (keys are shown only once); the order and its number are
// new each time, the customer is found again. Exits non-zero when the order does not end settled.
// Where the Workers are: LEDGERGATE_GATEWAY_PORT and LEDGERGATE_SANDBOX_PORT, as for `npm start`.
import { createHmac, randomBytes } from "node:crypto";
import { localAddresses } from "./wrangler-env.mjs";
import { signedShopifyOrder } from "./sample-shopify-order.ts";

const { gateway: GW, sandbox: SB } = localAddresses();
const ADMIN = { authorization: `Bearer ${process.env.ADMIN_TOKEN ?? "local-admin-token"}` };
const TIMEOUT_MS = 60_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const args = process.argv.slice(2);
const sourceArg =
  args.find((a) => a.startsWith("--source="))?.slice("--source=".length) ??
  (args.includes("--source") ? args[args.indexOf("--source") + 1] : "standard");
if (args.includes("--help") || args.includes("-h")) {
  console.log(
    "Usage: npm run demo:order [-- --source standard|shopify]\nNeeds `npm start` running (gateway on :8787, sandbox on :8788; other ports: LEDGERGATE_GATEWAY_PORT, LEDGERGATE_SANDBOX_PORT).",
  );
  process.exit(0);
}
if (sourceArg !== "standard" && sourceArg !== "shopify") {
  console.error(`--source must be standard or shopify, not ${sourceArg}`);
  process.exit(2);
}
const source = sourceArg;

function fail(message) {
  console.error(`\n✗ ${message}`);
  process.exit(1);
}

async function call(method, url, body, headers = {}) {
  const res = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, ok: res.ok, body: json };
}
const must = (what, r) => {
  if (!r.ok)
    fail(
      `${what} answered ${r.status}: ${typeof r.body === "string" ? r.body : JSON.stringify(r.body)}`,
    );
  return r.body;
};

// 0. Both Workers must answer.
async function answers(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(3000) })).status < 500;
  } catch {
    return false;
  }
}
const [gatewayUp, sandboxUp] = await Promise.all([
  answers(`${GW}/healthz`),
  answers(`${SB}/_sandbox/keys`),
]);
if (!gatewayUp || !sandboxUp) {
  const down = [
    !gatewayUp && `the gateway (${GW}/healthz)`,
    !sandboxUp && `the sandbox (${SB}/_sandbox/keys)`,
  ]
    .filter(Boolean)
    .join(" and ");
  fail(
    `No answer from ${down}.\n  Start both Workers first, in another terminal from the project folder:\n\n    npm start\n\n  wait for "ledgergate is running", then run \`npm run demo:order\` again.`,
  );
}

// 1. A client in the sandbox (the accounting API's side), and 2. the tenant in ledgergate: the
// demo's own, registered by the first run and reused by every later one, so the operator's list
// holds one demo shop however often the demo runs.
const suffix = `${Date.now().toString(36)}-${randomBytes(2).toString("hex")}`;
const slug = "demo-shop";
const NAME = "Nordlys Nettbutikk AS";
const tenantPath = `${GW}/admin/tenants/demo/${slug}`;

/** A new client in the sandbox; its key is shown only in this answer. */
const newSandboxClient = async () =>
  must(
    "POST /_sandbox/clients",
    await call("POST", `${SB}/_sandbox/clients`, { environment: "demo", name: NAME }),
  );

/** Registers the demo's tenant with a new sandbox client; its gateway key is shown only here. */
async function register() {
  const client = await newSandboxClient();
  const tenant = must(
    "POST /admin/tenants",
    await call(
      "POST",
      `${GW}/admin/tenants`,
      { client: slug, environment: "demo", clientKey: client.clientKey, name: NAME },
      ADMIN,
    ),
  );
  console.log(`Tenant ${tenant.tenant} registered (sandbox client ${client.clientId}).`);
  return tenant.gatewayKey;
}

/**
 * The earlier run's tenant with a fresh gateway key (keys are stored as hashes, so the earlier key
 * cannot be read back; it retires after the default grace period), or null when that tenant no
 * longer works: the sandbox was reset since (the bench does) and its client is gone. Such a tenant
 * is removed, so the caller registers it again: its stored ids and caches belong to the old client.
 */
async function reuse() {
  const { gatewayKey } = must(
    "POST gateway-keys",
    await call("POST", `${tenantPath}/gateway-keys`, {}, ADMIN),
  );
  const check = await call("GET", `${GW}/v2/ClientIntegrationInformation`, undefined, {
    authorization: `Bearer ${gatewayKey}`,
  });
  if (check.ok) {
    console.log(`Tenant demo:${slug} reused (registered by an earlier run).`);
    return gatewayKey;
  }
  console.log(
    `Tenant demo:${slug} no longer reaches its sandbox client (${check.status}); registering it again.`,
  );
  must("DELETE tenant", await call("DELETE", tenantPath, undefined, ADMIN));
  return null;
}

const listed = must(
  "GET /admin/tenants",
  await call("GET", `${GW}/admin/tenants`, undefined, ADMIN),
);
const exists = listed.tenants.some((t) => t.environment === "demo" && t.client === slug);
const gatewayKey = (exists && (await reuse())) || (await register());
const tenantName = `demo:${slug}`;

// 3. The webhook secret of the source, in that source's own format.
const secret =
  source === "standard"
    ? `whsec_${randomBytes(32).toString("base64")}`
    : `shpss_${randomBytes(16).toString("hex")}`;
must(
  `PUT webhooks/${source}`,
  await call("PUT", `${GW}/admin/tenants/demo/${slug}/webhooks/${source}`, { secret }, ADMIN),
);
console.log(`${source === "standard" ? "Standard Webhooks" : "Shopify"} secret set.`);

// The order mapping: left at its defaults (NS 4102 accounts); shown so the bookings can be
// followed.
const mapping = must(
  "GET order-mapping",
  await call("GET", `${GW}/admin/tenants/demo/${slug}/order-mapping`, undefined, ADMIN),
);
console.log(`Order mapping (defaults; change with PUT /admin/tenants/demo/${slug}/order-mapping):`);
for (const vat of ["25", "15"]) {
  const r = mapping.vat[vat];
  console.log(
    `  ${vat} % → sales account ${r.salesAccount}, shipping product ${r.shippingProduct}, fallback product ${r.fallbackProduct}`,
  );
}
// Where a paid order settles: one account, or the clearing account of its provider (or source).
const settlesTo = !mapping.settle
  ? "not settled"
  : mapping.settlementAccount !== null
    ? `settled to account ${mapping.settlementAccount}`
    : mapping.clearingBy === "provider"
      ? `settled to its payment provider's clearing account (${Object.entries(
          mapping.providerAccounts,
        )
          .map(([p, a]) => `${p} ${a}`)
          .join(", ")})`
      : `settled to its source's clearing account (${Object.entries(mapping.clearingAccounts)
          .map(([s, a]) => `${s} ${a}`)
          .join(", ")})`;
console.log(
  `  unknown SKUs: ${mapping.unknownSkus}; customers: ${mapping.customers}; delivery: ${mapping.deliveryType}; paid orders ${settlesTo}`,
);

// 4. The order: a company buyer (valid MOD11 organization number), two lines at 25 % and 15 %,
// shipping at 25 %, prices with VAT included: 2 × 1 249.00 + 3 × 287.50 + 149.00 = 3 509.50.
const now = new Date();
const orderNo = 10_000 + Math.floor(Math.random() * 90_000);
const buyer = {
  company: "Nordlys Interiør AS",
  orgNumber: "NO 926 483 013 MVA",
  firstName: "Kari",
  lastName: "Nordmann",
  email: "innkjop@nordlys-interior.no",
  phone: "+47 22 12 34 56",
  line1: "Storgata 14",
  zip: "0184",
  city: "Oslo",
};
const TOTAL = "3509.50";

function standardOrder() {
  const id = `ord_${suffix}`;
  const event = {
    type: "order.paid",
    timestamp: now.toISOString(),
    data: {
      id,
      number: `NB-${orderNo}`,
      placedAt: new Date(now.getTime() - 90_000).toISOString(),
      paidAt: now.toISOString(),
      currency: "NOK",
      taxIncluded: true,
      buyer: {
        id: "cust_4471",
        email: buyer.email,
        firstName: buyer.firstName,
        lastName: buyer.lastName,
        company: buyer.company,
        organizationNumber: buyer.orgNumber,
        phone: buyer.phone,
        address: {
          line1: buyer.line1,
          line2: null,
          zip: buyer.zip,
          city: buyer.city,
          countryCode: "NO",
        },
      },
      lines: [
        {
          id: "L1",
          sku: "PLEDD-ROROS",
          name: "Ullpledd, Røros Tweed, 150 × 200 cm",
          quantity: 2,
          unitPrice: "1249.00",
          discount: "0.00",
          vat: "25",
        },
        {
          id: "L2",
          sku: "KAFFE-1KG",
          name: "Kaffe, hele bønner, 1 kg",
          quantity: 3,
          unitPrice: "287.50",
          discount: "0.00",
          vat: "15",
        },
      ],
      shipping: [
        {
          id: "S1",
          name: "Bring, Pakke til bedrift",
          price: "149.00",
          discount: "0.00",
          vat: "25",
        },
      ],
      total: TOTAL,
    },
  };
  const body = JSON.stringify(event);
  const webhookId = `msg_${randomBytes(12).toString("hex")}`;
  const ts = Math.floor(Date.now() / 1000);
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signature = createHmac("sha256", key).update(`${webhookId}.${ts}.${body}`).digest("base64");
  return {
    orderId: id,
    body,
    headers: {
      "content-type": "application/json",
      "webhook-id": webhookId,
      "webhook-timestamp": String(ts),
      "webhook-signature": `v1,${signature}`,
    },
  };
}

function shopifyOrder() {
  const orderId = String(5_600_000_000_000 + Math.floor(Math.random() * 1_000_000));
  return { orderId, ...signedShopifyOrder(orderId, secret, "nordlys-nettbutikk.myshopify.com") };
}

const delivery = source === "standard" ? standardOrder() : shopifyOrder();
const webhookUrl = `${GW}/webhooks/${source}/${slug}/demo`;
const sent = await call("POST", webhookUrl, delivery.body, delivery.headers);
if (sent.status !== 202)
  fail(`POST ${webhookUrl} answered ${sent.status}: ${JSON.stringify(sent.body)}`);
console.log(
  `\nOrder ${delivery.orderId} (total NOK ${TOTAL}) sent to ${webhookUrl}: ${sent.status} ${sent.body.intake}.`,
);

// 5. Follow the run.
const statusUrl = `${GW}/orders/${source}/${encodeURIComponent(delivery.orderId)}`;
const auth = { authorization: `Bearer ${gatewayKey}` };
const t0 = Date.now();
let run = null;
let last = "";
while (Date.now() - t0 < TIMEOUT_MS) {
  const r = await call("GET", statusUrl, undefined, auth);
  if (r.ok) {
    run = r.body;
    const done = run.steps.map((s) => s.name).join(", ");
    const line = `${run.state}${done ? ` (steps done: ${done})` : ""}`;
    if (line !== last)
      console.log(`  ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)} s  ${line}`);
    last = line;
    if (["settled", "failed", "cancelled", "credited"].includes(run.state)) break;
  }
  await sleep(1000);
}
if (!run) fail(`No status at ${statusUrl} within ${TIMEOUT_MS / 1000} s.`);

// 6. What happened, and where to look.
console.log(`\nState:      ${run.state}`);
console.log(`Invoice no: ${run.invoiceNo ?? "—"}`);
console.log(`Total:      ${run.currency ?? ""} ${run.total ?? "—"}`);
if (run.customer)
  console.log(
    `Customer:   id ${run.customer.id}${run.customer.number != null ? `, no ${run.customer.number}` : ""}${run.customer.created ? " (created)" : " (found)"}`,
  );
if (run.error) console.log(`Error:      step "${run.error.step}": ${run.error.detail}`);
console.log(
  "\nSteps (upstream calls each; the total is what the order spent of the shared 10 req/s):",
);
let calls = 0;
for (const s of run.steps) {
  const { upstreamCalls = 0, ...rest } = s.result ?? {};
  calls += Number(upstreamCalls) || 0;
  const detail = Object.entries(rest)
    .filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(" ");
  console.log(
    `  ${s.ok ? "✓" : "✗"} ${s.name.padEnd(18)} ${String(upstreamCalls).padStart(2)}  ${detail}`,
  );
}
console.log(`  ${"".padEnd(20)}${String(calls).padStart(2)}  upstream calls in all`);

console.log(
  `\nStatus of the order (the gateway key is shown only once; this one is tenant ${tenantName}'s):`,
);
console.log(`  curl -s -H 'Authorization: Bearer ${gatewayKey}' ${statusUrl}`);
if (run.invoiceNo != null) {
  const invoiceUrl = `${GW}/v2/OutgoingInvoices?invoiceNos=${run.invoiceNo}`;
  console.log(`The invoice in the books, through the gateway's /v2 pass-through:`);
  console.log(`  curl -s -H 'Authorization: Bearer ${gatewayKey}' '${invoiceUrl}'`);
  const inv = await call("GET", invoiceUrl, undefined, auth);
  const row = Array.isArray(inv.body) ? inv.body[0] : null;
  if (row)
    console.log(
      `  → invoice ${row.InvoiceNo}: TotalAmount ${row.TotalAmount} ${row.CurrencyCode}, Balance ${row.Balance}, delivered as ${row.InvoiceDeliveryType}`,
    );
}

if (run.state !== "settled")
  fail(
    run.state === "failed"
      ? `The order's run failed${run.error ? ` in step "${run.error.step}"` : ""}.`
      : `The order did not settle within ${TIMEOUT_MS / 1000} s (state: ${run.state}).`,
  );
console.log("\n✓ Settled.");
