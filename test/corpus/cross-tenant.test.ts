/**
 * The cross-tenant suite: more than a thousand generated requests (seeded, so a failure replays)
 * through every route family, each made by one tenant, a forger or a stranger against what belongs
 * to another tenant: its records' ids, its orders and their retries, its gateway key in the wrong
 * The cross-tenant suite: more than a thousand generated requests (seeded, so a failure replays)
 * through every route family, each made by one tenant, a forger or a stranger against what belongs
 * to another tenant: its records' ids, its orders and their retries, its gateway key in the wrong
 * place, forged keys naming it, its payouts and their retries, webhooks signed with its secret
 * sent to another tenant's route, its Stripe key through the operator API with a tenant's key,
 * path tricks, MCP tool calls (another tenant's record through
 * `read`, forged keys, another tenant's confirmation handle), the same under an OAuth grant (a
 * grant for one tenant reading another's record, confirming another's handle; forged tokens naming
 * another tenant), its webhook endpoints and events reached with another tenant's key. No answer
 * may carry another tenant's data, and afterwards every tenant's books, order runs, payouts,
 * endpoints and event log are exactly as they were. A second run mixes every tenant's genuine
 * traffic with floods from the same shared address (forged deliveries and keys, MCP keys and OAuth
 * tokens, sign-in guesses and oversized forms, unknown onboarding states): no tenant's delivery or
 * call is refused because of another's traffic. Runs in the corpus project, where the upstream rate
 * limit is lifted (it proves
 * isolation, not throughput); the inbound limit is the real binding, as in production.
 */
