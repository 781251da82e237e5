/**
 * The console's security: every route but sign-in refuses without a session; every form post
 * needs the session's CSRF token and this site as its origin; the cookie's flags; sign-out ends
 * the session on the server; no page ever holds a client key, a token, a webhook secret or a
 * gateway key (other than one just rotated, on its answer only); pages cannot be framed.
 */
import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { corpus } from "../fixtures/orders/shopify";
import { TEST_SECRETS } from "../fixtures/orders/sign";
import { cookieOf, form, OPERATOR_TOKEN, signIn } from "../helpers/console";
import { asKeyHolder, tenantName } from "../../src/kernel/stubs";
import { fresh, gw, tenant } from "../helpers/gateway";
import { shopTenant, waitFor } from "../helpers/orders";

beforeEach(() => fresh());

type Doc = { paths: Record<string, Record<string, unknown>> };
/** Every declared console route but the sign-in page and form, with sample parameters filled in. */
async function consoleRoutes(): Promise<{ method: string; path: string }[]> {
  const doc = (await (await gw("/openapi.json")).json()) as Doc;
  const sample: Record<string, string> = {
    environment: "demo",
    client: "acme",
    source: "shopify",
    orderId: "1001",
  };
  return Object.entries(doc.paths)
    .filter(([p]) => p.startsWith("/console") && p !== "/console/sign-in")
    .flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => ({
        method: m.toUpperCase(),
        path: p.replace(/\{(\w+)\}/g, (_, k: string) => sample[k] ?? k),
      })),
    );
}

const gateway = exports.default;

