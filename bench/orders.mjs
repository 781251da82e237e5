// The orders part of `npm run bench` (`npm run bench -- orders` runs only this part):
//   4. upstream calls per order, new customer and products against a returning customer with known
//      products; baseline: a straightforward client doing the same order directly against the sandbox,
//   5. orders per minute through the shared 10 req/s with 20 tenants; baseline: the ceiling that
//      10 req/s allows at the calls per order measured in 4,
//   6. webhook answer time over 200 deliveries (new orders and retried duplicates); baseline:
//      GET /healthz on the same gateway, interleaved with them.
// Every figure comes from this run. Not a test: it asserts nothing. Needs both Workers up and the
// sandbox's demo keys; `run.mjs` starts them.
import { createHmac, randomBytes } from "node:crypto";
import { ADMIN, GW, SB, json, pct, quiet, sleep, stats } from "./lib.mjs";

/** The products of the bench order: VAT included in `gross`; `net` is what a client sends the API. */
const CATALOG = {
  pledd: { sku: "PLEDD-ROROS", name: "Ullpledd, Røros Tweed, 150 × 200 cm", gross: "1249.00", net: 999.2, vat: "25", account: 3000 },
  kaffe: { sku: "KAFFE-1KG", name: "Kaffe, hele bønner, 1 kg", gross: "287.50", net: 250, vat: "15", account: 3030 },
  frakt: { sku: "FRAKT-25", name: "Bring, Pakke til bedrift", gross: "149.00", net: 119.2, vat: "25", account: 3000 },
};
/** A company buyer: Oslo, a valid MOD11 organization number written the VAT-register way. */
const BUYER = {
  id: "cust_4471", email: "innkjop@nordlys-interior.no", firstName: "Kari", lastName: "Nordmann", company: "Nordlys Interiør AS",
  organizationNumber: "NO 926 483 013 MVA", phone: "+47 22 12 34 56", address: { line1: "Storgata 14", line2: null, zip: "0184", city: "Oslo", countryCode: "NO" },
};
const ORG_DIGITS = "926483013";
const TOTAL = "3509.50"; // 2 × 1 249.00 + 3 × 287.50 + 149.00
const TERMINAL = new Set(["settled", "failed", "cancelled", "credited"]);

/** ledgergate's order JSON for order `id` (docs/order-json.md): two lines at 25 % and 15 %, shipping, VAT included. */
function orderEvent(id) {
  const now = new Date().toISOString();
  return {
    type: "order.paid",
    timestamp: now,
    data: {
      id, number: `NB-${id}`, placedAt: now, paidAt: now, currency: "NOK", taxIncluded: true, buyer: BUYER,
      lines: [
        { id: "L1", sku: CATALOG.pledd.sku, name: CATALOG.pledd.name, quantity: 2, unitPrice: CATALOG.pledd.gross, discount: "0.00", vat: "25" },
        { id: "L2", sku: CATALOG.kaffe.sku, name: CATALOG.kaffe.name, quantity: 3, unitPrice: CATALOG.kaffe.gross, discount: "0.00", vat: "15" },
      ],
      shipping: [{ id: "S1", name: CATALOG.frakt.name, price: CATALOG.frakt.gross, discount: "0.00", vat: "25" }],
      total: TOTAL,
    },
  };
}

/** A Standard Webhooks delivery of `body`: `v1,<base64 HMAC-SHA256 of "id.ts.body">` under the decoded whsec_ key. */
function signed(secret, body, webhookId, ts) {
  const sig = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64")).update(`${webhookId}.${ts}.${body}`).digest("base64");
  return { "content-type": "application/json", "webhook-id": webhookId, "webhook-timestamp": String(ts), "webhook-signature": `v1,${sig}` };
}

/** A sandbox client registered as a tenant with a Standard Webhooks secret. */
async function orderTenant(tag) {
  const client = await json("POST", `${SB}/_sandbox/clients`, { environment: "demo", name: "Bench Nettbutikk AS" });
  const slug = `bench-${tag}-${Date.now().toString(36)}-${randomBytes(2).toString("hex")}`;
  // Registration asks for a token, which a 429 (the key's limit spent by direct calls) answers 503: try again.
  let t = null;
  for (let attempt = 0; attempt < 5 && !t?.gatewayKey; attempt++) {
    if (attempt > 0) await sleep(1500);
    t = await json("POST", `${GW}/admin/tenants`, { client: slug, environment: "demo", clientKey: client.clientKey }, ADMIN);
  }
  if (!t?.gatewayKey) throw new Error(`registering ${slug} failed: ${JSON.stringify(t)}`);
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const res = await fetch(`${GW}/admin/tenants/demo/${slug}/webhooks/standard`, { method: "PUT", headers: { "content-type": "application/json", ...ADMIN }, body: JSON.stringify({ secret }) });
  if (res.status !== 204) throw new Error(`setting the secret of ${slug} answered ${res.status}`);
  return { ...client, slug, gatewayKey: t.gatewayKey, secret };
}

