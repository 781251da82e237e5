/**
 * Helpers of the watcher's tests (docs/events.md, "The watcher"): changes made outside the gateway,
 * as another integration makes them (straight to the sandbox, with the client's own token), and
 * one cycle of a tenant's watcher, run by its alarm (`runDurableObjectAlarm`), never by waiting.
 *
 * A call straight to the sandbox spends the environment's subscription key like the gateway's own
 * calls, so it takes a permit from that key's governor first, as every caller of the key must (the
 * governor may grant a burst of ten into a free second; a call behind its back would be the
 * eleventh of that second).
 */
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import type { Watcher } from "../../src/events/watcher/watcher-object";
import { governorStub, tenantName, watcherStub } from "../../src/kernel/stubs";
import type { WatcherView } from "../../src/events/watcher/view";
import { control } from "./gateway";

type Environment = "demo" | "production";
type Dto = Record<string, unknown>;
const SANDBOX = "https://sandbox.ledgergate.local";
const ROOT: Record<Environment, string> = { demo: "/Demo", production: "" };

/** A client of the sandbox, as `tenant()` made it. */
export interface Client {
  environment: Environment;
  client: string;
  clientKey: string;
}

const tokens = new Map<string, string>();

/** A permit of the environment's governor, for a call made behind the gateway's back. */
async function permit(environment: Environment): Promise<void> {
  const p = await governorStub(env, environment).acquire(`${environment}:_test-elsewhere`, 10_000);
  expect(p.ok).toBe(true);
}

/** The client's own token from the sandbox's token endpoint (once per client key). */
async function token(c: Client): Promise<string> {
  const kept = tokens.get(c.clientKey);
  if (kept) return kept;
  const keys = await control<
    Record<Environment, { applicationKey: string; subscriptionKey: string }>
  >("GET", "/keys");
  const k = keys[c.environment];
  await permit(c.environment);
  const res = await env.SANDBOX.fetch(`${SANDBOX}${ROOT[c.environment]}/OAuth/Token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${k.applicationKey}:${c.clientKey}`)}`,
      "ocp-apim-subscription-key": k.subscriptionKey,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const t = ((await res.json()) as { access_token: string }).access_token;
  tokens.set(c.clientKey, t);
  return t;
}

/**
 * An API v2 call made elsewhere: straight to the sandbox with the client's own token, as another
 * integration (or the accounting system's own screens) would; throws unless it answers `expected`.
 */
export async function elsewhere<T = Dto>(
  c: Client,
  method: string,
  path: string,
  body?: unknown,
  expected?: number,
): Promise<T> {
  const keys = await control<Record<Environment, { subscriptionKey: string }>>("GET", "/keys");
  const bearer = await token(c);
  await permit(c.environment);
  const patch = Array.isArray(body);
  const res = await env.SANDBOX.fetch(`${SANDBOX}${ROOT[c.environment]}/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      "ocp-apim-subscription-key": keys[c.environment].subscriptionKey,
      ...(body === undefined
        ? {}
        : { "content-type": patch ? "application/json-patch+json" : "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (expected !== undefined) expect(res.status, text).toBe(expected);
  else expect(res.status, text).toBeLessThan(300);
  return (text ? JSON.parse(text) : null) as T;
}

/** The tenant's watcher, as the gateway addresses it. */
export const watcherOf = (c: Client) => watcherStub(env, tenantName(c.environment, c.client));

/** Runs one cycle of the tenant's watcher (its alarm, which must be set); answers its view. */
export async function cycle(c: Client): Promise<WatcherView> {
  const stub = watcherOf(c);
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  return stub.status();
}

/** The watcher's alarm, epoch ms, or null. */
export function alarmOf(c: Client): Promise<number | null> {
  return runInDurableObject(watcherOf(c), (_w: Watcher, state) => state.storage.getAlarm());
}

/**
 * An invoice sent elsewhere to a new customer, for a product of `price`: its row as
 * `GET /OutgoingInvoices` lists it, and the customer. The sandbox delivers it 1.5 s after the send
 * (its own clock); its sent state is read until it shows.
 */
export async function invoiceElsewhere(c: Client, price: number) {
  const customer = await elsewhere(c, "POST", "/Customers", { Name: `Buyer ${price}` });
  const product = await elsewhere(c, "POST", "/Products", {
    Name: `Thing ${price}`,
    UnitPrice: price,
  });
  const order = await elsewhere(c, "POST", "/SalesOrders/Complete", {
    CustomerId: customer.Id,
    SalesOrderLines: [{ ProductId: product.Id, Quantity: 1 }],
  });
  await elsewhere(c, "POST", `/SalesOrders/${String(order.Id)}/createAndSendInvoice`, {});
  return { customer, invoice: await sentInvoice(c, String(order.Id)) };
}

/** The invoice of sales order `orderId` once the sandbox has delivered it. */
export async function sentInvoice(c: Client, orderId: string): Promise<Dto> {
  let invoiceNo: unknown = null;
  await expect
    .poll(
      async () => {
        const [s] = await elsewhere<Dto[]>(c, "GET", `/SalesOrders/sentState?id=${orderId}`);
        invoiceNo = s?.InvoiceNo ?? null;
        return invoiceNo;
      },
      { timeout: 15_000, interval: 250 },
    )
    .not.toBeNull();
  const [row] = await elsewhere<Dto[]>(
    c,
    "GET",
    `/OutgoingInvoices?invoiceNos=${String(invoiceNo)}`,
  );
  return row as Dto;
}

/** A bank voucher paying `amount` of invoice `invoiceNo` from `customer`'s sub-ledger. */
export function bankPayment(
  accountId: unknown,
  customer: Dto,
  invoiceNo: unknown,
  amount: unknown,
) {
  const today = new Date().toISOString().slice(0, 10);
  return {
    VoucherDate: today,
    CurrencyCode: "NOK",
    VoucherLines: [
      { AccountId: accountId, CurrencyAmount: amount, VatId: 1, PostingDate: today },
      {
        AccountId: customer.SubledgerAccountId,
        CurrencyAmount: -Number(amount),
        VatId: 1,
        PostingDate: today,
        InvoiceNo: String(invoiceNo),
      },
    ],
  };
}