describe("console: security", () => {
  it("refuses every console route without a valid session: pages go to sign-in, posts get 401", async () => {
    const routes = await consoleRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(12);
    const s = await signIn();
    const [id, issued, expires] = s.cookie.slice("lg_console=".length).split(".");
    const forged = [
      undefined,
      "lg_console=nonsense",
      `lg_console=${id}.${issued}.${expires}.${"A".repeat(43)}`,
      `lg_console=${id}.${issued}.${Number(expires) + 3_600_000}.${s.cookie.split(".").at(-1)}`,
    ];
    for (const { method, path } of routes) {
      for (const cookie of forged) {
        const init: RequestInit =
          method === "GET" ? { method, redirect: "manual" } : { ...form({ csrf: s.csrf }), method };
        const res = await gw(path, {
          ...init,
          headers: {
            ...(init.headers as Record<string, string> | undefined),
            ...(cookie ? { cookie } : {}),
          },
        });
        const what = `${method} ${path} with ${cookie ?? "no cookie"}`;
        if (method === "GET") {
          expect(res.status, what).toBe(303);
          expect(res.headers.get("location"), what).toBe("/console/sign-in");
        } else {
          expect(res.status, what).toBe(401);
          expect(await res.text(), what).toContain("not signed in");
        }
      }
    }
  });

  it("refuses a form post without the CSRF token, with another session's token, or from another site", async () => {
    const a = await signIn();
    const b = await signIn();
    for (const { method, path } of (await consoleRoutes()).filter((r) => r.method === "POST")) {
      for (const fields of [{ csrf: "" }, { csrf: b.csrf }]) {
        const res = await a.post(path, fields);
        expect(res.status, `${path} ${JSON.stringify(fields)}`).toBe(403);
        expect(await res.text()).toContain("The form expired");
      }
      const bare = await gw(path, { method, headers: { cookie: a.cookie }, redirect: "manual" });
      expect(bare.status, `${path} with no body`).toBe(403);
    }
    // A valid token is not enough from another site.
    for (const headers of [
      { origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site" },
      { origin: "null" },
    ] as Record<string, string>[]) {
      expect((await a.post("/console/sign-out", {}, headers)).status).toBe(403);
      expect(
        (
          await gw("/console/sign-in", {
            ...form({ token: OPERATOR_TOKEN }),
            headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          })
        ).status,
      ).toBe(403);
    }
    expect((await a.get("/console")).status).toBe(200);
  });

  it("sets the session cookie HttpOnly, SameSite=Strict, Path=/console and Secure (not Secure on loopback only)", async () => {
    const res = await gw("/console/sign-in", form({ token: OPERATOR_TOKEN }));
    const flags = (res.headers.get("set-cookie") ?? "").split(/;\s*/);
    expect(flags[0]).toMatch(/^lg_console=[A-Za-z0-9_-]+\.\d+\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(flags).toEqual(
      expect.arrayContaining([
        "HttpOnly",
        "SameSite=Strict",
        "Path=/console",
        "Secure",
        "Max-Age=1800",
      ]),
    );
    const local = await gateway.fetch(
      "http://127.0.0.1:8787/console/sign-in",
      form({ token: OPERATOR_TOKEN }),
    );
    expect(local.status).toBe(303);
    const localFlags = (local.headers.get("set-cookie") ?? "").split(/;\s*/);
    expect(localFlags).toEqual(
      expect.arrayContaining(["HttpOnly", "SameSite=Strict", "Path=/console"]),
    );
    expect(localFlags).not.toContain("Secure");
    // Each page slides the session: a fresh cookie with the same flags.
    const s = await signIn();
    const slid = (await s.get("/console")).headers.get("set-cookie") ?? "";
    expect(slid).toMatch(
      /^lg_console=.+; Path=\/console; Max-Age=1800; HttpOnly; SameSite=Strict; Secure$/,
    );
  });

  it("signs out: the cookie is cleared and the old cookie is refused from then on", async () => {
    const s = await signIn();
    const out = await s.post("/console/sign-out");
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/console/sign-in");
    expect(out.headers.get("set-cookie")).toMatch(
      /^lg_console=; Path=\/console; Max-Age=0; HttpOnly; SameSite=Strict; Secure$/,
    );
    const page = await s.get("/console");
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/console/sign-in");
    expect((await s.post("/console/onboarding", { environment: "demo" })).status).toBe(401);
    expect(cookieOf(page)).toBeNull();
    // Another session goes on.
    expect((await (await signIn()).get("/console")).status).toBe(200);
  });

  it("no page holds a client key, a token, a webhook secret or a gateway key", async () => {
    const t = await shopTenant();
    const order = corpus()[0];
    if (!order) throw new Error("empty corpus");
    const orderId = String(order.payload.id);
    await t.send("shopify", order.payload);
    await waitFor(t, "shopify", orderId, ["settled", "failed"]);
    const s = await signIn();
    const own = `own-secret-${crypto.randomUUID()}`;
    expect(
      (await s.post(`/console/tenants/demo/${t.client}/webhooks/stripe`, { secret: own })).status,
    ).toBe(303);
    const access = await asKeyHolder(
      env,
      { tenant: tenantName(t.environment, t.client), key: t.gatewayKey },
      (f) => f.access(),
    );
    if (!access.ok) throw new Error("no token");
    const secrets = [
      t.clientKey,
      access.value.token,
      t.gatewayKey,
      own,
      OPERATOR_TOKEN,
      ...Object.values(TEST_SECRETS),
      env.DEMO_APPLICATION_KEY ?? "",
      env.DEMO_SUBSCRIPTION_KEY ?? "",
      env.SECRETS_KEY ?? "",
    ];
    const base = `/console/tenants/demo/${t.client}`;
    const pages = [
      "/console",
      "/console/budget",
      base,
      `${base}/orders`,
      `${base}/orders?state=settled`,
      `${base}/orders/shopify/${orderId}`,
    ];
    for (const path of pages) {
      const html = await s.page(path);
      for (const secret of secrets)
        expect(html.includes(secret), `${path} holds a secret`).toBe(false);
    }
    // The pages a secret form redirects to, saved or refused, with their flash.
    const forms: Record<string, string>[] = [
      { secret: `${own}-2` },
      { secret: `${own}-3`, shopDomain: "x.example" },
    ];
    for (const fields of forms) {
      const res = await s.post(`${base}/webhooks/stripe`, fields);
      const flash = /^(lg_flash=[^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1] ?? "";
      const html = await (await s.get(base, { cookie: `${s.cookie}; ${flash}` })).text();
      expect(html).toMatch(/role="(status|alert)"/);
      expect(html.includes(fields.secret ?? "")).toBe(false);
    }
    // The sign-in page and a refusal hold none either.
    for (const res of [
      await gw("/console/sign-in"),
      await gw("/console/sign-in", form({ token: "wrong" })),
      await s.post(base + "/remove"),
    ]) {
      const html = await res.text();
      for (const secret of secrets) expect(html.includes(secret)).toBe(false);
    }
  });

  it("carries a rotated key in a sealed, one-time flash: never in the URL, unreadable, useless to another session", async () => {
    const t = await tenant();
    const s = await signIn();
    const res = await s.post(`/console/tenants/demo/${t.client}/gateway-keys`, {
      graceSeconds: "3600",
    });
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(location).toBe(`/console/tenants/demo/${t.client}#keys`);
    const line = res.headers.getSetCookie().find((l) => l.startsWith("lg_flash=")) ?? "";
    expect(line).toMatch(
      /^lg_flash=[A-Za-z0-9_-]+; Path=\/console; Max-Age=300; HttpOnly; SameSite=Strict; Secure$/,
    );
    const flash = /^(lg_flash=[^;]+)/.exec(line)?.[1] ?? "";
    expect(flash).not.toContain(`lg_demo_${t.client}_`);
    // Another session's browser cannot open it; nor can a tampered cookie.
    const other = await signIn();
    const stolen = await (
      await other.get(location, { cookie: `${other.cookie}; ${flash}` })
    ).text();
    expect(stolen).not.toContain("new-gateway-key");
    const tampered = `${flash.slice(0, -2)}${flash.endsWith("A") ? "B" : "A"}A`;
    expect(
      await (await s.get(location, { cookie: `${s.cookie}; ${tampered}` })).text(),
    ).not.toContain("new-gateway-key");
    const shown = await s.get(location, { cookie: `${s.cookie}; ${flash}` });
    expect(await shown.text()).toContain("new-gateway-key");
    // The page clears the flash and still slides the session.
    expect(shown.headers.getSetCookie()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^lg_flash=; Path=\/console; Max-Age=0;/),
        expect.stringMatching(/^lg_console=/),
      ]),
    );
  });

  it("serves pages that cannot be framed and load nothing from elsewhere, never cached", async () => {
    const s = await signIn();
    for (const res of [
      await gw("/console/sign-in"),
      await s.get("/console"),
      await s.get("/console/budget"),
    ]) {
      expect(res.headers.get("content-security-policy")).toMatch(
        /^default-src 'self'; style-src 'self' 'unsafe-inline';.*frame-ancestors 'none'/,
      );
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await res.text()).not.toMatch(/<script|https?:\/\/(?!gateway\.test)[^"]*\.(css|js)/);
    }
  });
});