/** Sends order `id` to `tenant` as a new event; the HTTP status. */
async function sendOrder(tenant, id, webhookId = `msg_${randomBytes(12).toString("hex")}`, ts = Math.floor(Date.now() / 1000)) {
  const body = JSON.stringify(orderEvent(id));
  const res = await fetch(`${GW}/webhooks/standard/${tenant.slug}/demo`, { method: "POST", headers: signed(tenant.secret, body, webhookId, ts), body });
  await res.arrayBuffer();
  return res.status;
}

const orderRun = (tenant, id) => json("GET", `${GW}/orders/standard/${encodeURIComponent(id)}`, undefined, { authorization: `Bearer ${tenant.gatewayKey}` });
const orderRuns = (tenant) => json("GET", `${GW}/orders?limit=500`, undefined, { authorization: `Bearer ${tenant.gatewayKey}` }).then((r) => r.orders ?? []);

/** Polls until order `id` ends (or `timeoutMs`); the run as the status API shows it. */
async function untilDone(tenant, id, timeoutMs = 60_000) {
  const t0 = Date.now();
  let run = null;
  while (Date.now() - t0 < timeoutMs) {
    run = await orderRun(tenant, id);
    if (TERMINAL.has(run?.state)) return run;
    await sleep(200);
  }
  return run;
}

const stepCalls = (run) => (run?.steps ?? []).reduce((n, s) => n + (Number(s.result?.upstreamCalls) || 0), 0);
const byStep = (run) => (run?.steps ?? []).map((s) => `${s.name}: ${s.result?.upstreamCalls ?? 0}`).join(" · ");

// ---------------------------------------------------------------------------------------------
// The baseline of 4: what a straightforward integration does for the same order, called directly
// against the sandbox: look the customer up, create it; one GET per product and a create for each
// missing one; create the order; read sentState before sending (the send is not idempotent); send;
// poll sentState (the same waits as ledgergate's run: 2 s, 2 s, 3 s …); look the bank account and
// the VAT code up, post the settlement voucher. It paces itself under 10 calls a second so that it
// meets no 429 (which would only add calls), and reuses one token (fetched outside the count).

