/**
 * The operator console in real Chromium (issue 15): both Workers under `wrangler dev` on free ports
 * with fresh state (./workers.ts), Debian's Chromium driven by playwright-core (./chromium.ts).
 * One operator's session from sign-in to sign-out, in order; each step waits for what the page
 * shows (reloading where the page does not refresh itself), never for a fixed time. Every page is
 * saved as .build/screenshots/<name>.png.
 *
 * The pages and their texts are the console's UI contract: labels, button texts and headings are
 * looked up exactly as it names them, so a renamed control fails here.
 */
import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { launchChromium, screenshot } from "./chromium";
import { newOrderId, SHOP_DOMAIN, signedShopifyOrder } from "./shopify";
import { startWorkers, WORKERS_LOG, type Workers } from "./workers";

const OPERATOR_TOKEN = "local-admin-token";
/**
 * How long an outcome may take on a loaded machine (an order's run makes about a dozen upstream
 * calls, paced).
 */
const OUTCOME_MS = 180_000;
/** Between two reloads of a page that does not refresh itself. */
const POLL_MS = 1_000;

let workers: Workers | undefined;
let browser: Browser | undefined;
let context: BrowserContext;
let page: Page;

/**
 * What the steps hand on to the next: each step fails plainly when an earlier one left it unset.
 */
const state: {
  tenantPath?: string;
  tenantName?: string;
  webhookUrl?: string;
  secret?: string;
  gatewayKey?: string;
  settledOrder?: string;
} = {};
function need<K extends keyof typeof state>(key: K): NonNullable<(typeof state)[K]> {
  const value = state[key];
  if (value === undefined) throw new Error(`an earlier step failed: no ${key}`);
  return value as NonNullable<(typeof state)[K]>;
}

const gw = (path = ""): string => `${workers?.gateway ?? "http://gateway.not.started"}${path}`;

