/**
 * `/docs` in real Chromium (issue 24): the reference page loads both documents, asks no other
 * origin for anything, and shows none of the hosted product's buttons. Both Workers under `wrangler
 * dev` on free ports (./workers.ts), Debian's Chromium (./chromium.ts).
 *
 * Two loads: one with the page's Content-Security-Policy bypassed, so a request to another origin
 * would be made and seen (a CSP-blocked request never reaches `page.on("request")`), which proves
 * the page's configuration alone keeps it offline; and one with the CSP in force, which must report
 * no violation (the CSP is the net, and it must not tear the page either).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot } from "./chromium";
import { startWorkers, WORKERS_LOG, type Workers } from "./workers";

let workers: Workers | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  workers = await startWorkers();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await workers?.stop();
});

/** What one load of the page did. */
interface Load {
  page: Page;
  context: BrowserContext;
  /** Every URL the page asked for, in order. */
  requests: string[];
  /** CSP violations the page reported (directive and blocked URI). */
  violations: () => Promise<string[]>;
}

/**
 * A summary of the v2 document (its first operation, whose group opens by default), rendered only
 * once that document has loaded and been read.
 */
const V2_SUMMARY = "Read the client integration information";
/** A summary of the gateway's own document. */
const GATEWAY_SUMMARY = "Register a tenant with its client key";

/** Keeps each CSP violation the page reports, as "directive blocked-URI", in `__violations`. */
const RECORD_VIOLATIONS = `
  window.__violations = [];
  document.addEventListener("securitypolicyviolation", (e) =>
    window.__violations.push(e.effectiveDirective + " " + e.blockedURI));
`;

/** How long no new request must start before the page counts as settled, ms. */
const QUIET_MS = 2000;

/** Opens `path` of the gateway in a fresh context and waits until `text` shows. */
async function load(path: string, text: string, bypassCSP: boolean): Promise<Load> {
  if (!browser || !workers) throw new Error(`the Workers did not start; see ${WORKERS_LOG}`);
  const context = await browser.newContext({ bypassCSP });
  // Injected by the browser before any page script, so the page's CSP does not apply to it. A
  // string: this program has Node's types, not the DOM's.
  await context.addInitScript({ content: RECORD_VIOLATIONS });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(`${workers.gateway}${path}`);
  await page.getByText(text, { exact: true }).first().waitFor({ timeout: 60_000 });
  // Whatever the page starts after rendering (registries, telemetry, fonts) has had its turn once
  // no request has started for two seconds. Not Playwright's "networkidle": with the CSP in force
  // it sometimes never came, a request the page's CSP stopped apparently counted in flight for
  // good (four requests in all, none after them), and the wait ran into its timeout.
  for (let seen = -1; seen !== requests.length;) {
    seen = requests.length;
    await page.waitForTimeout(QUIET_MS);
  }
  return {
    page,
    context,
    requests,
    violations: () => page.evaluate<string[]>("window.__violations"),
  };
}

/**
 * The one refusal the page causes by design: zod 4, inside Scalar's bundle, probes once whether it
 * may compile validators (`new Function("")` in a try/catch) and validates without them when the
 * CSP says no. Any other violation is a request or script the CSP had to stop.
 */
const ZOD_EVAL_PROBE = "script-src eval";

const foreign = (requests: string[]): string[] => {
  const own = new URL(workers?.gateway ?? "http://gateway.not.started").origin;
  return requests.filter((url) => !url.startsWith("data:") && new URL(url).origin !== own);
};

describe("docs in Chromium: offline", () => {
  it("loads the gateway's document with no request to another origin (CSP bypassed)", async () => {
    const { page, context, requests } = await load("/docs", GATEWAY_SUMMARY, true);
    try {
      expect(requests).toContain(`${workers?.gateway}/openapi.json`);
      expect(foreign(requests)).toEqual([]);
      await screenshot(page, "docs-gateway");
    } finally {
      await context.close();
    }
  });

  it("loads the v2 document, its operations in words, with no request to another origin", async () => {
    const { page, context, requests } = await load("/docs?api=v2", V2_SUMMARY, true);
    try {
      expect(requests).toContain(`${workers?.gateway}/v2/openapi.json`);
      expect(foreign(requests)).toEqual([]);
      await screenshot(page, "docs-v2");
    } finally {
      await context.close();
    }
  });

  it("reports no CSP violation with the page's CSP in force", async () => {
    const { context, requests, violations } = await load("/docs", GATEWAY_SUMMARY, false);
    try {
      expect((await violations()).filter((v) => v !== ZOD_EVAL_PROBE)).toEqual([]);
      expect(foreign(requests)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("docs in Chromium: plain", () => {
  it("shows none of a hosted product's buttons or links", async () => {
    const { page, context } = await load("/docs", GATEWAY_SUMMARY, false);
    try {
      for (const name of [
        /ask ai/i,
        /^share$/i,
        /^deploy$/i,
        /^configure$/i,
        /developer tools/i,
        /open api client/i,
        /dark mode|light mode/i,
      ]) {
        await expect
          // Scalar renders its default toolbar before it applies the configuration: wait for the
          // configured page rather than for a moment a loaded machine may not reach in time.
          .poll(() => page.getByRole("button", { name }).count(), {
            message: String(name),
            timeout: 20_000,
          })
          .toBe(0);
      }
      const shown = (l: ReturnType<Page["getByText"]>) => l.filter({ visible: true }).count();
      expect(await shown(page.getByText(/ask ai|powered by scalar/i))).toBe(0);
      expect(await shown(page.getByRole("link", { name: /scalar/i }))).toBe(0);
    } finally {
      await context.close();
    }
  });
});
