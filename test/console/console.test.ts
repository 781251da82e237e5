/**
 * The operator console: signing in, the tenants and a tenant's page, rotating a key (shown once),
 * webhook secrets and the order mapping through forms, order runs with Retry, the budget page,
 * removal, and starting an onboarding.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { corpus } from "../fixtures/orders/shopify";
import { follow, signIn, form } from "../helpers/console";
import { ADMIN, fresh, gw, json, tenant } from "../helpers/gateway";
import { toolCall } from "../helpers/mcp";
import { shopDomainOf, shopTenant, waitFor } from "../helpers/orders";
import { signShopify } from "../fixtures/orders/sign";

beforeEach(() => fresh());

const order = corpus().find(
  (c) => c.currency === "NOK" && (c.payload.line_items as unknown[]).length >= 2,
);
if (!order) throw new Error("the Shopify corpus has no NOK order of two lines");

/**
 * The order with a 50.00 tip its lines do not explain: its run fails at its plan, before any
 * upstream call.
 */
function tipped(payload: Record<string, unknown>) {
  const total = Number(payload.total_price) + 50;
  return {
    ...payload,
    total_tip_received: "50.00",
    total_price: total.toFixed(2),
    current_total_price: total.toFixed(2),
  };
}

describe("console: happy", () => {
  it("signs in with the operator token; a wrong one gets the form again with 401", async () => {
    const page = await gw("/console/sign-in");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<label for="token">Operator token<\/label>/);
    expect(html).toMatch(/<input id="token" name="token" type="password"/);
    const wrong = await gw("/console/sign-in", form({ token: "not-the-token" }));
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("That token is not valid.");
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const s = await signIn();
    const tenants = await s.page("/console");
    expect(tenants).toContain("<h1>Tenants</h1>");
    expect(tenants).toMatch(/<a href="\/console">Tenants<\/a>/);
    expect(tenants).toMatch(/<a href="\/console\/budget">Budget<\/a>/);
    expect(tenants).toContain("Sign out</button>");
    expect(tenants).toContain('lang="en"');
  });

  it("lists tenants with a link, token state and expiry; the tenant's page has every section", async () => {
    const t = await tenant();
    const s = await signIn();
    const list = await s.page("/console");
    expect(list).toContain(`<a href="/console/tenants/demo/${t.client}">demo:${t.client}</a>`);
    expect(list).toMatch(
      new RegExp(
        `demo:${t.client}</a></td><td>Test AS</td><td>connected</td><td>valid</td><td>\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC</td>`,
      ),
    );
    const page = await s.page(`/console/tenants/demo/${t.client}`);
    expect(page).toContain(`<h1>demo:${t.client}</h1>`);
    for (const h of ["Token", "Gateway keys", "Webhooks", "Order mapping", "Orders", "Remove"])
      expect(page).toMatch(new RegExp(`<h2 id="\\w+">${h}</h2>`));
    expect(page).toContain(`https://gateway.test/webhooks/shopify/${t.client}/demo`);
    for (const label of [
      "Shopify webhook secret",
      "WooCommerce webhook secret",
      "Stripe webhook secret",
      "Standard webhook secret",
      "Shop domain",
      "Yes, remove this tenant",
    ])
      expect(page).toContain(label);
    for (const button of [
      "Rotate gateway key",
      "Save Shopify secret",
      "Save mapping",
      "Remove tenant",
    ])
      expect(page).toContain(`${button}</button>`);
    expect(page).toContain(`href="/console/tenants/demo/${t.client}/orders"`);
    expect((await s.get("/console/tenants/demo/nobody-here")).status).toBe(404);
    // Counters by their labels, never raw names; jump links to each part of the tall page.
    for (const label of ["Tokens issued", "Callers that waited for a token", "Gateway key checks"])
      expect(page).toContain(`<dt>${label}</dt>`);
    expect(page).not.toMatch(/<dt>(tokensIssued|tokenWaits|keyChecks)<\/dt>/);
    expect(page).toContain(
      '<nav aria-label="On this page" class="jump"><a href="#token">Token</a>',
    );
    expect(page).toContain('<span class="product">ledgergate</span>');
  });

  it("rotates a gateway key by post-redirect-get: the new key is shown once, and works; a reload neither rotates again nor shows it", async () => {
    const t = await tenant();
    const s = await signIn();
    const res = await s.post(`/console/tenants/demo/${t.client}/gateway-keys`, {
      graceSeconds: "0",
    });
    // The answer is a redirect to the keys, never the page: a reload repeats the GET only.
    const { html, location, flash } = await follow(s, res);
    expect(location).toBe(`/console/tenants/demo/${t.client}#keys`);
    expect(html).toContain("New gateway key (shown once)");
    const key = /<output id="new-gateway-key">([^<]+)<\/output>/.exec(html)?.[1] ?? "";
    expect(key).toMatch(new RegExp(`^lg_demo_${t.client}_[A-Za-z0-9_-]{43}$`));
    expect(html.split(key)).toHaveLength(2);
    const withNew = await gw("/v2/ClientIntegrationInformation", {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(withNew.status).toBe(200);
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(401);
    const again = await s.page(`/console/tenants/demo/${t.client}`);
    expect(again).not.toContain(key);
    expect(again).not.toContain("new-gateway-key");
    // A reload: the browser has dropped the flash (the page's answer cleared it), and the key the
    // operator copied keeps working (nothing was rotated again).
    const shown = await s.get(`/console/tenants/demo/${t.client}`, {
      cookie: `${s.cookie}; ${flash ?? ""}`,
    });
    expect(shown.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^lg_flash=; /));
    expect(
      (
        await gw("/v2/ClientIntegrationInformation", {
          headers: { authorization: `Bearer ${key}` },
        })
      ).status,
    ).toBe(200);
  });

  it("saves a Shopify secret: the page says so and never shows it; a webhook signed with it is taken", async () => {
    const t = await tenant();
    const s = await signIn();
    const secret = `shpss_${crypto.randomUUID()}`;
    // Without the shop's domain a Shopify secret is refused, at the form, in the label's words.
    const bare = await follow(
      s,
      await s.post(`/console/tenants/demo/${t.client}/webhooks/shopify`, {
        secret,
        shopDomain: "",
      }),
    );
    expect(bare.location).toBe(`/console/tenants/demo/${t.client}#wh-shopify`);
    expect(bare.html).toContain("Shop domain is required with a Shopify secret.");
    expect(bare.html).not.toContain("shopDomain:");
    // A bad domain: back to the form, the domain as typed, the secret asked for again.
    const bad = await follow(
      s,
      await s.post(`/console/tenants/demo/${t.client}/webhooks/shopify`, {
        secret,
        shopDomain: "not a shop",
      }),
    );
    expect(bad.html).toMatch(/<h3 id="wh-shopify">Shopify<\/h3><div class="error" role="alert">/);
    expect(bad.html).toContain("Shop domain must be the shop&#39;s myshopify.com address");
    expect(bad.html).toContain("Type the secret again");
    expect(bad.html).toContain('value="not a shop"');
    expect(bad.html).not.toContain(secret);
    const res = await s.post(`/console/tenants/demo/${t.client}/webhooks/shopify`, {
      secret,
      shopDomain: shopDomainOf(t.client),
    });
    const saved = await follow(s, res);
    expect(saved.location).toBe(`/console/tenants/demo/${t.client}#wh-shopify`);
    // The confirmation is right under the form's anchor, where the browser lands.
    expect(saved.html).toMatch(
      /<h3 id="wh-shopify">Shopify<\/h3><p class="notice" role="status">Shopify secret saved.<\/p>/,
    );
    expect(saved.html).not.toContain(secret);
    expect(saved.flash ?? "").not.toContain(secret);
    // An order that fails its plan: verified and recorded, and no upstream call outlives the test.
    const signed = await signShopify(tipped(order.payload), secret);
    expect(
      (
        await gw(`/webhooks/shopify/${t.client}/demo`, {
          method: "POST",
          headers: { ...signed.headers, "X-Shopify-Shop-Domain": shopDomainOf(t.client) },
          body: signed.body,
        })
      ).status,
    ).toBe(202);
    const short = await follow(
      s,
      await s.post(`/console/tenants/demo/${t.client}/webhooks/stripe`, { secret: "short" }),
    );
    expect(short.html).toContain("Stripe webhook secret must be 8 to 500 characters.");
    expect(short.html).not.toContain('"short"');
  });

  it("saves the order mapping from the form; a bad account is shown beside the form, nothing saved", async () => {
    const t = await tenant();
    const s = await signIn();
    const page = await s.page(`/console/tenants/demo/${t.client}`);
    // A tenant registered since payouts settles to each source's clearing account.
    expect(page).toContain('name="settlementAccount" value=""');
    // A save is checked against the client's chart (orders/mapping-check.ts): add the accounts.
    for (const [AccountNo, VatCode] of [
      [1930, "0"],
      [3001, "3"],
    ] as const)
      expect(
        (
          await t.v2(
            "/GeneralLedgerAccounts",
            json({ AccountNo, Name: "Ny", IsActive: true, VatCode }),
          )
        ).status,
      ).toBe(201);
    const res = await s.post(`/console/tenants/demo/${t.client}/order-mapping`, {
      settlementAccount: "1930",
      customers: "webshop",
      vat_25_salesAccount: "3001",
      settle: "no",
    });
    const saved = await follow(s, res);
    expect(saved.location).toBe(`/console/tenants/demo/${t.client}#mapping`);
    expect(saved.html).toMatch(
      /<form method="post" action="[^"]+\/order-mapping"><input type="hidden" name="csrf" value="[^"]+"\/><p class="notice" role="status">Order mapping saved.<\/p>/,
    );
    const mapping = (await (
      await gw(`/admin/tenants/demo/${t.client}/order-mapping`, { headers: ADMIN })
    ).json()) as {
      settlementAccount: number;
      customers: string;
      settle: boolean;
      vat: Record<string, { salesAccount: number }>;
    };
    expect(mapping).toMatchObject({
      settlementAccount: 1930,
      customers: "webshop",
      settle: false,
      vat: { "25": { salesAccount: 3001 }, "15": { salesAccount: 3030 } },
    });
    // A refused save: at the form, in the label's words, with what was typed (not the old value).
    const bad = await follow(
      s,
      await s.post(`/console/tenants/demo/${t.client}/order-mapping`, {
        settlementAccount: "12",
        webshopCustomerName: "Typed shop",
      }),
    );
    expect(bad.location).toBe(`/console/tenants/demo/${t.client}#mapping`);
    expect(bad.html).toContain("The mapping was not saved.");
    expect(bad.html).toContain(
      "<li>Settlement account must be an account number: digits only, from 1000.</li>",
    );
    expect(bad.html).not.toMatch(/settlementAccount:|Too small/);
    expect(bad.html).toContain(
      'name="settlementAccount" value="12" autocomplete="off" aria-invalid="true"',
    );
    expect(bad.html).toContain('name="webshopCustomerName" value="Typed shop"');
  });

  it("shows runs by state, a failed run's error, and Retry starts it again", async () => {
    const t = await shopTenant();
    const orderId = String(order.payload.id);
    await t.send("shopify", tipped(order.payload));
    await waitFor(t, "shopify", orderId, ["failed"]);
    const s = await signIn();
    const list = await s.page(`/console/tenants/demo/${t.client}/orders?state=failed`);
    expect(list).toContain("<h1>Orders</h1>");
    // The order's number as the shop shows it, and its error, in the list.
    expect(list).toMatch(
      new RegExp(
        `<a href="/console/tenants/demo/${t.client}/orders/shopify/${orderId}">${orderId}</a></td><td>#\\d+</td><td>shopify</td><td>failed</td>.*<td>plan: [^<]*50\\.00 more than the lines add up to`,
      ),
    );
    expect(await s.page(`/console/tenants/demo/${t.client}/orders?state=settled`)).not.toContain(
      `>${orderId}</a>`,
    );
    const page = await s.page(`/console/tenants/demo/${t.client}/orders/shopify/${orderId}`);
    expect(page).toContain(`<h1>Order ${orderId}</h1>`);
    expect(page).toMatch(
      /<p class="error" role="alert">Failed at step plan: [^<]*50\.00 more than the lines add up to/,
    );
    expect(page).toContain("Retry</button>");
    // The failed step is in the steps, with its error, without an exception class before it.
    expect(page).toMatch(/<td>plan<\/td><td><span class="error-text">failed: [^<]*50\.00 more/);
    expect(page).not.toMatch(/[A-Za-z]+Error: /);
    // A failed run is done: no refresh.
    expect(page).not.toContain('http-equiv="refresh"');
    const retry = await s.post(`/console/tenants/demo/${t.client}/orders/shopify/${orderId}/retry`);
    expect(retry.status, await retry.clone().text()).toBe(303);
    expect(retry.headers.get("location")).toBe(
      `/console/tenants/demo/${t.client}/orders/shopify/${orderId}`,
    );
    const run = await waitFor(t, "shopify", orderId, ["failed"], (r) => r.attempt === 2);
    expect(run.attempt).toBe(2);
    const second = await s.page(`/console/tenants/demo/${t.client}/orders/shopify/${orderId}`);
    expect(second).toMatch(
      /<h3>Attempt 2<\/h3>.*<td>plan<\/td><td><span class="error-text">failed: /,
    );
    expect((await s.get(`/console/tenants/demo/${t.client}/orders/shopify/nope`)).status).toBe(404);
  });

  it("draws the shared budget per environment, split by lane, and reloads itself", async () => {
    const t = await tenant();
    await t.v2("/ClientIntegrationInformation");
    const tool = await toolCall("/mcp", t.gatewayKey, "read", {
      path: "/ClientIntegrationInformation",
    });
    expect(tool.message?.result?.isError).toBeFalsy();
    const s = await signIn();
    const page = await s.page("/console/budget");
    expect(page).toContain("<h1>Shared budget</h1>");
    expect(page).toContain('<meta http-equiv="refresh" content="5"');
    for (const e of ["demo", "production"])
      expect(page).toContain(`<svg role="img" aria-label="Permits per second, ${e}"`);
    expect(page).toContain("Queue length per tenant and lane");
    // The demo environment's section comes first; its lanes table counts the tool call's permit
    // in the assistants' row (other files' calls may add to either row, never take away).
    const demo = page.slice(0, page.indexOf('aria-labelledby="env-production"'));
    const row = (name: string) =>
      Number(new RegExp(`<td>${name}</td><td>(\\d+)</td>`).exec(demo)?.[1] ?? -1);
    expect(row("Callers and order runs")).toBeGreaterThanOrEqual(1);
    expect(row("Assistants \\(MCP tools\\)")).toBeGreaterThanOrEqual(1);
    expect(row("Watcher")).toBe(0);
    expect(page).toContain("429 answers");
    expect(page).toMatch(/<rect class="bar"/);
  });

  it("removes a tenant only with the box ticked", async () => {
    const t = await tenant();
    const s = await signIn();
    const unticked = await follow(s, await s.post(`/console/tenants/demo/${t.client}/remove`));
    expect(unticked.location).toBe(`/console/tenants/demo/${t.client}#remove`);
    expect(unticked.html).toMatch(
      /<h2 id="remove">Remove<\/h2><div class="error" role="alert"><p>Not removed: tick/,
    );
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(200);
    const res = await s.post(`/console/tenants/demo/${t.client}/remove`, { confirm: "yes" });
    expect(res.status).toBe(303);
    expect(await s.page(res.headers.get("location") ?? "")).toContain(
      `demo:${t.client} was removed.`,
    );
    expect((await s.get(`/console/tenants/demo/${t.client}`)).status).toBe(404);
  });

  it("starts onboarding by post-redirect-get: the link beside the form, as text to copy and a link", async () => {
    const s = await signIn();
    const started = await follow(
      s,
      await s.post("/console/onboarding", { environment: "demo", organizationNumber: "" }),
    );
    expect(started.location).toBe("/console#connect");
    const html = started.html;
    expect(html).toMatch(/<a href="https:\/\/[^"]+" rel="noreferrer">Open the approval page<\/a>/);
    const link = /<a href="(https:\/\/[^"]+)" rel="noreferrer">/.exec(html)?.[1] ?? "";
    expect(html).toContain(
      `<label for="approval-link">Approval page link</label><input id="approval-link" class="copy" readonly="" value="${link}"/>`,
    );
    // Once: a reload of the tenants page (the flash gone) shows no link.
    expect(await s.page("/console")).not.toContain("approval-link");
    expect(
      (await s.post("/console/onboarding", { environment: "demo", organizationNumber: "12" }))
        .status,
    ).toBe(400);
  });
});

describe("console: addresses it has no page for, and the gateway's own address", () => {
  it("answers an unknown console address with an HTML page, not JSON", async () => {
    const s = await signIn();
    for (const res of [await s.get("/console/nope"), await gw("/console/tenants/demo/x/nope/y")]) {
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain("<h1>Page not found</h1>");
      expect(html).toContain('<a href="/console">Go to the console</a>');
    }
  });

  it("answers / with a landing page (console, docs, health) and /favicon.ico with an icon", async () => {
    const home = await gw("/");
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await home.text();
    expect(html).toContain("<h1>ledgergate</h1>");
    for (const href of ["/console", "/docs", "/healthz"]) expect(html).toContain(`href="${href}"`);
    const icon = await gw("/favicon.ico");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await icon.text()).toMatch(/^<svg /);
  });
});
