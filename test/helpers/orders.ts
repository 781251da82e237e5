/**
 * Helpers of the order tests: a tenant with a webhook secret for every source, signed Shopify
 * deliveries, and waiting for a run to reach a state (through `GET /orders/...`, as a shop's
 * operator would).
 */
import { expect } from "vitest";
import { Source } from "../../src/orders/order";
import { corpus as shopifyCorpus } from "../fixtures/orders/shopify";
import { FIXTURE_SHOP, sign, TEST_SECRETS, type SignOptions } from "../fixtures/orders/sign";
import { ADMIN, gw, json, tenant } from "./gateway";

export type { Source };
export type ShopTenant = Awaited<ReturnType<typeof shopTenant>>;

/**
 * The Shopify shop a test tenant is bound to: its own. Every test tenant shares the app's one
 * Shopify secret (`TEST_SECRETS.shopify`), as the shops of one app do, so each needs a distinct
 * shop (the gateway refuses one secret for two tenants on the same shop).
 */
export const shopDomainOf = (client: string) => `${client}.myshopify.com`;

/** The body of `PUT …/webhooks/{source}`: Shopify's with the tenant's own shop domain. */
export const secretBody = (client: string, source: Source, secret: string) =>
  source === "shopify" ? { secret, shopDomain: shopDomainOf(client) } : { secret };

/**
 * `headers` as the tenant's own shop sends them: a delivery signed by the fixtures (which name
 * `FIXTURE_SHOP`) comes from the tenant's shop; one that names another shop keeps it.
 */
export function fromOwnShop(client: string, source: Source, headers: Record<string, string>) {
  return source === "shopify" && headers["X-Shopify-Shop-Domain"] === FIXTURE_SHOP
    ? { ...headers, "X-Shopify-Shop-Domain": shopDomainOf(client) }
    : headers;
}

/**
 * A tenant on a new sandbox client, with each source's webhook secret set (and a mapping, if
 * given).
 */
export async function shopTenant(mapping?: Record<string, unknown>) {
  const t = await tenant();
  for (const source of Source.options) {
    expect(
      (
        await gw(
          `/admin/tenants/${t.environment}/${t.client}/webhooks/${source}`,
          json(secretBody(t.client, source, TEST_SECRETS[source]), "PUT", ADMIN),
        )
      ).status,
    ).toBe(204);
  }
  if (mapping)
    expect(
      (
        await gw(
          `/admin/tenants/${t.environment}/${t.client}/order-mapping`,
          json(mapping, "PUT", ADMIN),
        )
      ).status,
    ).toBe(200);
  return {
    ...t,
    /** Delivers a webhook for this tenant, from its own shop unless the headers name another. */
    deliver: (source: Source, headers: Record<string, string>, body: string) =>
      gw(`/webhooks/${source}/${t.client}/${t.environment}`, {
        method: "POST",
        headers: fromOwnShop(t.client, source, headers),
        body,
      }),
    /** Signs `payload` as `source` does (with the test secret set above) and delivers it. */
    send: async (source: Source, payload: unknown, opts: SignOptions = {}) => {
      const signed = await sign(source, payload, undefined, opts);
      return gw(`/webhooks/${source}/${t.client}/${t.environment}`, {
        method: "POST",
        headers: fromOwnShop(t.client, source, signed.headers),
        body: signed.body,
      });
    },
    /** A call to `/orders…` with this tenant's gateway key (unless `headers` brings another). */
    orders: (
      path: string,
      init: Omit<RequestInit, "headers"> & { headers?: Record<string, string> } = {},
    ) =>
      gw(`/orders${path}`, {
        ...init,
        headers: { authorization: `Bearer ${t.gatewayKey}`, ...init.headers },
      }),
    /** A list call to the sandbox's API through the gateway, as rows. */
    rows: async (path: string) => {
      const res = await t.v2(path);
      return res.status === 204 ? [] : ((await res.json()) as Record<string, unknown>[]);
    },
  };
}

/** The run's status once it is in one of `states` (polled every 250 ms, at most 40 s). */
export async function waitFor(
  t: ShopTenant,
  source: Source,
  orderId: string,
  states: string[],
  until: (run: Run) => boolean = () => true,
): Promise<Run> {
  let last: Run | null = null;
  for (let i = 0; i < 160; i++) {
    const res = await t.orders(`/${source}/${orderId}`);
    if (res.status === 200) {
      last = (await res.json()) as Run;
      if (states.includes(last.state) && until(last)) return last;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `order ${orderId} never reached ${states.join("/")}: ${JSON.stringify(last, null, 1)}`,
  );
}

/** The corpus's first NOK Shopify order, sent to `t` and settled: its id and its run. */
export async function settledNokOrder(t: ShopTenant): Promise<{ orderId: string; run: Run }> {
  const order = shopifyCorpus().find((c) => c.currency === "NOK");
  if (!order) throw new Error("no NOK order in the corpus");
  const orderId = String(order.payload.id);
  expect((await t.send("shopify", order.payload)).status).toBe(202);
  const run = await waitFor(t, "shopify", orderId, ["settled", "failed"]);
  expect(run.state, JSON.stringify(run.error)).toBe("settled");
  return { orderId, run };
}

/** `GET /orders/{source}/{orderId}`, as the tests read it. */
export interface Run {
  state: string;
  total: string;
  invoiceNo: number | null;
  salesOrderId: string | null;
  deliveries: number;
  attempt: number;
  cancelledAt: string | null;
  customer: { id: number; created: boolean } | null;
  error: { step: string; detail: string } | null;
  steps: { name: string; result: Record<string, unknown> }[];
  refunds: {
    id: string;
    state: string;
    total: string;
    creditNoteNo: number | null;
    error: string | null;
  }[];
}
