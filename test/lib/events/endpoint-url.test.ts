/**
 * Which URLs an endpoint may have (`src/lib/events/endpoint-url.ts`): https on a public address in
 * a deploy; http to loopback only in the local configuration.
 */
import { describe, expect, it } from "vitest";
import { endpointUrl } from "../../../src/lib/events/endpoint-url";

const accepted = (url: string, local = false) => endpointUrl(url, local).ok;

describe("endpoint URLs", () => {
  it("takes https on a public name or address, normalized", () => {
    expect(endpointUrl("https://Hooks.Example.com/in?x=1", false)).toEqual({
      ok: true,
      value: "https://hooks.example.com/in?x=1",
    });
    expect(accepted("https://203.0.113.9:8443/hook")).toBe(true);
    expect(accepted("https://[2001:db8::1]/hook")).toBe(true);
  });

  it("refuses anything but https in a deploy, and loopback, private, link-local and local names", () => {
    for (const url of [
      "http://hooks.example.com/in",
      "ftp://hooks.example.com/in",
      "https://127.0.0.1/in",
      "https://localhost/in",
      "https://10.1.2.3/in",
      "https://172.16.0.1/in",
      "https://192.168.1.10/in",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/in",
      "https://0.0.0.0/in",
      "https://[::1]/in",
      "https://[fd00::1]/in",
      "https://[fe80::1]/in",
      "https://[::ffff:10.0.0.1]/in",
      "https://intranet/in",
      "https://printer.local/in",
      "https://db.internal/in",
      "https://user:pass@hooks.example.com/in",
      "not a url",
      `https://hooks.example.com/${"a".repeat(2001)}`,
    ])
      expect(accepted(url), url).toBe(false);
  });

  it("says why, naming the local exception only where it applies", () => {
    expect(endpointUrl("http://hooks.example.com", false)).toEqual({
      ok: false,
      error: "must be https://",
    });
    expect(endpointUrl("http://hooks.example.com", true)).toMatchObject({
      ok: false,
      error: expect.stringContaining("loopback") as string,
    });
  });

  it("takes http and https to loopback in the local configuration only", () => {
    for (const url of [
      "http://127.0.0.1:48790/hook",
      "http://localhost:9000/",
      "https://[::1]/x",
    ]) {
      expect(accepted(url, true), url).toBe(true);
      expect(accepted(url, false), url).toBe(false);
    }
    // Still not a private network, locally either.
    expect(accepted("http://192.168.1.10/hook", true)).toBe(false);
  });
});