/** The roles of form controls, in Playwright's ARIA snapshot. */
const CONTROL =
  /^\s*- (textbox|searchbox|combobox|listbox|checkbox|radio|spinbutton|slider|switch|button)(?=$|[ :[])(?! ")/;

/**
 * Accessibility smoke check: every control on the page has an accessible name, as the browser
 * computes it (a <label for>, aria-label or aria-labelledby; a button's text).
 */
async function expectNamedControls(where: string, on: Page = page): Promise<void> {
  const tree = await on.locator("body").ariaSnapshot();
  const unnamed = tree.split("\n").filter((line) => CONTROL.test(line));
  expect(unnamed, `${where}: controls without an accessible name, in:\n${tree}`).toEqual([]);
}

/**
 * Reloads the page until `check` holds (it reads the page as it is; false or a throw means not
 * yet). A failure says when wrangler reloaded a Worker meanwhile: a reload can lose a run in
 * flight.
 */
async function reloadUntil(
  what: string,
  check: () => Promise<boolean>,
  timeout = OUTCOME_MS,
): Promise<void> {
  const reloadsBefore = workers?.reloads() ?? 0;
  try {
    await expect
      .poll(
        async () => {
          if (await check().catch(() => false)) return true;
          await page.reload();
          return check().catch(() => false);
        },
        { timeout, interval: POLL_MS, message: `${what} (last page: ${page.url()})` },
      )
      .toBe(true);
  } catch (e) {
    const reloaded = (workers?.reloads() ?? 0) - reloadsBefore;
    if (reloaded > 0 && e instanceof Error)
      e.message += `\nNote: wrangler reloaded a Worker ${reloaded} time(s) meanwhile (sources changed during the run), which can lose a run waiting between retries; run again with the tree unchanged. Log: ${WORKERS_LOG}`;
    throw e;
  }
}

/** Runs `read` on a page that reloads itself; again, after the load, when a reload cut it short. */
async function betweenReloads(read: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (e) {
      if (
        attempt >= 5 ||
        !(e instanceof Error) ||
        !/context was destroyed|navigat|detached/i.test(e.message)
      )
        throw e;
      await page.waitForLoadState("load");
    }
  }
}

/** The text of the page's main content (the body when there is no <main>). */
async function mainText(): Promise<string> {
  const main = page.locator("main");
  return (await main.count()) > 0
    ? await main.first().innerText()
    : await page.locator("body").innerText();
}

/**
 * Sets the tenant's settlement account with the console's order mapping form, and waits for the
 * saved page.
 */
async function saveSettlementAccount(accountNo: string): Promise<void> {
  await page.goto(gw(need("tenantPath")));
  await page.getByLabel("Settlement account", { exact: true }).fill(accountNo);
  await page.getByRole("button", { name: "Save mapping", exact: true }).click();
  await page.waitForURL((url) => url.pathname === need("tenantPath"));
  expect(await page.getByLabel("Settlement account", { exact: true }).inputValue()).toBe(accountNo);
}

/**
 * A call to API v2 through the gateway as the tenant's own integration, with a gateway key the
 * operator issues through the admin API (the earlier keys keep working for a day).
 */
async function asIntegration(method: string, path: string, body?: unknown): Promise<Response> {
  const [environment, client] = need("tenantPath").split("/").slice(-2);
  state.gatewayKey ??= await (async () => {
    const res = await fetch(gw(`/admin/tenants/${environment}/${client}/gateway-keys`), {
      method: "POST",
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ graceSeconds: 86_400 }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { gatewayKey: string }).gatewayKey;
  })();
  return fetch(gw(`/v2${path}`), {
    method,
    headers: { authorization: `Bearer ${state.gatewayKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Posts the signed order `orderId` to the tenant's Shopify webhook URL, as the shop would. */
async function sendOrder(orderId: string): Promise<void> {
  const delivery = signedShopifyOrder(orderId, need("secret"));
  const res = await fetch(need("webhookUrl"), {
    method: "POST",
    headers: delivery.headers,
    body: delivery.body,
  });
  expect(res.status, await res.text()).toBe(202);
}

/**
 * The page's window as the functions run in the page use it (the tests' program has no DOM
 * library: Node runs them).
 */
interface PageWindow {
  innerHeight: number;
  getComputedStyle(el: unknown): { color: string; backgroundColor: string };
}

/**
 * Asserts that `what` is wholly inside the viewport as the page stands (after a form's redirect to
 * its anchor: no scrolling by the test), so the operator sees it without looking for it.
 */
async function expectInViewport(where: string, what: Locator): Promise<void> {
  await what.waitFor();
  const box = await what.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return {
      top: r.top,
      bottom: r.bottom,
      height: (globalThis as unknown as PageWindow).innerHeight,
    };
  });
  expect(
    box.top >= 0 && box.bottom <= box.height,
    `${where}: at ${box.top}–${box.bottom} px of a ${box.height} px viewport`,
  ).toBe(true);
}

/** A signed-in page of the operator's session at `width` × `height`, closed by `close`. */
async function sized(width: number, height: number): Promise<{ on: Page; close(): Promise<void> }> {
  const ctx = await browser?.newContext({
    viewport: { width, height },
    storageState: await context.storageState(),
  });
  if (!ctx) throw new Error("no browser");
  return { on: await ctx.newPage(), close: () => ctx.close() };
}

/** The two screens every form is checked on: a laptop's and a phone's. */
const SCREENS = [
  { name: "1280", width: 1280, height: 800 },
  { name: "390", width: 390, height: 844 },
];

/** Opens the order's page from the tenant's orders list, once the run is listed. */
async function openOrder(orderId: string): Promise<void> {
  await page.goto(gw(`${need("tenantPath")}/orders`));
  await expect
    .poll(async () => page.getByRole("heading", { name: "Orders", exact: true }).count())
    .toBe(1);
  const link = page.getByRole("link", { name: orderId, exact: true });
  await reloadUntil(`order ${orderId} listed`, async () => (await link.count()) === 1);
  await link.click();
  await page.getByRole("heading", { name: `Order ${orderId}`, exact: true }).waitFor();
}

/**
 * Why the browser or the Workers could not start. Kept and thrown by every test (beforeEach), so
 * each one fails with it: a throwing beforeAll would report the tests as skipped.
 */
let setupError: unknown;

beforeAll(async () => {
  try {
    // Chromium first: without one every test fails at once, saying how to install it.
    browser = await launchChromium();
    workers = await startWorkers();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(30_000);
    context.setDefaultNavigationTimeout(60_000);
    page = await context.newPage();
  } catch (e) {
    setupError = e;
  }
}, 300_000);

beforeEach(() => {
  if (setupError !== undefined) throw setupError;
});

afterAll(async () => {
  await browser?.close();
  await workers?.stop();
}, 60_000);

describe("the console in Chromium", () => {
  it("both Workers answer and the browser renders the gateway", async () => {
    const res = await page.goto(gw("/healthz"));
    expect(res?.status()).toBe(200);
    await screenshot(page, "00-healthz");
    // The gateway's own address is a small page, and an unknown console address a page too.
    await page.goto(gw("/"));
    await page.getByRole("heading", { name: "ledgergate", exact: true }).waitFor();
    for (const name of ["Console", "API docs", "Health"])
      await page.getByRole("link", { name, exact: true }).waitFor();
    const unknown = await page.goto(gw("/console/no-such-page"));
    expect(unknown?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page not found", exact: true }).waitFor();
  });

  it("refuses without a session, then signs in with the operator token", async () => {
    await page.goto(gw("/console"));
    await page.waitForURL(gw("/console/sign-in"));
    await expect
      .poll(() => page.getByLabel("Operator token", { exact: true }).getAttribute("type"))
      .toBe("password");
    await expectNamedControls("sign-in");
    await screenshot(page, "01-sign-in");

    await page.getByLabel("Operator token", { exact: true }).fill("not-the-token");
    const refused = page.waitForResponse(
      (r) => r.request().method() === "POST" && r.url() === gw("/console/sign-in"),
    );
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    expect((await refused).status()).toBe(401);
    await page.getByText("That token is not valid.").waitFor();
    await screenshot(page, "02-sign-in-refused");

    await page.getByLabel("Operator token", { exact: true }).fill(OPERATOR_TOKEN);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(gw("/console"));
    await page.getByRole("heading", { name: "Tenants", exact: true }).waitFor();
    const nav = page.getByRole("navigation");
    await nav.getByRole("link", { name: "Tenants", exact: true }).waitFor();
    await nav.getByRole("link", { name: "Budget", exact: true }).waitFor();
    await page.getByRole("button", { name: "Sign out", exact: true }).waitFor();
    await expectNamedControls("tenants (empty)");
    await screenshot(page, "03-tenants-empty");
  });

  it("connects a client through onboarding, the sandbox's approval page included", async () => {
    await page.getByRole("heading", { name: "Connect a client", exact: true }).waitFor();
    await page.getByLabel("Environment", { exact: true }).selectOption("demo");
    await expect
      .poll(() => page.getByLabel("Organization number (optional)", { exact: true }).count())
      .toBe(1);
    await page.getByRole("button", { name: "Start onboarding", exact: true }).click();

    const open = page.getByRole("link", { name: "Open the approval page", exact: true });
    await open.waitFor();
    const href = await open.getAttribute("href");
    expect(href, "the approval page is the sandbox's TemporaryUrl").toMatch(
      new RegExp(`^${workers?.sandbox}/onboarding/demo/`),
    );
    // Beside the form, as text to copy too.
    const copy = page.getByLabel("Approval page link", { exact: true });
    expect(await copy.inputValue()).toBe(href);
    expect(await copy.getAttribute("readonly")).not.toBeNull();
    await expectInViewport("the approval link", copy);
    await expectNamedControls("onboarding started");
    await screenshot(page, "04-onboarding-started");

    // The link may open a tab of its own; the approval happens wherever it opens.
    const ownTab = (await open.getAttribute("target")) === "_blank";
    const popup = ownTab ? context.waitForEvent("page") : null;
    await open.click();
    const approval = popup ? await popup : page;
    await approval.getByRole("heading", { name: "Connect an integration", exact: true }).waitFor();
    // A new company, made on the approval page (the sandbox has no client yet).
    await approval.getByLabel("Company name", { exact: true }).fill("Fjordkaffe AS");
    await approval.getByLabel("Organization number (9 digits)", { exact: true }).fill("974760673");
    await expectNamedControls("sandbox approval page", approval);
    await screenshot(approval, "05-sandbox-approval");

    await approval.getByRole("button", { name: "Approve", exact: true }).click();
    await approval.waitForURL((url) => url.origin === workers?.gateway);
    // The callback page shows what was connected and nothing secret: not the onboarding token it
    // was sent.
    const token = new URL(approval.url()).searchParams.get("token");
    const callbackHtml = await approval.content();
    if (token)
      expect(callbackHtml.includes(token), "the callback page shows the onboarding token").toBe(
        false,
      );
    await screenshot(approval, "06-onboarding-callback");
    if (approval !== page) await approval.close();

    await page.goto(gw("/console"));
    const link = page.getByRole("link", { name: /^demo:/ });
    await reloadUntil(
      "the onboarded tenant listed on /console",
      async () => (await link.count()) === 1,
    );
    const row = page.getByRole("row").filter({ has: link });
    await reloadUntil("the tenant's token valid", async () =>
      /\bvalid\b/.test(await row.innerText()),
    );
    state.tenantName = (await link.innerText()).trim();
    const path = new URL((await link.getAttribute("href")) ?? "", gw()).pathname;
    expect(path).toMatch(/^\/console\/tenants\/demo\/[^/]+$/);
    state.tenantPath = path;
    await screenshot(page, "07-tenants");
  });

  it("shows the tenants page at phone width (360 px)", async () => {
    const phone = await browser?.newContext({
      viewport: { width: 360, height: 740 },
      storageState: await context.storageState(),
    });
    if (!phone) throw new Error("no browser");
    try {
      const small = await phone.newPage();
      await small.goto(gw("/console"));
      await small.getByRole("heading", { name: "Tenants", exact: true }).waitFor();
      await screenshot(small, "08-tenants-phone");
    } finally {
      await phone.close();
    }
  });

  it("sets a Shopify secret on the tenant's page, and never shows it", async () => {
    await page.goto(gw(need("tenantPath")));
    await page.getByRole("heading", { name: need("tenantName"), exact: true }).waitFor();
    for (const section of ["Token", "Gateway keys", "Webhooks", "Order mapping"])
      await page.getByRole("heading", { name: section, exact: true }).waitFor();
    await expectNamedControls("tenant");
    await screenshot(page, "09-tenant");

    // The URL to paste into the shop, as the page shows it.
    const client = need("tenantPath").split("/").at(-1) ?? "";
    const urls =
      (await page.content()).match(/https?:\/\/[^\s"'<>]+\/webhooks\/shopify\/[^\s"'<>]+/g) ?? [];
    expect(urls.length, "the Shopify webhook URL on the tenant's page").toBeGreaterThan(0);
    const webhookUrl = urls[0] ?? "";
    expect(webhookUrl).toBe(gw(`/webhooks/shopify/${client}/demo`));
    state.webhookUrl = webhookUrl;

    const secret = `shpss_${randomBytes(16).toString("hex")}`;
    await page.getByLabel("Shopify webhook secret", { exact: true }).fill(secret);
    const domain = page.getByLabel("Shop domain", { exact: true });
    if ((await domain.count()) === 1) await domain.fill(SHOP_DOMAIN);
    await page.getByRole("button", { name: "Save Shopify secret", exact: true }).click();
    await expectInViewport("Shopify secret saved", page.getByText("Shopify secret saved."));
    expect((await page.content()).includes(secret), "the page shows the webhook secret").toBe(
      false,
    );
    state.secret = secret;
    await screenshot(page, "10-shopify-secret-saved");
  });

  it("a signed Shopify order appears as a run and reaches settled", async () => {
    const orderId = newOrderId();
    await sendOrder(orderId);
    await openOrder(orderId);
    await screenshot(page, "11-order-received");
    await reloadUntil(`order ${orderId} settled`, async () => /\bsettled\b/.test(await mainText()));
    // Its steps, in a table.
    expect(await page.getByRole("table").count()).toBeGreaterThan(0);
    await expectNamedControls("order (settled)");
    await screenshot(page, "12-order-settled");

    await page.goto(gw(`${need("tenantPath")}/orders`));
    const row = page
      .getByRole("row")
      .filter({ has: page.getByRole("link", { name: orderId, exact: true }) });
    await expect.poll(async () => /\bsettled\b/.test(await row.innerText())).toBe(true);
    // The filter's links are visible: their colour is not the colour behind them.
    const filter = page.getByRole("navigation", { name: "Filter by state" }).getByRole("link");
    expect(await filter.count()).toBe(8);
    for (const link of await filter.all()) {
      const { color, background } = await link.evaluate((el) => {
        let bg = "rgba(0, 0, 0, 0)";
        for (
          let n: typeof el | null = el;
          n && /rgba\(0, 0, 0, 0\)|transparent/.test(bg);
          n = n.parentElement
        )
          bg = (globalThis as unknown as PageWindow).getComputedStyle(n).backgroundColor;
        return {
          color: (globalThis as unknown as PageWindow).getComputedStyle(el).color,
          background: bg,
        };
      });
      expect(color, `the filter link "${await link.innerText()}" on ${background}`).not.toBe(
        background,
      );
    }
    await screenshot(page, "13-orders");
    state.settledOrder = orderId;
  });

  it("the header's search box finds an order by its number and opens its page", async () => {
    const orderId = need("settledOrder");
    // The number the buyer sees, as the sample order names it (scripts/sample-shopify-order.ts).
    const number = `#${orderId.slice(-5)}`;
    await page.goto(gw("/console"));
    const box = page.getByRole("searchbox", { name: "Search", exact: true });
    await box.fill(number);
    await box.press("Enter");
    await page.getByRole("heading", { name: `Search: ${number}`, exact: true }).waitFor();
    const hit = page.getByRole("link", { name: `shopify order ${number}`, exact: false });
    expect(await hit.count()).toBe(1);
    await expectNamedControls("search");
    await screenshot(page, "13a-search");
    await hit.click();
    await page.getByRole("heading", { name: `Order ${orderId}`, exact: true }).waitFor();
    await screenshot(page, "13b-search-opened");
  });

  it(
    "a run made to fail shows its error, and Retry settles it once the mapping is mended",
    { timeout: 3 * OUTCOME_MS },
    async () => {
      const orderId = newOrderId();
      // The mapping is checked against the chart when saved, so the account exists then and leaves
      // the chart afterwards (as when the client closes an account): the run fails for good at its
      // settle step (no retries to wait out), naming the mapping field to change; the console's
      // mapping form mends it.
      const created = await asIntegration("POST", "/GeneralLedgerAccounts", {
        AccountNo: 1999,
        Name: "Closed settlement account",
        IsActive: true,
        VatCode: "0",
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { Id } = (await created.json()) as { Id: number };
      await saveSettlementAccount("1999");
      const deleted = await asIntegration("DELETE", `/GeneralLedgerAccounts/${Id}`);
      expect(deleted.status, await deleted.clone().text()).toBeLessThan(300);
      try {
        await sendOrder(orderId);
        await openOrder(orderId);
        await reloadUntil(
          `order ${orderId} failed, with its error`,
          async () =>
            (await page.locator(".error").count()) > 0 && /\bfailed\b/.test(await mainText()),
        );
        const error = (await page.locator(".error").first().innerText()).trim();
        expect(error, "the failed run's error names the account and what to change").toMatch(
          /settlement account 1999 does not exist.*settlementAccount/,
        );
        await page.getByRole("button", { name: "Retry", exact: true }).waitFor();
        await expectNamedControls("order (failed)");
        await screenshot(page, "14-order-failed");
      } finally {
        await saveSettlementAccount("1920");
      }

      await openOrder(orderId);
      await page.getByRole("button", { name: "Retry", exact: true }).click();
      await page.getByRole("heading", { name: `Order ${orderId}`, exact: true }).waitFor();
      await reloadUntil(
        `order ${orderId} settled after Retry`,
        async () =>
          /\bsettled\b/.test(await mainText()) &&
          (await page.getByRole("button", { name: "Retry", exact: true }).count()) === 0,
      );
      await screenshot(page, "15-order-retried-settled");
    },
  );

  it("shows each form's confirmation and error beside it, in view, at 1280 and 390 px", async () => {
    for (const screen of SCREENS) {
      const { on, close } = await sized(screen.width, screen.height);
      try {
        const where = (what: string) => `${what} at ${screen.name} px`;
        await on.goto(gw(need("tenantPath")));
        // A bad shop domain: back at the form, the domain as typed, the secret asked again.
        await on.getByLabel("Shopify webhook secret", { exact: true }).fill("shpss_not-saved-1234");
        await on.getByLabel("Shop domain", { exact: true }).fill("not a shop");
        await on.getByRole("button", { name: "Save Shopify secret", exact: true }).click();
        const refused = on.locator("#wh-shopify + .error");
        await expectInViewport(where("the secret's error"), refused);
        const said = await refused.innerText();
        expect(said).toContain("Shop domain must be the shop's myshopify.com address");
        expect(said).toContain("Type the secret again");
        expect(await on.getByLabel("Shop domain", { exact: true }).inputValue()).toBe("not a shop");
        await screenshot(on, `16a-secret-refused-${screen.name}`);

        // A bad mapping: the error at the form, by the field's label, what was typed kept.
        await on.getByLabel("Settlement account", { exact: true }).fill("12");
        await on.getByRole("button", { name: "Save mapping", exact: true }).click();
        const error = on.getByRole("alert").filter({ hasText: "The mapping was not saved." });
        await expectInViewport(where("the mapping's error"), error);
        expect(await error.innerText()).toContain("Settlement account must be an account number");
        expect(await on.getByLabel("Settlement account", { exact: true }).inputValue()).toBe("12");
        await screenshot(on, `16b-mapping-refused-${screen.name}`);

        await on.getByLabel("Settlement account", { exact: true }).fill("1920");
        await on.getByRole("button", { name: "Save mapping", exact: true }).click();
        await expectInViewport(where("Order mapping saved"), on.getByText("Order mapping saved."));
        await screenshot(on, `16c-mapping-saved-${screen.name}`);
      } finally {
        await close();
      }
    }
  });

  it("rotates a gateway key and shows the new key once", async () => {
    await page.goto(gw(need("tenantPath")));
    await page.getByRole("button", { name: "Rotate gateway key", exact: true }).click();
    const shown = page.locator("output#new-gateway-key");
    await shown.waitFor();
    await page.getByText("New gateway key (shown once)").waitFor();
    const key = (await shown.innerText()).trim();
    expect(key).toMatch(/^\S{20,}$/);
    // The key works: a call through the gateway with it.
    const call = await fetch(gw("/v2/ClientIntegrationInformation"), {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(call.status, await call.text()).toBe(200);
    await expectInViewport("the new key", shown);
    await screenshot(page, "16-gateway-key-rotated", [shown]);

    // A reload repeats the redirect's GET, not the rotation: the key is gone from the page and
    // still works (no grace was needed to save it).
    await page.reload();
    await page.getByRole("heading", { name: "Gateway keys", exact: true }).waitFor();
    expect(await page.locator("output#new-gateway-key").count()).toBe(0);
    const again = await fetch(gw("/v2/ClientIntegrationInformation"), {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(again.status, "the key still works after a reload").toBe(200);

    // Opened again, the page no longer has it.
    await page.goto(gw(need("tenantPath")));
    await page.getByRole("heading", { name: "Gateway keys", exact: true }).waitFor();
    expect(await page.locator("output#new-gateway-key").count()).toBe(0);
    expect(
      (await page.content()).includes(key),
      "the tenant's page shows the gateway key again",
    ).toBe(false);
    await screenshot(page, "17-tenant-after-rotation");
  });

  it("shows the shared budget with a chart per environment, refreshing on its own", async () => {
    await page.goto(gw("/console/budget"));
    await page.getByRole("heading", { name: "Shared budget", exact: true }).waitFor();
    // It reloads itself (every 5 s): the next load of the page comes without the test asking.
    await page.waitForEvent("load", { timeout: 60_000 });
    await betweenReloads(async () => {
      await page.getByRole("heading", { name: "Shared budget", exact: true }).waitFor();
      for (const environment of ["demo", "production"])
        await page
          .getByRole("img", { name: `Permits per second, ${environment}`, exact: true })
          .waitFor();
      await expectNamedControls("budget");
      await screenshot(page, "18-budget");
    });
  });

  it("signs out, and the console refuses without a session", async () => {
    await page.goto(gw("/console"));
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(gw("/console/sign-in"));
    await screenshot(page, "19-signed-out");
    for (const path of [
      "/console",
      "/console/budget",
      ...(state.tenantPath ? [state.tenantPath] : []),
    ]) {
      await page.goto(gw(path));
      await page.waitForURL(gw("/console/sign-in"));
      await page.getByLabel("Operator token", { exact: true }).waitFor();
    }
  });
});
