/**
 * Which URLs an endpoint may have (`src/events/endpoint-url.ts`): https on a public address in
 * a deploy; http to loopback only in the local configuration.
 */
import { describe, expect, it } from "vitest";
import { endpointUrl, ipv6Bytes } from "../../src/events/endpoint-url";

const accepted = (url: string, local = false) => endpointUrl(url, local).ok;

describe("endpoint URLs", () => {
  it("takes https on a public name or address, normalized", () => {
    expect(endpointUrl("https://Hooks.Example.com/in?x=1", false)).toEqual({
      ok: true,
      value: "https://hooks.example.com/in?x=1",
    });
    expect(accepted("https://93.184.216.34:8443/hook")).toBe(true);
    expect(accepted("https://[2606:4700::1111]/hook")).toBe(true);
  });

  it.each([
    "https://example.com/hook",
    "https://example.com./hook",
    "https://shop.xn--mgbaam7a8h/x",
    "https://shop.xn--rksmrgs-5wao1o.no/x",
    "https://hooks.shop.co.uk/in",
    "https://93.184.216.34/",
    "https://1.1.1.1/",
    "https://[2606:4700::1111]/",
    "https://[2a00:1450:4001:81c::200e]/",
    "https://[2001:4860:4860::8888]/",
  ])("takes the public %s", (url) => {
    expect(endpointUrl(url, false)).toEqual({ ok: true, value: new URL(url).href });
  });

  it.each([
    // Local and reserved names, with or without the trailing dot.
    "https://intranet./",
    "https://printer.local./",
    "https://metadata.google.internal./",
    "https://localhost./",
    "https://printer/",
    "https://router.lan/",
    "https://fileserver.corp/",
    "https://nas.home/",
    "https://nas.home.arpa/",
    "https://1.0.0.127.in-addr.arpa/",
    "https://shop.test/",
    "https://shop.example/",
    "https://shop.invalid/",
    "https://hidden.onion/",
    "https://box.localdomain/",
    "https://example.com../",
    "https://example.c0m/",
    // IPv4 special-purpose ranges, in any spelling `URL` takes.
    "https://192.88.99.1/",
    "https://100.64.0.1/",
    "https://198.51.100.7/",
    "https://203.0.113.9/",
    "https://192.0.2.1/",
    "https://192.0.0.8/",
    "https://198.18.0.1/",
    "https://172.31.255.255/",
    "https://224.0.0.1/",
    "https://240.0.0.1/",
    "https://255.255.255.255/",
    "https://0x7f.1/",
    "https://0177.0.0.1/",
    "https://2130706433/",
    // IPv6 outside global unicast, or a special block inside it.
    "https://[::7f00:1]/",
    "https://[::a00:1]/",
    "https://[::]/",
    "https://[2002:a00:1::]/",
    "https://[fec0::1]/",
    "https://[2001:db8::1]/",
    "https://[64:ff9b::a00:1]/",
    "https://[::ffff:10.0.0.1]/",
    "https://[::ffff:8.8.8.8]/",
    "https://[fe80::1]/",
    "https://[fc00::1]/",
    "https://[ff02::1]/",
    "https://[2001::1]/",
    "https://[2001:10::1]/",
    "https://[2001:20::1]/",
    "https://[3fff::1]/",
  ])("refuses %s", (url) => {
    expect(endpointUrl(url, false)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^must be a public /) as string,
    });
  });

  it("expands IPv6 literals: compression and a dotted IPv4 tail", () => {
    const bytes = (...words: number[]) => words.flatMap((w) => [w >> 8, w & 0xff]);
    expect(ipv6Bytes("::")).toEqual(bytes(0, 0, 0, 0, 0, 0, 0, 0));
    expect(ipv6Bytes("::1")).toEqual(bytes(0, 0, 0, 0, 0, 0, 0, 1));
    expect(ipv6Bytes("2606:4700::1111")).toEqual(bytes(0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111));
    expect(ipv6Bytes("::FFFF:10.0.0.1")).toEqual(bytes(0, 0, 0, 0, 0, 0xffff, 0x0a00, 1));
    expect(ipv6Bytes("1:2:3:4:5:6:7:8")).toEqual(bytes(1, 2, 3, 4, 5, 6, 7, 8));
    for (const bad of [
      "1::2::3",
      "1:2:3:4:5:6:7",
      "1:2:3:4:5:6:7:8:9",
      "1:2:3:4::5:6:7:8",
      "12345::",
      ":1::",
      "::1.2.3",
      "1.2.3.4",
    ])
      expect(ipv6Bytes(bad), bad).toBeNull();
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
