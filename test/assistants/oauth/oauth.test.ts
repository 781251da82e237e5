/**
 * The OAuth authorization server of the MCP endpoints (`src/assistants/oauth/`,
 * `src/assistants/oauth/`), end to end against the gateway Worker with the sandbox behind it: the
 * metadata documents, dynamic registration and its caps, the code exchanged with PKCE after an
 * approval with a gateway key, tool calls through the MCP SDK's own client with the token (audited
 * as the grant), refresh, and the grant's end (revoked in the console, through the admin API or RFC
 * 7009, its tenant removed, its lifetime over): each refused at the next request.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { asOperator, tenantName } from "../../../src/kernel/stubs";
import { restoreClock, skipAhead } from "../../helpers/clock";
import { signIn } from "../../helpers/console";
import { feed } from "../../helpers/events";
import { ADMIN, fresh, gw, tenant } from "../../helpers/gateway";
import { initialize, mcpClient, structuredOf } from "../../helpers/mcp";
import {
  clientId,
  codeOf,
  connect,
  exchange,
  openApproval,
  ORIGIN,
  pkce,
  postApproval,
  register,
  tokenRequest,
} from "../../helpers/oauth";

beforeEach(() => fresh());
afterEach(restoreClock);

type Tenant = Awaited<ReturnType<typeof tenant>>;

/** A grant as the admin API lists it. */
interface Grant {
  id: string;
  scope: string;
  approvedBy: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
}

/** The tenant's grants, as the admin API lists them. */
async function grantsOf(t: Tenant): Promise<Grant[]> {
  const res = await gw(`/admin/tenants/demo/${t.client}/grants`, { headers: ADMIN });
  expect(res.status).toBe(200);
  return ((await res.json()) as { grants: Grant[] }).grants;
}

/** The door's answer to `token` at `endpoint`: 200 once it lets the request through. */
const door = async (token: string, endpoint = "/mcp") =>
  (await initialize(endpoint, `Bearer ${token}`)).status;

