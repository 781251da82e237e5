/**
 * The approval page (`src/assistants/oauth/`, `src/assistants/oauth/approve.ts`) as a browser meets
 * it: what it shows (the client's name escaped and marked unverified, where the tokens go, a
 * warning for this computer, never a key), the headers that keep it to itself, requests it must not
 * approve (an unknown client, a redirect URI the client did not register, no PKCE from a public or
 * a confidential client), the form's refusals (a wrong key, another site, a used or foreign handle,
 * a scope beyond the endpoint, a consent begun without PKCE), denial, and the operator's way
 * through the console.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { randomSecret } from "../../../src/kernel/crypto";
import { authorizationServer } from "../../../src/assistants/oauth/server";
import { signIn } from "../../helpers/console";
import { ADMIN, fresh, gw, tenant } from "../../helpers/gateway";
import {
  authorizeQuery,
  clientId,
  codeOf,
  exchange,
  field,
  openApproval,
  ORIGIN,
  pkce,
  postApproval,
  readPage,
  REDIRECT,
  sharedClient,
} from "../../helpers/oauth";
import { initialize } from "../../helpers/mcp";

beforeEach(() => fresh());

/** An approval page of the file's client, with its PKCE verifier. */
async function page(endpoint = "/mcp") {
  const id = await sharedClient();
  const { verifier, challenge } = await pkce();
  return { id, verifier, page: await openApproval({ clientId: id, challenge, endpoint }) };
}

describe("oauth approval: the page", () => {
  it("shows the client's name, escaped and marked unverified, where its tokens go, and a warning for a local app", async () => {
    const id = await clientId({ client_name: 'Evil <script>alert("x")</script> Bot' });
    const { challenge } = await pkce();
    const p = await openApproval({ clientId: id, challenge });
    expect(p.html).not.toContain("<script>");
    expect(p.html).toContain("Evil &lt;script&gt;");
    expect(p.html).toContain("registered itself");
    expect(p.html).toContain("127.0.0.1");
    expect(p.html).toContain("an app on this computer");
    expect(p.html).toContain(`${ORIGIN}/mcp`);
    // The three scopes of /mcp, the widest asked for first; the lifetimes; the key's field.
    for (const s of ["read", "draft", "write"]) expect(p.html).toContain(`id="scope-${s}"`);
    expect(p.html).toMatch(/id="scope-write"[^>]*checked/);
    expect(p.html).toContain('name="gatewayKey" type="password"');
  });

  it("keeps itself to itself: no framing, no caching, a form that may lead only here or to the client, a __Host- cookie", async () => {
    const { page: p } = await page();
    const h = p.res.headers;
    expect(h.get("x-frame-options")).toBe("DENY");
    expect(h.get("cache-control")).toBe("no-store");
    const csp = h.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self' http://127.0.0.1:33418;");
    expect(p.cookie).toMatch(/^__Host-oauth-consent-/);
    expect(h.getSetCookie().join(";")).toMatch(/Secure; HttpOnly; SameSite=Lax/);
  });

  it("offers no more than the endpoint allows", async () => {
    const { page: p } = await page("/mcp/readonly");
    expect(p.html).toContain('id="scope-read"');
    expect(p.html).not.toContain('id="scope-draft"');
    expect(p.html).not.toContain('id="scope-write"');
  });

  it("refuses to approve an unknown client or a redirect URI it did not register (a page, no redirect); sends a request without PKCE back with its error", async () => {
    const id = await sharedClient();
    const { challenge } = await pkce();
    const unknown = await gw(
      `/oauth/authorize?${authorizeQuery({ clientId: "nobody", challenge })}`,
      {
        redirect: "manual",
      },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("location")).toBeNull();
    const elsewhere = await gw(
      `/oauth/authorize?${authorizeQuery({ clientId: id, challenge, redirectUri: "https://evil.example/cb" })}`,
      { redirect: "manual" },
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get("location")).toBeNull();
    const q = new URLSearchParams(authorizeQuery({ clientId: id, challenge }));
    q.delete("code_challenge");
    q.delete("code_challenge_method");
    const noPkce = await gw(`/oauth/authorize?${q.toString()}`, { redirect: "manual" });
    expect(noPkce.status).toBe(302);
    const back = new URL(noPkce.headers.get("location") ?? "");
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("iss")).toBe(ORIGIN);
  });
});

