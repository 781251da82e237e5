/**
 * Each JSON answer of the gateway's own routes is exactly what `/openapi.json` declares for its
 * route and status. `gw()` checks every answer it sees (test/helpers/answers.ts); here the checker
 * is shown to catch what it must, and every declared JSON operation is driven to its success
 * answers and to a refusal, so a route added without a test of its answer fails the last test.
 */
import { env } from "cloudflare:workers";
import { introspectWorkflow } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { GatewayPaths } from "../../../client/index";
import type { OrderRunView } from "../../../src/orders/run-view";
import { corpus as shopifyCorpus, shopifyRefund } from "../../fixtures/orders/shopify";
import { payoutFailed, payoutPaid } from "../../fixtures/orders/payouts";
import { sign, wooPing } from "../../fixtures/orders/sign";
import {
  checkedAnswers,
  declaredOperation,
  expectDeclared,
  jsonOperations,
  mismatches,
  type Schema,
} from "../../helpers/answers";
import { captureQueue, installReceiver } from "../../helpers/events";
import { ADMIN, gw, json, tenant } from "../../helpers/gateway";
import { initialize, mcpClient } from "../../helpers/mcp";
import { connect, register, tokenRequest } from "../../helpers/oauth";
import { secretBody, shopTenant, waitFor } from "../../helpers/orders";

const workflow = env.ORDER_TO_INVOICE;
const [order] = shopifyCorpus();
if (!order) throw new Error("empty corpus");
const orderId = String(order.payload.id);

/** A complete run view: the type is the schema's, so this holds every declared field. */
const VIEW: OrderRunView = {
  source: "shopify",
  orderId: "1001",
  number: "#1001",
  state: "failed",
  total: "125.00",
  currency: "NOK",
  receivedAt: "2026-03-01T10:00:00.000Z",
  updatedAt: "2026-03-01T10:05:00.000Z",
  deliveries: 2,
  cancelledAt: null,
  attempt: 1,
  customer: { id: 7, number: 10_001, created: true },
  salesOrderId: "so-1",
  salesOrderNo: 3,
  invoiceNo: null,
  payment: { method: "Vipps", title: null, provider: "vipps", clearingAccount: 1906 },
  error: { step: "send invoice", detail: "worker crashed" },
  steps: [{ name: "customer", at: "2026-03-01T10:01:00.000Z", ok: true, result: { id: 7 } }],
  refunds: [
    { id: "r1", state: "received", total: "25.00", creditNoteNo: null, error: null, steps: [] },
  ],
};
const RUN_URL = "https://gateway.test/orders/shopify/1001";

function declaredSchema(method: string, path: string, status: number): Schema {
  const op = declaredOperation(method, path)?.operation;
  const schema = op?.responses[String(status)]?.content?.["application/json"]?.schema;
  if (!schema) throw new Error(`${method} ${path} declares no JSON ${status}`);
  return schema;
}

describe("answers: the checker", () => {
  const run = declaredSchema("GET", "/orders/shopify/1001", 200);

  it("passes the run view as declared, and finds a field the schema lacks at any depth", () => {
    expect(mismatches(VIEW, run)).toEqual([]);
    const refund = VIEW.refunds[0];
    const extra = { ...VIEW, order: {}, refunds: [{ ...refund, lines: [] }] };
    expect(mismatches(extra, run)).toEqual([
      "$.refunds[0].lines: not declared",
      "$.order: not declared",
    ]);
  });

  it("reads an open object (a looseObject's schema) as closed: its extra fields are undeclared", () => {
    const loose = { type: "object", properties: { orderId: { type: "string" } } };
    const open = { ...loose, additionalProperties: {} };
    for (const schema of [loose, open])
      expect(mismatches({ orderId: "1", salesOrderId: "so-1" }, schema)).toEqual([
        "$.salesOrderId: not declared",
      ]);
  });

  it("finds a missing field, a wrong type and a value outside an enum", () => {
    const { customer: _customer, ...missing } = VIEW;
    expect(mismatches(missing, run)).toEqual(["$.customer: missing (required)"]);
    expect(mismatches({ ...VIEW, deliveries: "2", state: "lost" }, run)).toEqual([
      '$.state: "lost" is not one of ["received","running","invoiced","settled","credited","cancelled","failed"]',
      '$.deliveries: "2" is not integer',
    ]);
  });

  it("fails an answer with a status its route does not declare, or a field its schema lacks", async () => {
    await expect(
      expectDeclared("GET", RUN_URL, Response.json(VIEW, { status: 201 })),
    ).rejects.toThrow(/getOrder declares no such answer/);
    await expect(
      expectDeclared("GET", RUN_URL, Response.json({ ...VIEW, secret: "x" })),
    ).rejects.toThrow(/secret: not declared/);
    await expectDeclared("GET", RUN_URL, Response.json(VIEW));
  });
});