describe("oauth: metadata", () => {
  it("each endpoint's protected-resource document names this gateway and the scopes it allows", async () => {
    for (const [endpoint, scopes] of [
      ["/mcp", ["read", "draft", "write"]],
      ["/mcp/draft", ["read", "draft"]],
      ["/mcp/readonly", ["read"]],
    ] as const) {
      const doc = (await (
        await gw(`/.well-known/oauth-protected-resource${endpoint}`)
      ).json()) as Record<string, unknown>;
      expect(doc).toMatchObject({
        resource: `${ORIGIN}${endpoint}`,
        authorization_servers: [ORIGIN],
        scopes_supported: scopes,
      });
    }
  });

  it("the authorization server's metadata (RFC 8414): PKCE S256 only, CIMD, registration, the three resources", async () => {
    const res = await gw("/.well-known/oauth-authorization-server");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      revocation_endpoint: `${ORIGIN}/oauth/token`,
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["read", "draft", "write"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
  });

  it("answers a browser's preflight of the token endpoint, and other methods 405", async () => {
    const pre = await gw("/oauth/token", {
      method: "OPTIONS",
      headers: { origin: "https://inspector.example", "access-control-request-method": "POST" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://inspector.example");
    expect((await gw("/oauth/token")).status).toBe(405);
  });
});

describe("oauth: dynamic registration", () => {
  it("registers a public client with a loopback or https redirect URI", async () => {
    for (const uri of [
      "http://127.0.0.1:9/cb",
      "http://localhost:9/cb",
      "https://app.example/cb",
    ]) {
      const { res, body } = await register({ redirect_uris: [uri] });
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(body).toMatchObject({ redirect_uris: [uri], token_endpoint_auth_method: "none" });
    }
  });

  it("refuses a remote http, a javascript: or no redirect URI, with the OAuth error", async () => {
    for (const uris of [["http://app.example/cb"], ["javascript:alert(1)"], []]) {
      const { res, body } = await register({ redirect_uris: uris });
      expect(res.status, JSON.stringify(uris)).toBe(400);
      expect(String(body.error)).toMatch(/^invalid_(redirect_uri|client_metadata)$/);
    }
  });
});

describe("oauth: the flow with a gateway key", () => {
  it("exchanges the code with PKCE, calls tools through the SDK's client, audited as the grant", async () => {
    const t = await tenant();
    const { tokens } = await connect(t.gatewayKey, { scope: "write" });
    expect(tokens).toMatchObject({
      token_type: "bearer",
      scope: "write",
      resource: `${ORIGIN}/mcp`,
    });
    expect(tokens.expires_in).toBeLessThanOrEqual(900);
    expect(tokens.refresh_token).toBeDefined();
    const [grant] = await grantsOf(t);
    expect(grant).toMatchObject({
      scope: "write",
      approvedBy: expect.stringMatching(/^key:[0-9a-f]{8}$/) as string,
    });
    for (const era of ["auto", "legacy"] as const) {
      const client = await mcpClient(tokens.access_token, { era });
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name)).toContain("confirm_write");
      const read = await structuredOf<{ rows: number | null }>(client, "read", {
        path: "/Customers",
      });
      expect(read.rows).toBe(0);
      await client.close();
    }
    const calls = await asOperator(env, tenantName("demo", t.client), (f) => f.toolCalls(10, null));
    expect(calls.ok && calls.value.map((c) => c.principal)).toEqual([
      `grant:${grant?.id}`,
      `grant:${grant?.id}`,
    ]);
    // The door noted the use.
    expect((await grantsOf(t))[0]?.lastUsedAt).not.toBeNull();
  });

  it("a write under a grant is a write under a key: one customer, a replayed confirmation, one customer.created event, audited as the grant", async () => {
    const t = await tenant();
    const { tokens } = await connect(t.gatewayKey, { scope: "write" });
    const [grant] = await grantsOf(t);
    const client = await mcpClient(tokens.access_token);
    const prepared = await structuredOf<{ confirmation: string }>(client, "prepare_write", {
      method: "POST",
      path: "/Customers",
      body: { Name: "Grant AS" },
    });
    const confirm = () =>
      structuredOf<{ status: number; replayed: boolean; result: { Id: number } }>(
        client,
        "confirm_write",
        { confirmation: prepared.confirmation },
      );
    const first = await confirm();
    expect([first.status, first.replayed]).toEqual([201, false]);
    const again = await confirm();
    expect([again.replayed, again.result.Id]).toEqual([true, first.result.Id]);
    await client.close();
    const customers = await t.v2("/Customers");
    expect(((await customers.json()) as { Id: number }[]).map((c) => c.Id)).toEqual([
      first.result.Id,
    ]);
    // Announced as a key's write is, once (the replay wrote nothing); announcing starts after the
    // answer was taken, so the feed is read until the event is there.
    await vi.waitFor(
      async () => {
        const announced = await feed(t.gatewayKey, "&types=customer.created");
        expect(announced.map((e) => e.data.Id)).toEqual([first.result.Id]);
      },
      { timeout: 10_000, interval: 50 },
    );
    const calls = await asOperator(env, tenantName("demo", t.client), (f) => f.toolCalls(10, null));
    expect(calls.ok && new Set(calls.value.map((c) => c.principal))).toEqual(
      new Set([`grant:${grant?.id}`]),
    );
  });

  it("refuses a wrong verifier and a code used twice (invalid_grant)", async () => {
    const t = await tenant();
    const id = await clientId();
    const { verifier, challenge } = await pkce();
    const page = await openApproval({ clientId: id, challenge });
    const { code } = codeOf(
      await postApproval(page, { decision: "approve", gatewayKey: t.gatewayKey, scope: "read" }),
    );
    const wrong = await tokenRequest({
      grant_type: "authorization_code",
      code,
      code_verifier: (await pkce()).verifier,
      client_id: id,
      redirect_uri: "http://127.0.0.1:33418/callback",
    });
    expect(wrong.res.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");
    const right = await exchange({ code, verifier, clientId: id });
    expect(right.access_token).toBeTruthy();
    const again = await tokenRequest({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      client_id: id,
      redirect_uri: "http://127.0.0.1:33418/callback",
    });
    expect(again.body.error).toBe("invalid_grant");
  });

  it("refreshes: the new access token works, the refresh token rotates", async () => {
    const t = await tenant();
    const { clientId: id, tokens } = await connect(t.gatewayKey, { scope: "read" });
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token ?? "",
      client_id: id,
    });
    expect(refreshed.res.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body).toMatchObject({ scope: "read", token_type: "bearer" });
    expect(refreshed.body.access_token).not.toBe(tokens.access_token);
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(await door(String(refreshed.body.access_token))).toBe(200);
    const again = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: String(refreshed.body.refresh_token),
      client_id: id,
    });
    expect(again.res.status).toBe(200);
  });
});