describe("oauth approval: PKCE of every client", () => {
  const confidential = { token_endpoint_auth_method: "client_secret_basic" };

  it("sends a confidential client's request without PKCE, or with the plain method, back with invalid_request; with S256 it gets the page", async () => {
    const id = await clientId(confidential);
    const { challenge } = await pkce();
    const q = new URLSearchParams(authorizeQuery({ clientId: id, challenge }));
    q.delete("code_challenge");
    q.delete("code_challenge_method");
    const plain = new URLSearchParams(authorizeQuery({ clientId: id, challenge: "a".repeat(43) }));
    plain.set("code_challenge_method", "plain");
    for (const query of [q, plain]) {
      const res = await gw(`/oauth/authorize?${query.toString()}`, { redirect: "manual" });
      expect(res.status).toBe(302);
      const back = new URL(res.headers.get("location") ?? "");
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
      expect(back.searchParams.get("error")).toBe("invalid_request");
      expect(back.searchParams.get("state")).toBe("st-1");
      expect(back.searchParams.get("iss")).toBe(ORIGIN);
    }
    expect((await openApproval({ clientId: id, challenge })).html).toContain("registered itself");
  });

  it("refuses at the form a consent begun without PKCE (not by the page): nothing approved", async () => {
    const t = await tenant();
    const id = await clientId(confidential);
    const q = new URLSearchParams(authorizeQuery({ clientId: id, challenge: "unused" }));
    q.delete("code_challenge");
    q.delete("code_challenge_method");
    const oauth = authorizationServer(ORIGIN).getOAuthApi(env);
    const request = await oauth.parseAuthRequest(
      new Request(`${ORIGIN}/oauth/authorize?${q.toString()}`),
    );
    const consent = await oauth.beginConsent(request);
    const cookie = consent.headers
      .getSetCookie()
      .map((line) => line.split(";")[0] ?? "")
      .join("; ");
    const res = await postApproval(
      { res: new Response(), html: "", cookie, consent: consent.handle, request: q.toString() },
      { decision: "approve", gatewayKey: t.gatewayKey, scope: "read" },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("PKCE is required of every client");
    const grants = await gw(`/admin/tenants/demo/${t.client}/grants`, { headers: ADMIN });
    expect(await grants.json()).toEqual({ grants: [] });
  });
});

describe("oauth approval: the form", () => {
  it("a wrong key: the page again (a new handle, the key not shown back), 401, nothing approved", async () => {
    const t = await tenant();
    const { page: p } = await page();
    const forged = `lg_demo_${t.client}_${"A".repeat(43)}`;
    const res = await postApproval(p, { decision: "approve", gatewayKey: forged, scope: "read" });
    expect(res.status).toBe(401);
    const again = await readPage(res);
    expect(again.html).toContain("That gateway key is not valid");
    expect(again.html).not.toContain(forged);
    expect(again.consent).not.toBe(p.consent);
    expect(again.cookie).toMatch(/^__Host-oauth-consent-/);
    const grants = await gw(`/admin/tenants/demo/${t.client}/grants`, { headers: ADMIN });
    expect(await grants.json()).toEqual({ grants: [] });
    // The first page's handle was not spent: the right key approves there.
    const ok = await postApproval(p, {
      decision: "approve",
      gatewayKey: t.gatewayKey,
      scope: "read",
    });
    expect(codeOf(ok).state).toBe("st-1");
  });

  it("wrong keys naming a tenant from other addresses never turn its holder's own mistake into a 429", async () => {
    const t = await tenant();
    const forged = () => `lg_demo_${t.client}_${randomSecret(32)}`;
    let { page: p } = await page();
    for (let i = 0; i < 45; i++) {
      const res = await postApproval(
        p,
        { decision: "approve", gatewayKey: forged(), scope: "read" },
        { "cf-connecting-ip": `198.51.100.${i}` },
      );
      expect(res.status).toBe(401);
      p = await readPage(res);
    }
    const holder = { "cf-connecting-ip": "203.0.113.44" };
    const typo = await postApproval(
      p,
      { decision: "approve", gatewayKey: forged(), scope: "read" },
      holder,
    );
    expect(typo.status).toBe(401);
    const retyped = await readPage(typo);
    const ok = await postApproval(
      retyped,
      { decision: "approve", gatewayKey: t.gatewayKey, scope: "read" },
      holder,
    );
    expect(codeOf(ok).state).toBe("st-1");
  });

  it("denies: back to the client with access_denied, its state and iss", async () => {
    const { page: p } = await page();
    const res = await postApproval(p, { decision: "deny" });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location") ?? "");
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("st-1");
    expect(back.searchParams.get("iss")).toBe(ORIGIN);
  });

  it("refuses a post from another site, a handle used once already, and one from another browser", async () => {
    const t = await tenant();
    const { page: p } = await page();
    const fields = { decision: "approve", gatewayKey: t.gatewayKey, scope: "read" };
    const crossSite = await postApproval(p, fields, { "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    const other = await postApproval({ ...p, cookie: "" }, fields);
    expect(other.status).toBe(400);
    expect(await other.text()).toContain("another browser");
    codeOf(await postApproval(p, fields));
    const twice = await postApproval(p, fields);
    expect(twice.status).toBe(400);
  });

  it("refuses a forged form asking more than the endpoint allows: nothing approved", async () => {
    const t = await tenant();
    const { page: p } = await page("/mcp/readonly");
    const res = await postApproval(p, {
      decision: "approve",
      gatewayKey: t.gatewayKey,
      scope: "write",
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("at most read");
    const grants = await gw(`/admin/tenants/demo/${t.client}/grants`, { headers: ADMIN });
    expect(await grants.json()).toEqual({ grants: [] });
  });

  it("puts no key anywhere: not in the redirect, not in the grant's row", async () => {
    const t = await tenant();
    const { page: p } = await page();
    const res = await postApproval(p, {
      decision: "approve",
      gatewayKey: t.gatewayKey,
      scope: "read",
    });
    expect(res.headers.get("location")).not.toContain(t.gatewayKey);
    const grants = await (
      await gw(`/admin/tenants/demo/${t.client}/grants`, { headers: ADMIN })
    ).text();
    expect(grants).not.toContain(t.gatewayKey);
    expect(grants).not.toContain(t.gatewayKey.slice(-20));
  });
});

describe("oauth approval: the operator", () => {
  it("approves for a tenant picked from the console: the code's token acts for that tenant", async () => {
    const [t, other] = [await tenant(), await tenant()];
    const { id, verifier, page: p } = await page();
    expect(p.html).toContain(
      `href="/console/oauth/authorize?${new URLSearchParams({ request: p.request }).toString().replaceAll("&", "&amp;")}"`,
    );
    const operator = await signIn();
    const res = await operator.get(
      `/console/oauth/authorize?${new URLSearchParams({ request: p.request })}`,
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<option value="${t.name}"`);
    expect(html).toContain(`<option value="${other.name}"`);
    // A tenant that is not registered: the page again, nothing spent.
    const nobody = await gw("/console/oauth/approve", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: operator.cookie },
      body: new URLSearchParams({
        csrf: field(html, "csrf"),
        consent: field(html, "consent"),
        request: field(html, "request"),
        decision: "approve",
        tenant: "demo:nobody-here",
        scope: "read",
      }).toString(),
      redirect: "manual",
    });
    expect(nobody.status).toBe(200);
    expect(await nobody.text()).toContain("Pick a registered tenant");
    const consentCookie = res.headers
      .getSetCookie()
      .map((l) => l.split(";")[0] ?? "")
      .find((c) => c.startsWith("__Host-oauth-consent"));
    const approved = await gw("/console/oauth/approve", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: `${operator.cookie}; ${consentCookie}`,
      },
      body: new URLSearchParams({
        csrf: field(html, "csrf"),
        consent: field(html, "consent"),
        request: field(html, "request"),
        decision: "approve",
        tenant: t.name,
        scope: "draft",
        lifetime: "7d",
      }).toString(),
      redirect: "manual",
    });
    const { code } = codeOf(approved);
    const tokens = await exchange({ code, verifier, clientId: id });
    expect(tokens.scope).toBe("draft");
    expect((await initialize("/mcp", `Bearer ${tokens.access_token}`)).status).toBe(200);
    const grants = (await (
      await gw(`/admin/tenants/demo/${t.client}/grants`, { headers: ADMIN })
    ).json()) as { grants: { approvedBy: string; scope: string }[] };
    expect(grants.grants).toMatchObject([{ approvedBy: "operator", scope: "draft" }]);
    const theirs = await gw(`/admin/tenants/demo/${other.client}/grants`, { headers: ADMIN });
    expect(await theirs.json()).toEqual({ grants: [] });
  });

  it("sends a visitor with no session to sign in, and refuses the approval without the session's CSRF token", async () => {
    const { page: p } = await page();
    const visitor = await gw(
      `/console/oauth/authorize?${new URLSearchParams({ request: p.request })}`,
      { redirect: "manual" },
    );
    expect(visitor.status).toBe(303);
    expect(visitor.headers.get("location")).toBe("/console/sign-in");
    const operator = await signIn();
    const forged = await operator.post("/console/oauth/approve", {
      csrf: "nope",
      consent: p.consent,
      request: p.request,
      decision: "approve",
      tenant: "demo:x",
    });
    expect(forged.status).toBe(403);
  });
});
