import { describe, expect, it } from "vitest";
import { gw } from "../../helpers/gateway";

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | null): Map<string, string[]> {
  return new Map(
    (header ?? "")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name ?? "", values]),
  );
}

describe("docs: the reference page", () => {
  it("answers 200 HTML with no external URL, pointing at its own scripts", async () => {
    const res = await gw("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html.match(/https?:\/\/[^\s"'<>)]+/g) ?? []).toEqual([]);
    expect(html).toContain('src="/docs/scalar.js"');
    expect(html).toContain('src="/docs/init.js"');
    // No inline script: the CSP allows scripts from this origin only.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it("serves the page's script from the Worker", async () => {
    const res = await gw("/docs/scalar.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    const script = await res.text();
    expect(script.length).toBeGreaterThan(1_000_000);
    expect(script).toContain("createApiReference");
  });

  it("configures the page offline and plain: both documents, no proxy, telemetry, AI or toolbar", async () => {
    const res = await gw("/docs/init.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    const script = await res.text();
    expect(script.match(/https?:\/\/[^\s"'<>)]+/g) ?? []).toEqual([]);
    const json = script.slice(script.indexOf("{"), script.lastIndexOf("}") + 1);
    const config = JSON.parse(json) as Record<string, unknown>;
    expect(config).toMatchObject({
      proxyUrl: "",
      telemetry: false,
      withDefaultFonts: false,
      showDeveloperTools: "never",
      hideClientButton: true,
      hideDarkModeToggle: true,
      agent: { disabled: true },
      sources: [
        { url: "/openapi.json", agent: { disabled: true } },
        { url: "/v2/openapi.json", agent: { disabled: true } },
      ],
    });
  });
});

describe("docs: security", () => {
  it("sends a CSP that lets the page reach only its own origin", async () => {
    const res = await gw("/docs");
    const csp = directives(res.headers.get("content-security-policy"));
    for (const name of ["default-src", "script-src", "connect-src", "img-src", "font-src"])
      expect(csp.get(name), name).toEqual(["'self'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("docs: the v2 document reads in words", () => {
  it("gives every operation a human summary, not its method and path", async () => {
    const doc = (await (await gw("/v2/openapi.json")).json()) as {
      paths: Record<string, Record<string, { summary?: string }>>;
    };
    const summaries = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ key: `${method} ${path}`, s: op.summary })),
    );
    expect(summaries.length).toBeGreaterThan(300);
    const bad = summaries.filter(
      ({ s }) => !s || !/^[A-Z][a-z]/.test(s) || /\/|\{|^(GET|POST|PUT|PATCH|DELETE)\b/.test(s),
    );
    expect(bad).toEqual([]);
    // One summary names one operation: the reference page lists them by it.
    const seen = new Map<string, string>();
    const repeated = summaries.filter(({ key, s = "" }) => {
      const first = seen.get(s);
      seen.set(s, key);
      return first !== undefined;
    });
    expect(repeated).toEqual([]);
    const byKey = new Map(summaries.map(({ key, s }) => [key, s]));
    expect(byKey.get("get /Customers")).toBe("List customers");
    expect(byKey.get("post /Customers")).toBe("Create a customer");
    expect(byKey.get("get /SalesOrders/{salesOrderId}/attachments")).toBe(
      "List attachments of a sales order",
    );
  });
});