async function directToken(keys, clientKey) {
  const res = await fetch(`${SB}/Demo/OAuth/Token`, {
    method: "POST",
    headers: { authorization: `Basic ${btoa(`${keys.applicationKey}:${clientKey}`)}`, "ocp-apim-subscription-key": keys.subscriptionKey, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  });
  if (!res.ok) throw new Error(`token: ${res.status}`);
  return (await res.json()).access_token;
}

function naiveClient(keys, token) {
  const sent = [];
  const errors = [];
  const api = async (method, path, body) => {
    // Sliding window: at most 10 calls in any 1.1 s.
    for (;;) {
      const now = Date.now();
      while (sent.length && sent[0] <= now - 1100) sent.shift();
      if (sent.length < 10) break;
      await sleep(sent[0] + 1100 - now);
    }
    sent.push(Date.now());
    api.calls++;
    const res = await fetch(`${SB}/Demo/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "ocp-apim-subscription-key": keys.subscriptionKey, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
      body: body && JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    if (res.status >= 400 && !(res.status === 404 && path.startsWith("/SalesOrders/sentState"))) errors.push(`${method} ${path.split("?")[0]} ${res.status}`);
    return { status: res.status, body: parsed, rows: Array.isArray(parsed) ? parsed : [] };
  };
  api.calls = 0;
  api.errors = errors;
  return api;
}

async function naiveOrder(api, id) {
  const today = new Date().toISOString().slice(0, 10);
  let customer = (await api("GET", `/Customers?organizationNumbers=${ORG_DIGITS}`)).rows[0];
  if (!customer) {
    const a = BUYER.address;
    customer = (await api("POST", "/Customers", {
      IsPerson: false, Name: BUYER.company, OrganizationNumber: ORG_DIGITS, EmailAddress: BUYER.email, InvoiceEmailAddress: BUYER.email, PhoneNumber: BUYER.phone,
      MailAddress: { AddressLine1: a.line1, ZipCode: a.zip, City: a.city, CountryCode: a.countryCode },
    })).body;
  }
  for (const p of Object.values(CATALOG)) {
    if ((await api("GET", `/Products?codes=${encodeURIComponent(p.sku)}`)).rows.length === 0) await api("POST", "/Products", { Code: p.sku, Name: p.name, StandardSalesAccount: p.account });
  }
  const so = (await api("POST", "/SalesOrders/Complete", {
    CustomerId: customer.Id, ExternalImportReference: `naive:${id}`, CurrencyCode: "NOK", SalesOrderDate: today, CustomerReference: `NB-${id}`,
    SalesOrderLines: [
      { ProductCode: CATALOG.pledd.sku, Description: CATALOG.pledd.name, Quantity: 2, ProductUnitPrice: CATALOG.pledd.net },
      { ProductCode: CATALOG.kaffe.sku, Description: CATALOG.kaffe.name, Quantity: 3, ProductUnitPrice: CATALOG.kaffe.net },
      { ProductCode: CATALOG.frakt.sku, Description: CATALOG.frakt.name, Quantity: 1, ProductUnitPrice: CATALOG.frakt.net },
    ],
  })).body;
  await api("GET", `/SalesOrders/sentState?id=${so.Id}`);
  await api("POST", `/SalesOrders/${so.Id}/createAndSendInvoice`, { DeliveryType: "Auto" });
  let invoiceNo = null;
  for (const wait of [2, 2, 3, 5, 10]) {
    await sleep(wait * 1000);
    const [s] = (await api("GET", `/SalesOrders/sentState?id=${so.Id}`)).rows;
    if (s && !s.IsInvoiceBeingProcessed) {
      invoiceNo = s.InvoiceNo ?? null;
      break;
    }
  }
  const [account] = (await api("GET", "/GeneralLedgerAccounts?accountNos=1920")).rows;
  const noVat = (await api("GET", "/VatCodes")).rows.find((c) => c.Code === "0");
  const line = (accountId, amount, inv) => ({ AccountId: accountId, CurrencyAmount: amount, CurrencyCode: "NOK", VatId: noVat?.Id, PostingDate: today, Description: `naive ${id}`, ...(inv ? { InvoiceNo: String(inv) } : {}) });
  await api("POST", "/Vouchers/BankJournals", {
    VoucherDate: today, CurrencyCode: "NOK", ExternalImportReference: `naive:p:${id}`, Description: `naive ${id}`,
    VoucherLines: [line(account?.Id, Number(TOTAL)), line(customer.SubledgerAccountId, -Number(TOTAL), invoiceNo)],
  });
  return invoiceNo;
}

// ---------------------------------------------------------------------------------------------

/** Runs 4–6; answers a function that prints their tables. */
export async function ordersBench(keys) {
  // The real API's settings: 10 req/s, no added latency, no faults.
  await json("PUT", `${SB}/_sandbox/settings`, { environment: "demo", rateLimitPerSecond: 10, latencyMs: 0, faults: [], tokenLifetimeSeconds: 1200 });
  const limit = (await json("GET", `${SB}/_sandbox/settings`)).demo.rateLimitPerSecond;
  const notes = [];
  let uid = 0;
  const newId = () => `b${Date.now().toString(36)}${(uid++).toString(36)}`;

  // 4. Calls per order. One order at a time, nothing else running, counted from the sandbox's stats.
  if (!(await quiet())) notes.push("the sandbox was not quiet before part 4 (leftover runs from an earlier start?); its counts may be high");
  const ours = await orderTenant("calls");
  const perOrder = [];
  for (const kind of ["new customer, 3 new products", "returning customer, known products"]) {
    await quiet(1000, 10_000);
    const id = newId();
    const s0 = await stats();
    const t0 = Date.now();
    const status = await sendOrder(ours, id);
    const run = await untilDone(ours, id);
    const ms = Date.now() - t0;
    await sleep(300);
    const s1 = await stats();
    if (status !== 202 || run?.state !== "settled") notes.push(`part 4, ledgergate, ${kind}: webhook ${status}, state ${run?.state}${run?.error ? ` (${run.error.step}: ${run.error.detail})` : ""}`);
    perOrder.push({ kind, sandbox: s1.requests - s0.requests, throttled: s1.throttled - s0.throttled, steps: stepCalls(run), byStep: byStep(run), seconds: ms / 1000 });
  }
  const naiveTenant = await json("POST", `${SB}/_sandbox/clients`, { environment: "demo", name: "Naive Nettbutikk AS" });
  const api = naiveClient(keys, await directToken(keys, naiveTenant.clientKey));
  for (const row of perOrder) {
    await quiet(1000, 10_000);
    const before = api.calls;
    const s0 = await stats();
    const invoiceNo = await naiveOrder(api, newId());
    const s1 = await stats();
    if (invoiceNo === null) notes.push(`part 4, baseline, ${row.kind}: the invoice was not delivered`);
    row.naive = s1.requests - s0.requests;
    row.naiveOwn = api.calls - before;
    row.naiveThrottled = s1.throttled - s0.throttled;
  }
  if (api.errors.length) notes.push(`part 4, baseline calls that failed: ${api.errors.join(", ")}`);
  // The baseline's direct calls spend the key's limit behind the gateway's back: let that second pass.
  await quiet(1500, 10_000);

  // 5. Orders per minute: 20 tenants, all orders sent at once; first one new order each (new
  // customer and products), then 5 each from the same, now returning, customer.
  const tenants = [];
  for (let i = 0; i < 20; i++) tenants.push(await orderTenant(`t${i}`));
  const rounds = [];
  for (const [kind, perTenant, calls] of [
    ["new customer, new products", 1, perOrder[0].sandbox],
    ["returning customer, known products", 5, perOrder[1].sandbox],
  ]) {
    await quiet(1000, 20_000);
    const ids = tenants.map(() => Array.from({ length: perTenant }, newId));
    const s0 = await stats();
    const t0 = Date.now();
    const statuses = await Promise.all(tenants.flatMap((t, i) => ids[i].map((id) => sendOrder(t, id))));
    const n = statuses.length;
    const wanted = tenants.map((_, i) => new Set(ids[i]));
    let runs = [];
    while (Date.now() - t0 < 240_000) {
      await sleep(2000);
      runs = (await Promise.all(tenants.map(async (t, i) => (await orderRuns(t)).filter((r) => wanted[i].has(r.orderId))))).flat();
      if (runs.length === n && runs.every((r) => TERMINAL.has(r.state))) break;
    }
    const s1 = await stats();
    const settled = runs.filter((r) => r.state === "settled");
    const end = Math.max(t0, ...runs.filter((r) => TERMINAL.has(r.state)).map((r) => Date.parse(r.updatedAt)));
    const wall = (end - t0) / 1000;
    const ceiling = (limit * 60) / calls;
    const perMin = (settled.length / wall) * 60;
    const bad = statuses.filter((s) => s !== 202).length;
    if (bad) notes.push(`part 5, ${kind}: ${bad} of ${n} webhooks not answered 202`);
    const unfinished = runs.filter((r) => !TERMINAL.has(r.state)).length + (n - runs.length);
    if (unfinished) notes.push(`part 5, ${kind}: ${unfinished} of ${n} orders had not finished after 240 s; the figures cover the finished ones`);
    for (const r of runs.filter((x) => x.state === "failed").slice(0, 3)) notes.push(`part 5, ${kind}: order ${r.orderId} failed in ${r.error?.step}: ${r.error?.detail}`);
    rounds.push({
      kind, n, perTenant, settled: settled.length, failed: runs.filter((r) => r.state === "failed").length, wall, perMin, ceiling, calls,
      upstream: s1.requests - s0.requests, throttled: s1.throttled - s0.throttled, steps: runs.reduce((a, r) => a + stepCalls(r), 0),
      // Upstream calls spent by the time the last order settled (the counters are read a moment later).
      perSecond: (s1.requests - s0.requests) / wall,
    });
  }

  // 6. Webhook answer time: 50 new orders, each retried 3 times (same webhook-id, signed anew),
  // the retries 10, 20 and 30 deliveries later; each delivery preceded by a GET /healthz.
  const plan = [];
  for (let k = 0; k < 50; k++) for (let r = 0; r < 4; r++) plan.push({ k, r, at: k + 10 * r });
  plan.sort((a, b) => a.at - b.at || a.r - b.r);
  const events = Array.from({ length: 50 }, (_, k) => ({ tenant: tenants[k % tenants.length], id: newId(), webhookId: `msg_${randomBytes(12).toString("hex")}` }));
  const health = [];
  const fresh = [];
  const dups = [];
  const unexpected = [];
  await quiet(1000, 20_000);
  const t6 = Date.now();
  for (const { k, r } of plan) {
    const e = events[k];
    let t0 = performance.now();
    const h = await fetch(`${GW}/healthz`);
    await h.arrayBuffer();
    health.push(performance.now() - t0);
    // A retry is signed again with a later timestamp (the same one twice is refused as a replay).
    const body = JSON.stringify(orderEvent(e.id));
    const headers = signed(e.tenant.secret, body, e.webhookId, Math.floor(Date.now() / 1000) + r);
    t0 = performance.now();
    const res = await fetch(`${GW}/webhooks/standard/${e.tenant.slug}/demo`, { method: "POST", headers, body });
    await res.arrayBuffer();
    (r === 0 ? fresh : dups).push(performance.now() - t0);
    if (res.status !== (r === 0 ? 202 : 200)) unexpected.push(res.status);
  }
  const sendSeconds = (Date.now() - t6) / 1000;
  if (unexpected.length) notes.push(`part 6: ${unexpected.length} deliveries got an unexpected status (${[...new Set(unexpected)].join(", ")})`);
  // Let the 50 runs finish, so that nothing is left running when the Workers stop.
  let drained = 0;
  const d0 = Date.now();
  while (Date.now() - d0 < 120_000) {
    const all = (await Promise.all(tenants.map(orderRuns))).flat().filter((x) => events.some((e) => e.id === x.orderId));
    drained = all.filter((x) => x.state === "settled").length;
    if (all.length === 50 && all.every((x) => TERMINAL.has(x.state))) break;
    await sleep(1000);
  }
  if (drained < 50) notes.push(`part 6: ${drained} of the 50 new orders settled within ${Math.round((Date.now() - d0) / 1000)} s after the deliveries`);

  return () => {
    const f = (x) => x.toFixed(1);
    console.log(`\n4. Upstream calls per order (one Standard Webhooks order: 2 lines at 25 % and 15 %, shipping, company buyer; counted by the sandbox, token requests and 429s included)\n`);
    console.log("| order | straightforward client (baseline) | ledgergate: sandbox count | ledgergate: Σ steps' upstreamCalls | ratio | ledgergate's calls by step | webhook → settled |\n|---|---|---|---|---|---|---|");
    for (const r of perOrder) {
      console.log(`| ${r.kind} | ${r.naive}${r.naiveOwn !== r.naive ? ` (client counted ${r.naiveOwn})` : ""} | ${r.sandbox}${r.throttled ? ` (${r.throttled}×429)` : ""} | ${r.steps} | ${(r.sandbox / r.naive).toFixed(2)} | ${r.byStep} | ${f(r.seconds)} s |`);
    }
    console.log(`\n5. Orders per minute, 20 tenants, every order sent at once (sandbox limit ${limit} req/s, shared by all tenants)\n`);
    console.log("| orders | settled / failed | wall time to last settled | orders/min | ceiling: limit × 60 ÷ calls per order (4) | achieved / ceiling | upstream calls/s | upstream 429s | per order: sandbox count / Σ steps' upstreamCalls |\n|---|---|---|---|---|---|---|---|---|");
    for (const r of rounds) {
      console.log(`| ${r.n} (${r.perTenant} per tenant), ${r.kind} | ${r.settled} / ${r.failed} | ${f(r.wall)} s | ${f(r.perMin)} | ${f(r.ceiling)} (at ${r.calls}) | ${(r.perMin / r.ceiling).toFixed(2)} | ${f(r.perSecond)} | ${r.throttled} | ${(r.upstream / r.n).toFixed(1)} / ${(r.steps / Math.max(1, r.settled + r.failed)).toFixed(1)} |`);
    }
    const all = [...fresh, ...dups];
    console.log(`\n6. Webhook answer time, ${all.length} Standard Webhooks deliveries to 20 tenants (${fresh.length} new orders, ${dups.length} retries of them), each after a GET /healthz; ${f(sendSeconds)} s in all, the new orders' runs going on meanwhile (ms)\n`);
    console.log("| request | n | median | p99 |\n|---|---|---|---|");
    console.log(`| GET /healthz (baseline) | ${health.length} | ${f(pct(health, 50))} | ${f(pct(health, 99))} |`);
    console.log(`| webhook, all | ${all.length} | ${f(pct(all, 50))} | ${f(pct(all, 99))} |`);
    console.log(`| webhook, new order (202) | ${fresh.length} | ${f(pct(fresh, 50))} | ${f(pct(fresh, 99))} |`);
    console.log(`| webhook, duplicate (200) | ${dups.length} | ${f(pct(dups, 50))} | ${f(pct(dups, 99))} |`);
    console.log(`| ratio (all ÷ baseline) | | ${(pct(all, 50) / pct(health, 50)).toFixed(2)}× | ${(pct(all, 99) / pct(health, 99)).toFixed(2)}× |`);
    console.log(`\nNotes: part 5's ceiling is the sandbox's limit over part 4's sandbox count. ledgergate's RateGovernor grants 10 permits per 1.2 s window (WINDOW_MS in src/durable/rate-governor.ts), so it spends at most 8.3 calls/s: 0.83 of the ceiling, by design.`);
    for (const n of notes) console.log(`- ${n}`);
  };
}
