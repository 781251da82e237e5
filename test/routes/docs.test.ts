import { describe, expect, it } from "vitest";
import { gw } from "../helpers/gateway";

describe("docs: the reference page", () => {
  it("answers 200 HTML with no external URL, pointing at both documents and its own script", async () => {
    const res = await gw("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html.match(/https?:\/\/[^\s"'<>)]+/g) ?? []).toEqual([]);
    expect(html).toContain('src="/docs/scalar.js"');
    expect(html).toContain('"/openapi.json"');
    expect(html).toContain('"/v2/openapi.json"');
    expect(html).toContain('"withDefaultFonts": false');
  });

  it("serves the page's script from the Worker", async () => {
    const res = await gw("/docs/scalar.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    const script = await res.text();
    expect(script.length).toBeGreaterThan(1_000_000);
    expect(script).toContain("createApiReference");
  });
});
