/**
 * What a grant may do at the MCP door (`src/assistants/oauth/door.ts`,
 * `src/assistants/mcp-routes.ts`): a `read` grant lists no write tool; a `draft` grant is asked to
 * step up (`403 insufficient_scope`) for a write it lacks the scope for where the endpoint allows
 * it; a grant is bound to its endpoint; forged tokens are counted by their own hash, never by the
 * tenant they name or the address they come from; and a client identified by a client ID
 * metadata document, whose fetch is the test's own (the runtime reaches no network).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fresh, gw, tenant } from "../../helpers/gateway";
import { errorOf, initialize, mcpClient, structuredOf, toolCall } from "../../helpers/mcp";
import {
  authorizeQuery,
  codeOf,
  connect,
  exchange,
  openApproval,
  ORIGIN,
  pkce,
  postApproval,
  REDIRECT,
} from "../../helpers/oauth";

beforeEach(() => fresh());
afterEach(() => vi.restoreAllMocks());

const WRITE_TOOLS = ["prepare_write", "confirm_write"];

describe("oauth scopes: what a grant may do", () => {
  it("a read grant lists no write tool, and calling one is an unknown tool", async () => {
    const t = await tenant();
    const { tokens } = await connect(t.gatewayKey, { scope: "read" });
    const client = await mcpClient(tokens.access_token);
    const names = (await client.listTools()).tools.map((x) => x.name);
    for (const w of WRITE_TOOLS) expect(names).not.toContain(w);
    expect(names).toContain("read");
    const call = await toolCall("/mcp", tokens.access_token, "prepare_write", {
      method: "POST",
      path: "/Customers",
      body: { Name: "Fjord AS" },
    });
    expect(call.res.status).toBe(200);
    expect(call.message?.error?.code).toBe(-32602);
  });

  it("a draft grant on /mcp prepares a draft, and is asked to step up (403 insufficient_scope) for a write", async () => {
    const t = await tenant();
    const { tokens } = await connect(t.gatewayKey, { scope: "draft" });
    const draft = await toolCall("/mcp", tokens.access_token, "prepare_write", {
      method: "POST",
      path: "/Customers",
      body: { Name: "Fjord AS" },
    });
    expect(draft.message?.result?.isError, draft.text).toBeFalsy();
    const write = await toolCall("/mcp", tokens.access_token, "prepare_write", {
      method: "DELETE",
      path: "/Customers/1",
    });
    expect(write.res.status).toBe(403);
    expect(write.res.headers.get("www-authenticate")).toMatch(
      new RegExp(
        `^Bearer error="insufficient_scope".*scope="write".*resource_metadata="${ORIGIN}/\\.well-known/oauth-protected-resource/mcp"`,
      ),
    );
    // The modern era too: the SDK's client gets the same refusal.
    const client = await mcpClient(tokens.access_token);
    const refused = await client
      .callTool({ name: "prepare_write", arguments: { method: "DELETE", path: "/Customers/1" } })
      .then(
        () => null,
        (e: unknown) => e,
      );
    // The SDK reads the 403 as a scope challenge, naming the scope to ask for.
    expect(String(refused)).toBe('InsufficientScopeError: Insufficient scope: required "write"');
  });

  it("a gateway key on /mcp/draft is not asked to step up: the tool refuses in words, as before", async () => {
    const t = await tenant();
    const client = await mcpClient(t.gatewayKey, { endpoint: "/mcp/draft" });
    const text = await errorOf(client, "prepare_write", { method: "DELETE", path: "/Customers/1" });
    expect(text).toContain("scope is draft");
  });

  it("a grant is for its endpoint only: a token for /mcp/readonly is refused at /mcp", async () => {
    const t = await tenant();
    const { tokens } = await connect(t.gatewayKey, { scope: "read", endpoint: "/mcp/readonly" });
    expect((await initialize("/mcp/readonly", `Bearer ${tokens.access_token}`)).status).toBe(200);
    expect((await initialize("/mcp", `Bearer ${tokens.access_token}`)).status).toBe(401);
  });

  it("forty forged tokens naming one tenant from one address refuse no token, theirs or another's", async () => {
    const [attacked, other] = [await tenant(), await tenant()];
    const { tokens } = await connect(other.gatewayKey, { scope: "read" });
    const address = { "cf-connecting-ip": "203.0.113.77" };
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i++) {
      const forged = `demo.${attacked.client}:g${i}:${"x".repeat(32)}`;
      statuses.add((await initialize("/mcp", `Bearer ${forged}`, address)).status);
    }
    // Each forged token is its own credential and failed once: a 401 each, never a 429.
    expect([...statuses]).toEqual([401]);
    expect((await initialize("/mcp", `Bearer ${tokens.access_token}`, address)).status).toBe(200);
  });
});

describe("oauth scopes: a client ID metadata document", () => {
  const CLIENT_ID = "https://assistant.example/oauth/client.json";
  const document = {
    client_id: CLIENT_ID,
    client_name: "Example Assistant",
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };

  /** Answers the document's URL from the test (and fails any other fetch of the library's). */
  function serveDocument(body: unknown, status = 200) {
    const real = globalThis.fetch;
    return vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.startsWith("https://assistant.example/"))
        return Promise.resolve(
          new Response(JSON.stringify(body), {
            status,
            headers: { "content-type": "application/json", "cache-control": "no-store" },
          }),
        );
      return real(input, init);
    });
  }

  it("authorizes a client by its document: the page names its domain, the token works", async () => {
    const fetched = serveDocument(document);
    const t = await tenant();
    const { verifier, challenge } = await pkce();
    const page = await openApproval({ clientId: CLIENT_ID, challenge });
    expect(page.html).toContain("Published by <strong>assistant.example</strong>");
    expect(page.html).toContain("Example Assistant");
    const approved = await postApproval(page, {
      decision: "approve",
      gatewayKey: t.gatewayKey,
      scope: "read",
    });
    const tokens = await exchange({ code: codeOf(approved).code, verifier, clientId: CLIENT_ID });
    const client = await mcpClient(tokens.access_token);
    const read = await structuredOf<{ rows: number | null }>(client, "read", {
      path: "/Customers",
    });
    expect(read.rows).toBe(0);
    const urls = fetched.mock.calls.map(([input]) =>
      input instanceof Request ? input.url : String(input),
    );
    expect(urls.filter((u) => u.startsWith("https://assistant.example/")).length).toBeGreaterThan(
      0,
    );
    expect(urls.filter((u) => u.startsWith("https://assistant.example/"))).toEqual(
      urls.filter((u) => u === CLIENT_ID),
    );
  });

  it("refuses a client whose document cannot be fetched, or names another client id: a page, no redirect", async () => {
    const { challenge } = await pkce();
    for (const [body, status] of [
      [{ error: "gone" }, 404],
      [{ ...document, client_id: "https://assistant.example/other.json" }, 200],
    ] as const) {
      serveDocument(body, status);
      const res = await gw(
        `/oauth/authorize?${authorizeQuery({ clientId: CLIENT_ID, challenge })}`,
        {
          redirect: "manual",
        },
      );
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toContain("cannot be verified");
      vi.restoreAllMocks();
    }
  });
});
