// The reference part of `npm run bench` (`npm run bench -- reference` runs only this part):
//   7. upstream calls of a realistic job, 100 orders each looking up the VAT codes and the chart of
//      accounts (GET /VatCodes, GET /GeneralLedgerAccounts) and then writing one sales order (POST
//      /SalesOrders/Complete), through the gateway with its reference cache; baseline: the same job
//      with `Cache-Control: no-cache` on the lookups, which is the plain pass-through (every lookup
//      goes upstream). Each job on its own new tenant, so both start with a cold cache.
// Every figure comes from this run. Not a test: it asserts nothing. Needs both Workers up;
// `run.mjs` starts them.
import { GW, json, newTenant, quiet, realApiSettings, stats } from "./lib.mjs";

/** Orders per job. */
const ORDERS = 100;

/**
 * One job of `ORDERS` orders for `gatewayKey`; `headers` go on the lookups. Answers the statuses
 * seen.
 */
async function job(gatewayKey, customerId, headers) {
  const auth = { authorization: `Bearer ${gatewayKey}` };
  const statuses = {};
  const seen = (what, res) => {
    const k = `${what} ${res.status}${res.headers.get("x-cache") ? ` (${res.headers.get("x-cache")})` : ""}`;
    statuses[k] = (statuses[k] ?? 0) + 1;
  };
  for (let i = 0; i < ORDERS; i++) {
    for (const path of ["/VatCodes", "/GeneralLedgerAccounts"]) {
      const res = await fetch(`${GW}/v2${path}`, { headers: { ...auth, ...headers } });
      await res.arrayBuffer();
      seen(`GET ${path}`, res);
    }
    const order = await fetch(`${GW}/v2/SalesOrders/Complete`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        CustomerId: customerId,
        SalesOrderStatus: "Draft",
        CustomerReference: `bench order ${i + 1}`,
      }),
    });
    await order.arrayBuffer();
    seen("POST /SalesOrders/Complete", order);
  }
  return statuses;
}

/** Counts one job's upstream calls (the sandbox's request counter, token requests included). */
async function counted(headers) {
  const t = await newTenant("Reference Bench AS");
  const customer = await json(
    "POST",
    `${GW}/v2/Customers`,
    { Name: "Bench Kunde AS" },
    { authorization: `Bearer ${t.gatewayKey}` },
  );
  await quiet(1000, 10_000);
  const s0 = await stats();
  const t0 = Date.now();
  const statuses = await job(t.gatewayKey, customer.Id, headers);
  const seconds = (Date.now() - t0) / 1000;
  const s1 = await stats();
  return {
    calls: s1.requests - s0.requests,
    throttled: s1.throttled - s0.throttled,
    statuses,
    seconds,
  };
}

/** Runs 7; answers a function that prints its table. */
export async function referenceBench() {
  await realApiSettings();
  const plain = await counted({ "cache-control": "no-cache" });
  const cached = await counted({});
  return () => {
    console.log(
      `\n7. Upstream calls of a job of ${ORDERS} orders (GET /VatCodes, GET /GeneralLedgerAccounts, POST /SalesOrders/Complete each)\n`,
    );
    console.log(
      "| job | upstream calls | of them 429 | seconds | answers |\n|---|---|---|---|---|",
    );
    const answers = (s) =>
      Object.entries(s)
        .map(([k, n]) => `${k}: ${n}`)
        .join("; ");
    console.log(
      `| plain pass-through (Cache-Control: no-cache; baseline) | ${plain.calls} | ${plain.throttled} | ${plain.seconds.toFixed(1)} | ${answers(plain.statuses)} |`,
    );
    console.log(
      `| reference cache | ${cached.calls} | ${cached.throttled} | ${cached.seconds.toFixed(1)} | ${answers(cached.statuses)} |`,
    );
    console.log(
      `| ratio | ${(cached.calls / plain.calls).toFixed(3)} (${plain.calls - cached.calls} calls saved) | | ${(cached.seconds / plain.seconds).toFixed(2)} | |`,
    );
  };
}