/** `GET /orders/{source}/{orderId}`'s answer as the typed client (`ledgergate/client`) has it. */
type ClientRun =
  GatewayPaths["/orders/{source}/{orderId}"]["get"]["responses"][200]["content"]["application/json"];

describe("answers: the typed client", () => {
  it("has every field of the order run the gateway answers, and no other", () => {
    // Compile-time: the client's fields and the view's are the same set (tsc fails otherwise).
    const same: [keyof ClientRun] extends [keyof OrderRunView]
      ? [keyof OrderRunView] extends [keyof ClientRun]
        ? true
        : false
      : false = true;
    const fromClient: Pick<ClientRun, "customer" | "salesOrderId"> = VIEW;
    expect(same).toBe(true);
    expect(fromClient.customer?.created).toBe(true);
  });
});

describe("answers: every JSON route, its success and a refusal", () => {
  it("the operator API and onboarding", async () => {
    const t = await shopTenant();
    const at = `/admin/tenants/${t.environment}/${t.client}`;
    expect((await gw("/admin/tenants", { headers: ADMIN })).status).toBe(200);
    expect((await gw(`${at}/gateway-keys`, json({ graceSeconds: 60 }, "POST", ADMIN))).status).toBe(
      201,
    );
    const secret = json(
      { ...secretBody(t.client, "shopify", "a-new-secret-1234"), graceSeconds: 60 },
      "POST",
      ADMIN,
    );
    expect((await gw(`${at}/webhooks/shopify/secrets`, secret)).status).toBe(201);
    expect((await gw(`${at}/order-mapping`, json({ settle: false }, "PUT", ADMIN))).status).toBe(
      200,
    );
    expect(
      (await gw(`${at}/client-key`, json({ clientKey: t.clientKey }, "PUT", ADMIN))).status,
    ).toBe(200);
    expect((await gw(`${at}/order-mapping`, { headers: ADMIN })).status).toBe(200);
    const stripeKey = `rk_test_${"A1".repeat(16)}`;
    expect((await gw(`${at}/stripe-key`, json({ key: stripeKey }, "PUT", ADMIN))).status).toBe(200);
    expect((await gw(`${at}/stripe-key`, { headers: ADMIN })).status).toBe(200);
    expect((await gw(`${at}/stripe-key`, { method: "DELETE", headers: ADMIN })).status).toBe(204);
    const vipps = {
      clientId: "c",
      clientSecret: "s",
      subscriptionKey: "k",
      merchantSerialNumber: "123456",
      orderSource: "woocommerce",
    };
    expect((await gw(`${at}/vipps-keys`, json(vipps, "PUT", ADMIN))).status).toBe(200);
    expect((await gw(`${at}/vipps-keys`, { headers: ADMIN })).status).toBe(200);
    expect((await gw(`${at}/vipps`, { headers: ADMIN })).status).toBe(200);
    // Keys Vipps refuses: the read answers, the refusal in its last read.
    expect((await gw(`${at}/vipps/read`, { method: "POST", headers: ADMIN })).status).toBe(200);
    expect((await gw(`${at}/vipps-keys`, { method: "DELETE", headers: ADMIN })).status).toBe(204);
    expect((await gw(`${at}/vipps/read`, { method: "POST", headers: ADMIN })).status).toBe(409);
    expect((await gw(`${at}/requests`, { headers: ADMIN })).status).toBe(200);
    expect((await gw(`${at}/webhooks`, { headers: ADMIN })).status).toBe(200);
    expect((await gw(`/admin/search?q=${t.client}`, { headers: ADMIN })).status).toBe(200);
    expect(
      (await gw("/admin/onboarding", json({ environment: "demo" }, "POST", ADMIN))).status,
    ).toBe(201);
    // Refusals: each a declared problem.
    expect((await gw("/admin/tenants")).status).toBe(401);
    expect((await gw(`${at}x/order-mapping`, { headers: ADMIN })).status).toBe(404);
    expect((await gw(`${at}/order-mapping`, json({ settle: 1 }, "PUT", ADMIN))).status).toBe(400);
    // A secret key can move money: refused, and the answer does not echo it.
    const secretKey = `sk_test_${"B2".repeat(16)}`;
    const refused = await gw(`${at}/stripe-key`, json({ key: secretKey }, "PUT", ADMIN));
    expect(refused.status).toBe(400);
    expect(await refused.text()).not.toContain(secretKey);
    expect((await gw(`${at}x/stripe-key`, { headers: ADMIN })).status).toBe(404);
  });

  it("webhooks and order runs", async () => {
    const t = await shopTenant();
    const ping = wooPing();
    expect((await t.deliver("woocommerce", ping.headers, ping.body)).status).toBe(200);
    {
      // The run fails at its first step, and so does the retry's: nothing reaches the sandbox.
      await using introspector = await introspectWorkflow(workflow);
      await introspector.modifyAll(async (m) => {
        await m.disableRetryDelays();
        await m.mockStepError({ name: "load" }, new Error("worker crashed"));
      });
      expect((await t.send("shopify", order.payload)).status).toBe(202);
      await waitFor(t, "shopify", orderId, ["failed"]);
      const [line] = order.payload.line_items as Record<string, unknown>[];
      const refund = shopifyRefund(order.payload, [{ lineId: line?.id as number, quantity: 1 }]);
      expect((await t.send("shopify", refund, { topic: "refunds/create" })).status).toBe(202);
      expect((await t.orders("?state=failed")).status).toBe(200);
      const run = await t.orders(`/shopify/${orderId}`);
      expect(((await run.json()) as OrderRunView).refunds).toHaveLength(1);
      expect((await t.orders(`/shopify/${orderId}/retry`, { method: "POST" })).status).toBe(202);
      await waitFor(t, "shopify", orderId, ["failed"], (r) => r.attempt === 2);
    }
    expect((await t.orders(`/shopify/${orderId}x`)).status).toBe(404);
    expect((await t.orders("?limit=0")).status).toBe(400);
    expect((await t.orders("", { headers: { authorization: "Bearer nope" } })).status).toBe(401);
    const forged = await sign("shopify", order.payload, "not-the-secret");
    expect((await t.deliver("shopify", forged.headers, forged.body)).status).toBe(401);
  });

  it("the MCP server (modern JSON answers) and its protected-resource documents", async () => {
    const t = await shopTenant();
    for (const endpoint of ["/mcp", "/mcp/draft", "/mcp/readonly"]) {
      const client = await mcpClient(t.gatewayKey, { endpoint });
      await client.callTool({ name: "search_operations", arguments: { query: "customers" } });
      await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow();
      await client.close();
      expect((await gw(`/.well-known/oauth-protected-resource${endpoint}`)).status).toBe(200);
    }
    // Refusals: each a declared problem or JSON-RPC error.
    expect((await initialize("/mcp", null)).status).toBe(401);
    expect(
      (await initialize("/mcp", `Bearer ${t.gatewayKey}`, { origin: "https://evil.example" }))
        .status,
    ).toBe(403);
  });

  it("the OAuth server: metadata, registration, tokens, and the admin API's grants", async () => {
    const t = await shopTenant();
    expect((await gw("/.well-known/oauth-authorization-server")).status).toBe(200);
    const { clientId, tokens } = await connect(t.gatewayKey, { scope: "read" });
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token ?? "",
      client_id: clientId,
    });
    expect(refreshed.res.status).toBe(200);
    const grants = `/admin/tenants/${t.environment}/${t.client}/grants`;
    expect((await gw(grants, { headers: ADMIN })).status).toBe(200);
    // Refusals: the OAuth errors and problems each route declares.
    expect((await register({ redirect_uris: ["http://app.example/cb"] })).res.status).toBe(400);
    expect(
      (await tokenRequest({ grant_type: "refresh_token", refresh_token: "x" })).res.status,
    ).toBe(401);
    expect((await tokenRequest({ grant_type: "nope", client_id: clientId })).res.status).toBe(400);
    expect(
      (await gw(`${grants}/grant_AAAAAAAAAAAAAAAA`, { method: "DELETE", headers: ADMIN })).status,
    ).toBe(404);
    expect((await gw(grants)).status).toBe(401);
  });

  it("events, with a gateway key and by the operator", async () => {
    captureQueue();
    installReceiver();
    const t = await tenant();
    const key = { authorization: `Bearer ${t.gatewayKey}` };
    const customer = await gw("/v2/Customers", json({ Name: "Answers AS" }, "POST", key));
    expect(customer.status).toBe(201);
    for (const [base, headers] of [
      ["/events", key],
      [`/admin/tenants/demo/${t.client}/events`, ADMIN],
    ] as const) {
      const made = await gw(
        `${base}/endpoints`,
        json({ url: `https://hooks.${t.client}.example.com/` }, "POST", headers),
      );
      expect(made.status).toBe(201);
      const { id } = (await made.json()) as { id: string };
      const at = `${base}/endpoints/${id}`;
      expect((await gw(`${base}/endpoints`, { headers })).status).toBe(200);
      expect((await gw(at, { headers })).status).toBe(200);
      expect((await gw(at, json({ description: "x" }, "PATCH", headers))).status).toBe(200);
      expect((await gw(`${at}/secret`, { method: "POST", headers })).status).toBe(200);
      expect((await gw(`${at}/deliveries`, { headers })).status).toBe(200);
      expect((await gw(`${at}/test`, { method: "POST", headers })).status).toBe(200);
      expect(
        (await gw(`${at}/replay`, json({ since: "2026-01-01T00:00:00Z" }, "POST", headers))).status,
      ).toBe(202);
      // The feed fills after the write's answer: wait for the event it announced.
      let events: { id: string }[] = [];
      await vi.waitFor(async () => {
        const feed = await gw(base, { headers });
        expect(feed.status).toBe(200);
        events = ((await feed.json()) as { events: { id: string }[] }).events;
        expect(events).toHaveLength(1);
      });
      expect(
        (await gw(`${base}/${events[0]?.id}/redeliver`, { method: "POST", headers })).status,
      ).toBe(202);
      expect((await gw(`${base}?consumer=answers`, { headers })).status).toBe(200);
      const seek = json({ after: events[0]?.id }, "POST", headers);
      expect((await gw(`${base}/consumers/answers/seek`, seek)).status).toBe(200);
      // Refusals: each a declared problem.
      expect(
        (await gw(`${base}/endpoints`, json({ url: "http://x.example/" }, "POST", headers))).status,
      ).toBe(400);
      expect((await gw(`${base}/endpoints/ep_0000000000000000000000`, { headers })).status).toBe(
        404,
      );
    }
  });

  it("payouts", async () => {
    const t = await shopTenant();
    const key = { authorization: `Bearer ${t.gatewayKey}` };
    {
      // A payout naming an order this tenant never had: its run leaves it unmatched.
      await using introspector = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
      const event = payoutPaid("po_answers", [{ type: "charge", orderId: "nope", amount: "1.00" }]);
      expect((await t.send("standard", event)).status).toBe(202);
      for (const i of await introspector.get()) await i.waitForStatus("complete");
    }
    expect((await gw("/payouts", { headers: key })).status).toBe(200);
    expect((await gw("/payouts?state=unmatched&limit=5", { headers: key })).status).toBe(200);
    expect((await gw("/payouts/unpaid-orders", { headers: key })).status).toBe(200);
    expect((await gw("/payouts/standard/po_answers", { headers: key })).status).toBe(200);
    {
      await using introspector = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
      const retried = await gw("/payouts/standard/po_answers/retry", {
        method: "POST",
        headers: key,
      });
      expect(retried.status).toBe(202);
      for (const i of await introspector.get()) await i.waitForStatus("complete");
    }
    // Refusals: each a declared problem.
    expect((await gw("/payouts?state=lost", { headers: key })).status).toBe(400);
    expect((await gw("/payouts/standard/nope", { headers: key })).status).toBe(404);
    expect((await gw("/payouts/unpaid-orders")).status).toBe(401);
    {
      // The provider says it failed: cancelled (nothing was posted), and no longer retried.
      await using introspector = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
      expect((await t.send("standard", payoutFailed("po_answers"))).status).toBe(202);
      for (const i of await introspector.get()) await i.waitForStatus("complete");
    }
    const again = await gw("/payouts/standard/po_answers/retry", { method: "POST", headers: key });
    expect(again.status).toBe(409);
    {
      // A payout of an adjustment alone is held for the operator, who confirms it.
      await using introspector = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
      const event = payoutPaid("po_adjusted", [{ type: "adjustment", amount: "5.00" }]);
      expect((await t.send("standard", event)).status).toBe(202);
      for (const i of await introspector.get()) await i.waitForStatus("complete");
    }
    {
      await using introspector = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
      const confirm = `/admin/tenants/demo/${t.client}/payouts/standard/po_adjusted/confirm`;
      expect((await gw(confirm, { method: "POST", headers: ADMIN })).status).toBe(202);
      for (const i of await introspector.get()) await i.waitForStatus("complete");
      expect((await gw(confirm, { method: "POST", headers: ADMIN })).status).toBe(409);
    }
  });

  it("meta, the documents, and an address no route declares", async () => {
    for (const path of ["/healthz", "/openapi.json", "/v2/openapi.json"])
      expect((await gw(path)).status).toBe(200);
    expect((await gw("/nowhere")).status).toBe(404);
  });

  it("has checked each declared JSON success answer of every operation", () => {
    const unchecked = [...jsonOperations()].flatMap(([id, statuses]) =>
      statuses
        .filter((s) => s.startsWith("2") && !checkedAnswers.has(`${id} ${s}`))
        .map((s) => `${id} ${s}`),
    );
    expect(jsonOperations().size).toBeGreaterThan(10);
    expect(unchecked).toEqual([]);
  });
});
