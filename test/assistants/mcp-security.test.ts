/**
 * The MCP server's door and scopes (`src/assistants/mcp-key.ts`,
 * `src/assistants/mcp/principal.ts`): the 401 and its RFC 9728 document, a removed tenant's key,
 * failures limited by the credential that failed and never by the tenant it names or the address it
 * came from, Origin, the read and draft scopes, and no credential in any tool result, log row or
 * console page.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { randomSecret } from "../../src/kernel/crypto";
import { ACCESS_TOKEN_TTL_SECONDS } from "../../src/assistants/oauth/server";
import {
  MAX_PREPARED_BODY_BYTES,
  MAX_UNCONFIRMED_PER_PRINCIPAL,
} from "../../src/assistants/tenant/write-confirmations";
import { asKeyHolder, tenantName } from "../../src/kernel/stubs";
import { signIn } from "../helpers/console";
import { ADMIN, fresh, gw, json, stats, tenant } from "../helpers/gateway";
import { restoreClock, skipAhead } from "../helpers/clock";
import { errorOf, initialize, mcpClient, structuredOf, toolCall } from "../helpers/mcp";
import { connect, tokenRequest } from "../helpers/oauth";

beforeEach(() => fresh());

type Tenant = Awaited<ReturnType<typeof tenant>>;
const forgedKeyOf = (t: Tenant) => `lg_demo_${t.client}_${randomSecret(32)}`;

describe("mcp security: the key", () => {
  it("answers a missing or forged key 401 with a challenge naming the endpoint's RFC 9728 document", async () => {
    const t = await tenant();
    for (const [endpoint, scopes] of [
      ["/mcp", ["read", "draft", "write"]],
      ["/mcp/draft", ["read", "draft"]],
      ["/mcp/readonly", ["read"]],
    ] as const) {
      const none = await initialize(endpoint, null);
      expect(none.status).toBe(401);
      const metadata = `https://gateway.test/.well-known/oauth-protected-resource${endpoint}`;
      expect(none.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadata}"`);
      const forged = await initialize(endpoint, `Bearer ${forgedKeyOf(t)}`);
      expect(forged.status).toBe(401);
      expect(forged.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${metadata}", error="invalid_token"`,
      );
      const doc = await gw(new URL(metadata).pathname);
      expect(doc.status).toBe(200);
      expect(await doc.json()).toEqual({
        resource: `https://gateway.test${endpoint}`,
        resource_name: expect.stringContaining("ledgergate") as string,
        authorization_servers: ["https://gateway.test"],
        bearer_methods_supported: ["header"],
        scopes_supported: scopes,
      });
    }
  });

  it("refuses a removed tenant's key with 401", async () => {
    const t = await tenant();
    const client = await mcpClient(t.gatewayKey);
    await client.listTools();
    const removed = await gw(`/admin/tenants/demo/${t.client}`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(removed.status).toBe(204);
    const res = await initialize("/mcp", `Bearer ${t.gatewayKey}`);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
    await expect(mcpClient(t.gatewayKey)).rejects.toThrow();
  });

  it("forty forged keys naming a tenant, from one address, refuse neither its valid key nor another's", async () => {
    const [attacked, other] = [await tenant(), await tenant()];
    const from = { "cf-connecting-ip": "192.0.2.99" };
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i++)
      statuses.add((await initialize("/mcp", `Bearer ${forgedKeyOf(attacked)}`, from)).status);
    // Each forged key is its own credential: each failed once, so each is a 401.
    expect(statuses).toEqual(new Set([401]));
    const client = await mcpClient(other.gatewayKey, { headers: from });
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    await structuredOf(client, "read", { path: "/Customers" });
    const own = await mcpClient(attacked.gatewayKey, { headers: from });
    await structuredOf(own, "search_operations", { query: "customers" });
  });

  it("bare requests from many addresses are counted nowhere: anyone's next one keeps its 401 and challenge", async () => {
    for (let i = 0; i < 45; i++)
      expect(
        (await initialize("/mcp", null, { "cf-connecting-ip": `198.51.100.${i}` })).status,
      ).toBe(401);
    for (const endpoint of ["/mcp", "/mcp/draft", "/mcp/readonly"]) {
      const next = await initialize(endpoint, null, { "cf-connecting-ip": "203.0.113.7" });
      expect(next.status).toBe(401);
      expect(next.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="https://gateway.test/.well-known/oauth-protected-resource${endpoint}"`,
      );
    }
  });

  it("a credential that keeps failing is refused by its own hash: a 429 that keeps the challenge, for it alone", async () => {
    const t = await tenant();
    const forged = `Bearer ${forgedKeyOf(t)}`;
    let last: Response | null = null;
    // The binding counts fixed minute windows: 41 attempts put 21 in one of them, whatever the
    // clock.
    for (let i = 0; i < 41 && last?.status !== 429; i++)
      last = await initialize("/mcp", forged, { "cf-connecting-ip": `198.51.100.${i}` });
    expect(last?.status).toBe(429);
    expect(last?.headers.get("retry-after")).toBeTruthy();
    expect(last?.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await initialize("/mcp", `Bearer ${forgedKeyOf(t)}`)).status).toBe(401);
    expect((await initialize("/mcp", `Bearer ${t.gatewayKey}`)).status).toBe(200);
  });
});

describe("mcp security: OAuth tokens under a flood", () => {
  afterEach(restoreClock);

  it("forged tokens naming a tenant do not keep its assistant from refreshing: its expired token gets 401 invalid_token", async () => {
    const t = await tenant();
    const { clientId, tokens } = await connect(t.gatewayKey);
    for (let i = 0; i < 45; i++) {
      const forged = `demo.${t.client}:g${i}:${crypto.randomUUID()}`;
      const res = await initialize("/mcp", `Bearer ${forged}`, {
        "cf-connecting-ip": `198.51.100.${i}`,
      });
      expect(res.status).toBe(401);
    }
    await skipAhead(ACCESS_TOKEN_TTL_SECONDS * 1000 + 1_000);
    const expired = await initialize("/mcp", `Bearer ${tokens.access_token}`);
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token ?? "",
      client_id: clientId,
    });
    expect(refreshed.res.status).toBe(200);
    expect((await initialize("/mcp", `Bearer ${String(refreshed.body.access_token)}`)).status).toBe(
      200,
    );
  });

  it("a token refused at another endpoint still works at its own", async () => {
    const t = await tenant();
    const { tokens } = await connect(t.gatewayKey, { endpoint: "/mcp/readonly", scope: "read" });
    expect((await initialize("/mcp", `Bearer ${tokens.access_token}`)).status).toBe(401);
    expect((await initialize("/mcp/readonly", `Bearer ${tokens.access_token}`)).status).toBe(200);
  });
});

describe("mcp security: the door", () => {
  it("refuses a browser page of another site (403), lets the gateway's own and localhost pages in", async () => {
    const t = await tenant();
    const key = `Bearer ${t.gatewayKey}`;
    const evil = await initialize("/mcp", key, { origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    for (const origin of ["https://gateway.test", "http://localhost:6274"])
      expect((await initialize("/mcp", key, { origin })).status).toBe(200);
  });

  it("answers a browser's preflight for the allowed origins only", async () => {
    const preflight = (origin: string) =>
      gw("/mcp", {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type, mcp-protocol-version",
        },
      });
    const local = await preflight("http://localhost:6274");
    expect(local.status).toBe(204);
    expect(local.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
    expect(local.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
    const evil = await preflight("https://evil.example");
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers GET and DELETE 405: every request stands alone", async () => {
    const t = await tenant();
    for (const method of ["GET", "DELETE"]) {
      const res = await gw("/mcp", {
        method,
        headers: { authorization: `Bearer ${t.gatewayKey}` },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });
});

describe("mcp security: scopes", () => {
  it("a readonly session lists no write tool, and a write attempt fails", async () => {
    const t = await tenant();
    const client = await mcpClient(t.gatewayKey, { endpoint: "/mcp/readonly" });
    const names = (await client.listTools()).tools.map((x) => x.name);
    expect(names).toContain("read");
    expect(names).not.toContain("prepare_write");
    expect(names).not.toContain("confirm_write");
    await expect(
      client.callTool({
        name: "prepare_write",
        arguments: { method: "POST", path: "/Customers", body: { Name: "Fjord AS" } },
      }),
    ).rejects.toThrow(/prepare_write not found/);
    const found = await structuredOf<{ operations: { allowed: boolean; class: string }[] }>(
      client,
      "search_operations",
      { query: "customer", limit: 50 },
    );
    for (const op of found.operations) expect(op.allowed).toBe(op.class === "read");
  });

  it("a draft session creates a sales order but cannot send its invoice, nor confirm a write prepared with more scope", async () => {
    const t = await tenant();
    const customer = (await (await t.v2("/Customers", json({ Name: "Fjord AS" }))).json()) as {
      Number: number;
    };
    const draft = await mcpClient(t.gatewayKey, { endpoint: "/mcp/draft" });
    const order = await structuredOf<{ confirmation: string }>(draft, "prepare_write", {
      method: "POST",
      path: "/SalesOrders/Complete",
      body: {
        CustomerNo: customer.Number,
        SalesOrderLines: [{ Description: "Kaffe", Quantity: 1, ProductUnitPrice: 100 }],
      },
    });
    const created = await structuredOf<{ result: { Id: string } }>(draft, "confirm_write", order);
    const send = `/SalesOrders/${created.result.Id}/createAndSendInvoice`;
    const before = (await stats()).requests;
    const refused = await errorOf(draft, "prepare_write", {
      method: "POST",
      path: send,
      body: { DeliveryType: "PdfByEmail" },
    });
    expect(refused).toContain("scope is draft");
    expect(refused).toContain("class write");
    // The same key with the write scope prepares it; the draft session cannot confirm it.
    const full = await mcpClient(t.gatewayKey);
    const prepared = await structuredOf<{ confirmation: string }>(full, "prepare_write", {
      method: "POST",
      path: send,
      body: { DeliveryType: "PdfByEmail" },
    });
    expect(await errorOf(draft, "confirm_write", prepared)).toBe(
      "This connection's scope is draft: it cannot confirm a write of class write. Nothing was sent.",
    );
    expect((await stats()).requests).toBe(before);
    const res = await t.v2("/OutgoingInvoices");
    expect(res.status).toBe(204);
  });
});

describe("mcp security: a new client key", () => {
  it("forgets the writes prepared against the old books: their confirmation is unknown", async () => {
    const t = await tenant();
    const client = await mcpClient(t.gatewayKey);
    const prepared = await structuredOf<{ confirmation: string }>(client, "prepare_write", {
      method: "POST",
      path: "/Customers",
      body: { Name: "Fjord AS" },
    });
    const replaced = await gw(
      `/admin/tenants/demo/${t.client}/client-key`,
      json({ clientKey: t.clientKey }, "PUT", ADMIN),
    );
    expect(await replaced.json()).toMatchObject({ cleared: { writeConfirmations: 1 } });
    expect(await errorOf(client, "confirm_write", prepared)).toMatch(/^No write prepared/);
    expect(await t.v2("/Customers").then((r) => r.status)).toBe(204);
  });
});

describe("mcp security: what one request may cost", () => {
  it("a JSON-RPC batch of 100 tool calls is refused whole, and makes no upstream call", async () => {
    const t = await tenant();
    const before = (await stats()).requests;
    const res = await gw("/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        authorization: `Bearer ${t.gatewayKey}`,
      },
      body: JSON.stringify(
        Array.from({ length: 100 }, (_, i) => ({
          jsonrpc: "2.0",
          id: i + 1,
          method: "tools/call",
          params: { name: "read", arguments: { path: "/Customers" } },
        })),
      ),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect((await stats()).requests).toBe(before);
  });

  it("the 21st unconfirmed prepare of one connection is refused, saying the cap; a body over 64 KiB too", async () => {
    const t = await tenant();
    const prepare = (body: unknown) =>
      toolCall("/mcp", t.gatewayKey, "prepare_write", { method: "POST", path: "/Customers", body });
    for (let i = 0; i < MAX_UNCONFIRMED_PER_PRINCIPAL; i++) {
      const { message } = await prepare({ Name: `Fjord ${i} AS` });
      expect(message?.result?.isError, JSON.stringify(message)).toBeFalsy();
    }
    const refused = await prepare({ Name: "One too many AS" });
    expect(refused.message?.result?.isError).toBe(true);
    expect(refused.message?.result?.content?.[0]?.text).toContain(
      `${MAX_UNCONFIRMED_PER_PRINCIPAL} prepared writes waiting`,
    );
    const other = await tenant();
    const large = await toolCall("/mcp", other.gatewayKey, "prepare_write", {
      method: "POST",
      path: "/Customers",
      body: { Name: "Fjord AS", LegalName: "x".repeat(MAX_PREPARED_BODY_BYTES) },
    });
    expect(large.message?.result?.isError).toBe(true);
    expect(large.message?.result?.content?.[0]?.text).toContain(
      `keeps at most ${MAX_PREPARED_BODY_BYTES}`,
    );
  });
});

describe("mcp security: secrets", () => {
  it("no gateway key, client key or API token in any tool result, log row or console page", async () => {
    const t = await tenant();
    const token = await asKeyHolder(
      env,
      { tenant: tenantName("demo", t.client), key: t.gatewayKey },
      (f) => f.access(),
    );
    if (!token.ok) throw new Error("no token");
    const secrets = [t.gatewayKey, t.clientKey, token.value.token];
    const client = await mcpClient(t.gatewayKey);
    const answers = [
      await client.listTools(),
      await client.callTool({ name: "read", arguments: { path: "/Customers" } }),
      await client.callTool({ name: "read", arguments: { path: "/Customers/1" } }),
      await client.callTool({ name: "read", arguments: { path: "/NoSuchThing" } }),
      await client.callTool({
        name: "prepare_write",
        arguments: { method: "POST", path: "/Customers", body: { Nope: 1 } },
      }),
      await client.callTool({
        name: "confirm_write",
        arguments: { confirmation: `cw_${"B".repeat(24)}` },
      }),
      await client.callTool({ name: "order_run_status", arguments: { state: "failed" } }),
    ];
    const log = await gw(`/admin/tenants/demo/${t.client}/requests`, { headers: ADMIN });
    const page = await (await signIn()).page(`/console/tenants/demo/${t.client}/requests`);
    const seen = [JSON.stringify(answers), await log.text(), page].join("\n");
    expect(seen).toContain("Assistant tool calls");
    for (const secret of secrets) expect(seen).not.toContain(secret);
  });
});
