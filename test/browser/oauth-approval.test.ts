/**
 * The approval page of an assistant's OAuth connection in real Chromium (issue 28): both Workers
 * under `wrangler dev` on free ports with fresh state (./workers.ts), Debian's Chromium
 * (./chromium.ts). One connection from the client's first request to its revocation: the client
 * registers itself and sends the browser to the page (PKCE S256); a wrong key shows the page again;
 * the right key, a scope and a lifetime approve it, and the browser lands on the client's loopback
 * callback with the code; the code becomes tokens, the tokens a tool call through the MCP SDK's own
 * client; the operator sees the connection on the tenant's console page and revokes it, and the
 * next call is refused. The runtime suites (test/assistants/oauth/) cover every branch; this
 * proves the page works where it is used, in a browser, cookies, redirects and CSP included.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot } from "./chromium";
import { startWorkers, type Workers } from "./workers";

const ADMIN = { authorization: "Bearer local-admin-token", "content-type": "application/json" };
const OPERATOR_TOKEN = "local-admin-token";

let workers: Workers | undefined;
let browser: Browser | undefined;
/** The client's loopback callback: what the browser brought back. */
let callback: Server | undefined;
const arrived: URL[] = [];

const gw = (path: string) => `${workers?.gateway ?? "http://gateway.not.started"}${path}`;

beforeAll(async () => {
  [workers, browser] = await Promise.all([startWorkers(), launchChromium()]);
  callback = createServer((req, res) => {
    arrived.push(new URL(req.url ?? "/", "http://127.0.0.1"));
    res.writeHead(200, { "content-type": "text/plain" }).end("You may close this window.");
  });
  await new Promise<void>((ok) => callback?.listen(0, "127.0.0.1", ok));
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((ok) => (callback ? callback.close(() => ok()) : ok()));
  await workers?.stop();
});

/** A tenant on a new sandbox client: its name and gateway key. */
async function tenant(): Promise<{ client: string; name: string; gatewayKey: string }> {
  const sandbox = await fetch(`${workers?.sandbox}/_sandbox/clients`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ environment: "demo", name: "Browser AS" }),
  });
  expect(sandbox.status).toBe(201);
  const { clientKey } = (await sandbox.json()) as { clientKey: string };
  const client = `oauth-${randomBytes(4).toString("hex")}`;
  const res = await fetch(gw("/admin/tenants"), {
    method: "POST",
    headers: ADMIN,
    body: JSON.stringify({ client, environment: "demo", clientKey, name: "Browser AS" }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const body = (await res.json()) as { tenant: string; gatewayKey: string };
  return { client, name: body.tenant, gatewayKey: body.gatewayKey };
}

/** A tool-calling client of `/mcp` with `token`. */
async function assistant(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(gw("/mcp")), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "browser-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** Every form control of the page has an accessible name (the browser's own computation). */
async function expectNamedControls(page: Page): Promise<void> {
  const tree = await page.locator("body").ariaSnapshot();
  const unnamed = tree
    .split("\n")
    .filter((l) => /^\s*- (textbox|combobox|radio|button)(?=$|[ :[])(?! ")/.test(l));
  expect(unnamed, tree).toEqual([]);
}

describe("oauth approval page in Chromium", () => {
  it("a connection from registration to revocation: page, wrong key, approval, callback, tokens, a tool call, the console's Revoke", async () => {
    const t = await tenant();
    const address = callback?.address();
    if (!address || typeof address === "string") throw new Error("no callback");
    const redirectUri = `http://127.0.0.1:${address.port}/callback`;

    // The client registers itself and sends the person to the page, with PKCE.
    const registered = await fetch(gw("/oauth/register"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Browser Test Assistant",
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      }),
    });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const authorize = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: redirectUri,
      state: "browser-state",
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource: gw("/mcp"),
      scope: "read draft write",
    });

    const context = await browser?.newContext();
    if (!context) throw new Error("no browser");
    const page = await context.newPage();
    await page.goto(gw(`/oauth/authorize?${authorize}`));
    expect(await page.locator("h1").innerText()).toBe(
      "Connect Browser Test Assistant to ledgergate?",
    );
    const main = await page.locator("main").innerText();
    expect(main).toContain("registered itself");
    expect(main).toContain("127.0.0.1");
    expect(main).toContain("an app on this computer");
    await expectNamedControls(page);
    await screenshot(page, "oauth-approval");

    // A wrong key: the page again, saying so, with the field empty.
    await page.getByLabel("The tenant's gateway key").fill(`lg_demo_${t.client}_${"A".repeat(43)}`);
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByText("That gateway key is not valid").waitFor();
    expect(await page.getByLabel("The tenant's gateway key").inputValue()).toBe("");

    // The right key, the draft scope, a week: the browser lands on the client's callback.
    await page.getByLabel("The tenant's gateway key").fill(t.gatewayKey);
    await page.getByRole("radio", { name: /^draft:/ }).check();
    await page.getByLabel("For how long").selectOption("7d");
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/callback");
    const [back] = arrived;
    expect(back?.searchParams.get("state")).toBe("browser-state");
    expect(back?.searchParams.get("iss")).toBe(workers?.gateway);
    expect(back?.href).not.toContain(t.gatewayKey);

    // The code, exchanged with the verifier; the token, used by the SDK's client.
    const exchanged = await fetch(gw("/oauth/token"), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: back?.searchParams.get("code") ?? "",
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: redirectUri,
        resource: gw("/mcp"),
      }),
    });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; scope: string };
    expect(tokens.scope).toBe("draft");
    const mcp = await assistant(tokens.access_token);
    const names = (await mcp.listTools()).tools.map((x) => x.name);
    expect(names).toContain("prepare_write");
    const read = await mcp.callTool({ name: "read", arguments: { path: "/Customers" } });
    expect(read.isError).toBeFalsy();
    await mcp.close();

    // The operator sees the connection on the tenant's page and revokes it.
    const operator = await context.newPage();
    await operator.goto(gw("/console/sign-in"));
    await operator.getByLabel("Operator token").fill(OPERATOR_TOKEN);
    await operator.getByRole("button", { name: "Sign in" }).click();
    await operator.waitForURL((url) => url.pathname === "/console");
    await operator.goto(gw(`/console/tenants/demo/${t.client}#assistants`));
    const row = operator.locator("#assistants ~ .scroll tr", { hasText: "Browser Test Assistant" });
    expect(await row.innerText()).toContain("draft");
    await screenshot(operator, "oauth-console-assistants");
    await operator.getByRole("button", { name: /^Revoke Browser Test Assistant/ }).click();
    await operator.getByText("revoked: its tokens are refused from now on").waitFor();
    await expect(assistant(tokens.access_token)).rejects.toThrow();
    await context.close();
  });
});