describe("oauth: the grant's end", () => {
  it("a grant revoked in the console: its token is refused at the next request, its refresh too", async () => {
    const t = await tenant();
    const { clientId: id, tokens } = await connect(t.gatewayKey);
    expect(await door(tokens.access_token)).toBe(200);
    const [grant] = await grantsOf(t);
    const operator = await signIn();
    const page = await operator.page(`/console/tenants/demo/${t.client}`);
    expect(page).toContain("Test Assistant");
    expect(page).toContain(grant?.id ?? "?");
    const revoked = await operator.post(
      `/console/tenants/demo/${t.client}/grants/${grant?.id}/revoke`,
    );
    expect(revoked.status).toBe(303);
    const res = await initialize("/mcp", `Bearer ${tokens.access_token}`);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`,
    );
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token ?? "",
      client_id: id,
    });
    expect(refresh.body.error).toBe("invalid_grant");
    expect(await grantsOf(t)).toEqual([]);
  });

  it("a grant revoked through the admin API, and a token revoked by its client (RFC 7009)", async () => {
    const t = await tenant();
    const first = await connect(t.gatewayKey);
    const second = await connect(t.gatewayKey, { scope: "read" });
    const grants = await grantsOf(t);
    expect(grants).toHaveLength(2);
    const readGrant = grants.find((g) => g.scope === "read");
    const del = await gw(`/admin/tenants/demo/${t.client}/grants/${readGrant?.id}`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(del.status).toBe(204);
    expect(await door(second.tokens.access_token)).toBe(401);
    expect(await door(first.tokens.access_token)).toBe(200);
    const unknown = await gw(`/admin/tenants/demo/${t.client}/grants/${readGrant?.id}`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(unknown.status).toBe(404);
    const revoked = await tokenRequest({
      token: first.tokens.access_token,
      client_id: first.clientId,
    });
    expect(revoked.res.status).toBe(200);
    expect(await door(first.tokens.access_token)).toBe(401);
  });

  it("removing the tenant ends its grants: 401 at the next request, no refresh", async () => {
    const t = await tenant();
    const { clientId: id, tokens } = await connect(t.gatewayKey);
    expect(await door(tokens.access_token)).toBe(200);
    const removed = await gw(`/admin/tenants/demo/${t.client}`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(removed.status).toBe(204);
    expect(await door(tokens.access_token)).toBe(401);
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token ?? "",
      client_id: id,
    });
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("a grant of an hour ends after the hour: its token and its refresh are refused", async () => {
    const t = await tenant();
    const { clientId: id, tokens } = await connect(t.gatewayKey, { lifetime: "1h" });
    const [grant] = await grantsOf(t);
    const lasts = Date.parse(grant?.expiresAt ?? "") - Date.parse(grant?.createdAt ?? "");
    // The lifetime counts from the approval; the row is written a moment later.
    expect(Math.abs(lasts - 3_600_000)).toBeLessThan(60_000);
    expect(await door(tokens.access_token)).toBe(200);
    await skipAhead(3_600_000 + 1_000);
    expect(await door(tokens.access_token)).toBe(401);
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token ?? "",
      client_id: id,
    });
    expect(refresh.res.status).toBe(400);
    expect(await grantsOf(t)).toEqual([]);
  });
});