import { env } from "cloudflare:workers";
import { introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { randomSecret } from "../../src/lib/crypto";
import { payoutPaid } from "../fixtures/orders/payouts";
import { corpus, shopifyCancelled } from "../fixtures/orders/shopify";
import { rng } from "../fixtures/orders/rng";
import { sign } from "../fixtures/orders/sign";
import { addEndpoint, captureQueue, feed } from "../helpers/events";
import { ADMIN, control, gw, json, slug } from "../helpers/gateway";
import { toolCall } from "../helpers/mcp";
import { connect } from "../helpers/oauth";
import { fromOwnShop, secretBody, shopTenant, waitFor, type ShopTenant } from "../helpers/orders";

/** Requests the suite generates, at least. */
const REQUESTS = 1200;

interface Victim {
  t: ShopTenant;
  /** Its booked payout's id. */
  payoutId: string;
  /** A secret of its own, so a body signed for it is refused by every other tenant's route. */
  secret: string;
  orderId: string;
  customerIds: number[];
  /** Its webhook endpoint and one of its events. */
  endpointId: string;
  eventId: string;
  /** Strings only this tenant's answers may carry. */
  markers: string[];
  /** A write it prepared through MCP and never confirmed: another tenant must not confirm it. */
  handle: string;
  /** Its Stripe key (sealed in its object): no answer to anyone may carry it. */
  stripeKey: string;
  /** An OAuth access token of a write grant for this tenant, approved with its key. */
  token: string;
}

async function victim(n: number, orderPayload: Record<string, unknown>): Promise<Victim> {
  const t = await shopTenant();
  const secret = `xt-secret-${n}-${t.client}`;
  expect(
    (
      await gw(
        `/admin/tenants/demo/${t.client}/webhooks/shopify`,
        json(secretBody(t.client, "shopify", secret), "PUT", ADMIN),
      )
    ).status,
  ).toBe(204);
  const marker = `XT-${t.client}`;
  const stripeKey = `rk_test_${randomSecret(24).replace(/[^A-Za-z0-9]/g, "")}`;
  expect(
    (await gw(`/admin/tenants/demo/${t.client}/stripe-key`, json({ key: stripeKey }, "PUT", ADMIN)))
      .status,
  ).toBe(200);
  const customerIds: number[] = [];
  for (const i of [1, 2]) {
    const res = await t.v2(
      "/Customers",
      json({ Name: `${marker} ${i}`, EmailAddress: `${t.client}-${i}@example.no` }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    customerIds.push(((await res.json()) as { Id: number }).Id);
  }
  const payload = { ...orderPayload, id: 7_000_000 + n };
  const signed = await sign("shopify", payload, secret);
  expect((await t.deliver("shopify", signed.headers, signed.body)).status).toBe(202);
  const orderId = String(payload.id);
  const run = await waitFor(t, "shopify", orderId, ["settled", "failed"]);
  expect(run.state).toBe("settled");
  // Its order paid out, booked. Not named after the marker: a 404 repeats the id it was asked for.
  const payoutId = `po_${7_000_000 + n}`;
  {
    await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
    const event = payoutPaid(payoutId, [{ type: "charge", orderId, amount: run.total }]);
    const data = event.data as Record<string, unknown>;
    expect(
      (await t.send("standard", { ...event, data: { ...data, orderSource: "shopify" } })).status,
    ).toBe(202);
    for (const i of await intro.get()) await i.waitForStatus("complete");
  }
  const prepared = await toolCall("/mcp", t.gatewayKey, "prepare_write", {
    method: "POST",
    path: "/Customers",
    body: { Name: `${marker} unconfirmed` },
  });
  const handle = (prepared.message?.result?.structuredContent as { confirmation?: string })
    ?.confirmation;
  if (!handle) throw new Error(`prepare_write failed: ${prepared.text}`);
  const endpoint = await addEndpoint(t.gatewayKey, {
    url: `https://hooks.${t.client}.example.com/in`,
    description: marker,
  });
  const [event] = await feed(t.gatewayKey, "&types=order.settled");
  if (!event) throw new Error(`${t.name} has no order.settled event`);
  const { tokens } = await connect(t.gatewayKey, { scope: "write" });
  return {
    t,
    secret,
    orderId,
    payoutId,
    customerIds,
    handle,
    endpointId: endpoint.id,
    eventId: event.id,
    stripeKey,
    token: tokens.access_token,
    markers: [
      marker,
      t.clientId,
      t.gatewayKey,
      handle,
      tokens.access_token,
      endpoint.id,
      endpoint.secret,
      stripeKey,
    ],
  };
}

/** What a tenant's books and runs look like, to compare before and after. */
async function snapshot(v: Victim) {
  const key = { authorization: `Bearer ${v.t.gatewayKey}` };
  const payouts = (path: string) => gw(`/payouts${path}`, { headers: key }).then((r) => r.json());
  const [customers, orders, invoices, runs, endpoints, events, paid, unpaid, stripe] =
    await Promise.all([
      v.t.rows("/Customers"),
      v.t.rows("/SalesOrders"),
      v.t.rows("/OutgoingInvoices"),
      v.t.orders("").then((r) => r.json()),
      gw("/events/endpoints", { headers: key }).then((r) => r.json()),
      feed(v.t.gatewayKey),
      payouts(""),
      payouts("/unpaid-orders"),
      gw(`/admin/tenants/demo/${v.t.client}/stripe-key`, { headers: ADMIN }).then((r) => r.json()),
    ]);
  return JSON.stringify({
    customers,
    orders,
    invoices,
    runs,
    endpoints,
    events,
    paid,
    unpaid,
    stripe,
  });
}

describe("cross-tenant isolation", () => {
  it(`${REQUESTS} generated requests across tenants: none reads or changes another tenant's data`, async () => {
    // The victims' endpoints are real: their deliveries are kept from the network.
    captureQueue();
    await control("PUT", "/settings", { rateLimitPerSecond: 200 });
    const base = corpus().find((c) => c.currency === "NOK");
    if (!base) throw new Error("the Shopify corpus has no NOK order");
    const victims = [
      await victim(1, base.payload),
      await victim(2, base.payload),
      await victim(3, base.payload),
    ];
    const before = await Promise.all(victims.map(snapshot));
    const r = rng(20261123);
    const leaks: string[] = [];
    const tally: Record<string, number> = {};

    for (let i = 0; i < REQUESTS; i++) {
      const me = r.pick(victims);
      const other = r.pick(victims.filter((v) => v !== me));
      const forged = `lg_demo_${other.t.client}_${"A".repeat(22)}${r.digits(21)}`;
      const kind = r.pick([
        "v2-other-id",
        "v2-forged",
        "orders-other",
        "retry-other",
        "admin-with-key",
        "webhook-swapped",
        "path-trick",
        "orders-forged",
        "mcp-other-id",
        "mcp-forged",
        "mcp-other-handle",
        "oauth-other-id",
        "oauth-forged",
        "oauth-other-handle",
        "events-other",
        "events-forged",
        "payouts-other",
        "payouts-forged",
      ] as const);
      tally[kind] = (tally[kind] ?? 0) + 1;
      let res: Response;
      let allowed: number[];
      switch (kind) {
        case "v2-other-id":
          // Own key, the other tenant's record id: the API answers for the caller's own client
          // only.
          res = await me.t.v2(`/Customers/${r.pick(other.customerIds)}`);
          allowed = [200, 404];
          break;
        case "v2-forged":
          res = await gw(
            `/v2/${r.pick(["Customers", "SalesOrders", "OutgoingInvoices", `Customers/${r.pick(other.customerIds)}`])}`,
            {
              method: r.pick(["GET", "DELETE", "PATCH"]),
              headers: { authorization: `Bearer ${forged}` },
            },
          );
          allowed = [401];
          break;
        case "orders-other":
          res = await me.t.orders(`/shopify/${other.orderId}`);
          allowed = [404];
          break;
        case "retry-other":
          res = await me.t.orders(`/shopify/${other.orderId}/retry`, { method: "POST" });
          allowed = [404];
          break;
        case "orders-forged":
          res = await gw(`/orders/shopify/${other.orderId}${r.chance(0.5) ? "/retry" : ""}`, {
            method: r.pick(["GET", "POST"]),
            headers: { authorization: `Bearer ${forged}` },
          });
          allowed = [401, 404];
          break;
        case "payouts-other": {
          // Own key, the other tenant's payout (or its retry), or an own list: never the other's.
          const path = r.pick([
            `/payouts/standard/${other.payoutId}`,
            `/payouts/standard/${other.payoutId}/retry`,
            `/payouts/stripe/${other.payoutId}`,
            `/payouts/stripe/${other.payoutId}/retry`,
            "/payouts",
            "/payouts?state=booked",
            "/payouts/unpaid-orders",
          ]);
          res = await gw(path, {
            method: path.endsWith("/retry") ? "POST" : "GET",
            headers: { authorization: `Bearer ${me.t.gatewayKey}` },
          });
          allowed = path.includes(other.payoutId) ? [404] : [200];
          // A list of its own: the other tenant's payout is never in it.
          if (!path.includes(other.payoutId) && (await res.clone().text()).includes(other.payoutId))
            leaks.push(`${i} ${kind}: ${path} lists ${other.t.name}'s payout`);
          break;
        }
        case "payouts-forged":
          res = await gw(
            r.pick([`/payouts/standard/${other.payoutId}`, "/payouts", "/payouts/unpaid-orders"]),
            { headers: { authorization: `Bearer ${forged}` } },
          );
          allowed = [401];
          break;
        case "admin-with-key": {
          // The operator API with a tenant's key: refused, whatever it names, the other's Stripe
          // key among it (set, read or forgotten).
          const stripeKeyOf = `/admin/tenants/demo/${other.t.client}/stripe-key`;
          const [path, init] = r.pick<[string, RequestInit]>([
            ["/admin/tenants", {}],
            [`/admin/tenants/demo/${other.t.client}/order-mapping`, {}],
            [stripeKeyOf, {}],
            [stripeKeyOf, { method: "DELETE" }],
            [stripeKeyOf, json({ key: me.stripeKey }, "PUT")],
          ]);
          res = await gw(path, {
            ...init,
            headers: {
              ...(init.headers as object),
              authorization: `Bearer ${me.t.gatewayKey}`,
            },
          });
          allowed = [401];
          break;
        }
        case "webhook-swapped": {
          // A delivery signed with the other tenant's secret, sent to this tenant's route.
          const signed = await sign(
            "shopify",
            { ...base.payload, id: 8_000_000 + i },
            other.secret,
          );
          res = await me.t.deliver("shopify", signed.headers, signed.body);
          allowed = [401];
          break;
        }
        case "mcp-other-id":
          // Own key through MCP, the other tenant's record: the API's 404 inside an isError result.
          res = (
            await toolCall(r.pick(["/mcp", "/mcp/readonly"]), me.t.gatewayKey, "read", {
              path: `/Customers/${r.pick(other.customerIds)}`,
            })
          ).res;
          allowed = [200];
          break;
        case "mcp-forged":
          res = (
            await toolCall(r.pick(["/mcp", "/mcp/draft", "/mcp/readonly"]), forged, "read", {
              path: "/Customers",
            })
          ).res;
          // The victim's one forged key, sent again and again: past 20 a minute, its own 429.
          allowed = [401, 429];
          break;
        case "mcp-other-handle": {
          // The other tenant's confirmation, with this tenant's key: unknown here, nothing written.
          const call = await toolCall("/mcp", me.t.gatewayKey, "confirm_write", {
            confirmation: other.handle,
          });
          res = call.res;
          allowed = call.message?.result?.isError === true ? [200] : [];
          break;
        }
        case "oauth-other-id":
          // Own grant (its token is for /mcp), the other tenant's record: the grant reads its own
          // tenant's books only.
          res = (
            await toolCall("/mcp", me.token, "read", {
              path: `/Customers/${r.pick(other.customerIds)}`,
            })
          ).res;
          allowed = [200];
          break;
        case "oauth-forged":
          // A token naming the other tenant, made up: never validates; counted by its hash.
          res = (
            await toolCall(
              "/mcp",
              `demo.${other.t.client}:${randomSecret(12)}:${randomSecret(24)}`,
              "read",
              { path: "/Customers" },
            )
          ).res;
          allowed = [401, 429];
          break;
        case "oauth-other-handle": {
          // The other tenant's confirmation under this tenant's grant: unknown, nothing written.
          const call = await toolCall("/mcp", me.token, "confirm_write", {
            confirmation: other.handle,
          });
          res = call.res;
          allowed = call.message?.result?.isError === true ? [200] : [];
          break;
        }
        case "path-trick":
          res = await me.t.v2(
            r.pick([
              `/Customers%2F${r.pick(other.customerIds)}`,
              "/..%2Fadmin/tenants",
              `/%2e%2e/orders/shopify/${other.orderId}`,
              "/Customers/%00",
              `/Customers/${r.pick(other.customerIds)}/..%5C..%5Cadmin`,
            ]),
          );
          allowed = [400, 404];
          break;
        case "events-other": {
          // Own key, the other tenant's endpoint or event: every events route answers 404.
          const key = { authorization: `Bearer ${me.t.gatewayKey}` };
          const ep = `/events/endpoints/${other.endpointId}`;
          const [path, init] = r.pick<[string, RequestInit]>([
            [ep, {}],
            [ep, { method: "DELETE" }],
            [ep, json({ enabled: false }, "PATCH")],
            [`${ep}/deliveries`, {}],
            [`${ep}/secret`, { method: "POST" }],
            [`${ep}/replay`, json({ since: "2026-01-01T00:00:00Z" })],
            [`/events/${other.eventId}/redeliver`, { method: "POST" }],
            [`/events/${other.eventId}/redeliver`, json({ endpoint: other.endpointId })],
            [`/events?after=${other.eventId}`, {}],
          ]);
          res = await gw(path, { ...init, headers: { ...key, ...(init.headers as object) } });
          allowed = [404];
          break;
        }
        case "events-forged":
          res = await gw(
            r.pick([
              "/events",
              "/events/endpoints",
              `/events/endpoints/${other.endpointId}`,
              `/events/${other.eventId}/redeliver`,
            ]),
            { method: r.pick(["GET", "POST"]), headers: { authorization: `Bearer ${forged}` } },
          );
          allowed = [401];
          break;
      }
      const text = await res.text();
      if (!allowed.includes(res.status))
        leaks.push(`${i} ${kind}: status ${res.status}: ${text.slice(0, 200)}`);
      for (const m of other.markers)
        if (text.includes(m))
          leaks.push(`${i} ${kind}: answer carries ${other.t.name}'s ${m.slice(0, 12)}…`);
    }

    expect(leaks).toEqual([]);
    expect(Object.values(tally).reduce((a, b) => a + b, 0)).toBe(REQUESTS);
    expect(Object.keys(tally).sort()).toHaveLength(18);
    // Nothing changed anywhere: books, runs, payouts, endpoints, event logs, and no run started by
    // a swapped webhook.
    expect(await Promise.all(victims.map(snapshot))).toEqual(before);
  });
});

/** Requests the shared-address run generates. */
const SHARED_REQUESTS = 400;

describe("cross-tenant isolation: one shared address", () => {
  it(`${SHARED_REQUESTS} requests from a platform's address: floods refuse no tenant's genuine traffic and carry no other tenant's data`, async () => {
    const base = corpus().find((c) => c.currency === "NOK");
    if (!base) throw new Error("the Shopify corpus has no NOK order");
    const tenants = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const t = await shopTenant();
        const secret = `xs-secret-${n}-${t.client}`;
        const put = json(secretBody(t.client, "shopify", secret), "PUT", ADMIN);
        expect((await gw(`/admin/tenants/demo/${t.client}/webhooks/shopify`, put)).status).toBe(
          204,
        );
        // Claude's and ChatGPT's calls come from their own few addresses: OAuth from the same one.
        const { tokens } = await connect(t.gatewayKey, { scope: "read" });
        return {
          t,
          secret,
          token: tokens.access_token,
          markers: [t.clientId, t.gatewayKey, tokens.access_token],
          accepted: 0,
        };
      }),
    );
    // One address for everything: a shop platform's, also the tenants' integrations' egress.
    const shared = "192.0.2.77";
    const from = (headers: Record<string, string> = {}) => ({
      ...headers,
      "cf-connecting-ip": shared,
    });
    const r = rng(20261124);
    const problems: string[] = [];
    const tally: Record<string, number> = {};
    let orderId = 7_500_000;

    for (let i = 0; i < SHARED_REQUESTS; i++) {
      const me = r.pick(tenants);
      const others = tenants.filter((x) => x !== me);
      const kind = r.pick([
        "webhook-genuine",
        "webhook-forged",
        "webhook-swapped",
        "v2-genuine",
        "v2-forged",
        "sign-in-guess",
        "sign-in-oversized",
        "onboarding-unknown",
        "mcp-genuine",
        "mcp-forged",
        "oauth-genuine",
        "oauth-forged",
      ] as const);
      tally[kind] = (tally[kind] ?? 0) + 1;
      let res: Response;
      let allowed: number[];
      switch (kind) {
        case "webhook-genuine":
        case "webhook-forged":
        case "webhook-swapped": {
          const secret =
            kind === "webhook-genuine"
              ? me.secret
              : kind === "webhook-swapped"
                ? r.pick(others).secret
                : `a-forgers-own-secret-${r.digits(6)}`;
          const signed = await sign(
            "shopify",
            shopifyCancelled({ ...base.payload, id: orderId++ }),
            secret,
            { topic: "orders/cancelled" },
          );
          res = await gw(`/webhooks/shopify/${me.t.client}/demo`, {
            method: "POST",
            headers: from(fromOwnShop(me.t.client, "shopify", signed.headers)),
            body: signed.body,
          });
          allowed = kind === "webhook-genuine" ? [202] : [401];
          if (kind === "webhook-genuine" && res.status === 202) me.accepted++;
          break;
        }
        case "v2-genuine":
          res = await gw("/v2/ClientIntegrationInformation", {
            headers: from({ authorization: `Bearer ${me.t.gatewayKey}` }),
          });
          allowed = [200];
          break;
        case "v2-forged":
          res = await gw(`/v2/${r.pick(["Customers", "SalesOrders"])}`, {
            method: r.pick(["GET", "POST"]),
            headers: from({
              authorization: `Bearer lg_demo_${me.t.client}_${randomSecret(32)}`,
            }),
          });
          allowed = [401, 429];
          break;
        case "mcp-genuine":
          res = (
            await toolCall(
              "/mcp/readonly",
              me.t.gatewayKey,
              "read",
              { path: "/ClientIntegrationInformation" },
              from(),
            )
          ).res;
          allowed = [200];
          break;
        case "mcp-forged":
          // A hosted assistant's address: failures count per credential, never per address.
          res = (
            await toolCall(
              "/mcp",
              `lg_demo_${me.t.client}_${randomSecret(32)}`,
              "read",
              { path: "/Customers" },
              from(),
            )
          ).res;
          allowed = [401, 429];
          break;
        case "oauth-genuine":
          res = (
            await toolCall(
              "/mcp",
              me.token,
              "read",
              { path: "/ClientIntegrationInformation" },
              from(),
            )
          ).res;
          allowed = [200];
          break;
        case "oauth-forged":
          res = (
            await toolCall(
              "/mcp",
              `demo.${me.t.client}:${randomSecret(12)}:${randomSecret(24)}`,
              "read",
              { path: "/Customers" },
              from(),
            )
          ).res;
          allowed = [401, 429];
          break;
        case "sign-in-guess":
        case "sign-in-oversized":
          res = await gw("/console/sign-in", {
            method: "POST",
            headers: from({ "content-type": "application/x-www-form-urlencoded" }),
            body:
              kind === "sign-in-guess"
                ? `token=${slug("guess")}`
                : `token=x&pad=${"a".repeat(20_000)}`,
            redirect: "manual",
          });
          allowed = kind === "sign-in-guess" ? [401, 429] : [413, 429];
          break;
        case "onboarding-unknown":
          res = await gw(`/onboarding/callback?state=${randomSecret(32)}&token=x`, {
            headers: from(),
          });
          allowed = [400, 429];
          break;
      }
      const text = await res.text();
      if (!allowed.includes(res.status))
        problems.push(`${i} ${kind} for ${me.t.name}: status ${res.status}: ${text.slice(0, 200)}`);
      for (const other of others)
        for (const m of other.markers)
          if (text.includes(m))
            problems.push(`${i} ${kind}: answer carries ${other.t.name}'s ${m.slice(0, 12)}…`);
    }

    expect(problems).toEqual([]);
    expect(Object.keys(tally)).toHaveLength(12);
    // The floods were big enough to trip any address-wide block, yet every genuine delivery passed.
    expect((tally["sign-in-guess"] ?? 0) + (tally["sign-in-oversized"] ?? 0)).toBeGreaterThan(40);
    expect(tenants.reduce((n, x) => n + x.accepted, 0)).toBe(tally["webhook-genuine"]);
  });
});
