import { describe, expect, it } from "vitest";
import { fromBase64, fromHex, toBase64, toHex } from "../../../src/kernel/crypto";
import {
  concatBytes,
  hmacSha256,
  utf8,
  verifyBase64Hmac,
  verifyHexHmac,
  verifyHmac,
} from "../../../src/orders/adapters/signature";

// RFC 4231, test case 2.
const KEY = "Jefe";
const DATA = "what do ya want for nothing?";
const MAC = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
const MAC_BYTES = fromHex(MAC) ?? new Uint8Array();

describe("signature helpers", () => {
  it("computes HMAC-SHA256 (RFC 4231 known answer)", async () => {
    expect(toHex(await hmacSha256(KEY, DATA))).toBe(MAC);
    expect(toHex(await hmacSha256(utf8(KEY), utf8(DATA)))).toBe(MAC);
  });

  it("verifies hex and base64 signatures", async () => {
    const msg = utf8(DATA);
    expect(await verifyHexHmac(KEY, msg, [MAC])).toBe(true);
    expect(await verifyHexHmac(KEY, msg, [MAC.toUpperCase()])).toBe(true);
    expect(await verifyBase64Hmac(KEY, msg, toBase64(MAC_BYTES))).toBe(true);
    expect(await verifyHexHmac(KEY, msg, [MAC.replace(/^5/, "6")])).toBe(false);
    expect(await verifyBase64Hmac("Jeff", msg, toBase64(MAC_BYTES))).toBe(false);
  });

  it("passes when any candidate matches, and never on none or on junk", async () => {
    const msg = utf8(DATA);
    expect(await verifyHexHmac(KEY, msg, ["00", "zz", MAC])).toBe(true);
    expect(await verifyHexHmac(KEY, msg, ["zz", MAC.slice(0, 62)])).toBe(false);
    expect(await verifyHmac(KEY, msg, [])).toBe(false);
    expect(await verifyBase64Hmac(KEY, msg, "not base64!")).toBe(false);
    expect(await verifyBase64Hmac(KEY, msg, "")).toBe(false);
  });

  it("converts base64 and hex both ways, refusing malformed text", () => {
    const bytes = new Uint8Array([0, 1, 254, 255, 128]);
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    expect(fromHex(toHex(bytes))).toEqual(bytes);
    expect(fromBase64("AQI")).toEqual(new Uint8Array([1, 2]));
    expect(fromBase64("A*I=")).toBeNull();
    expect(fromHex("abc")).toBeNull();
    expect(fromHex("gg")).toBeNull();
  });

  it("concatenates signed content without decoding the body", () => {
    const body = new Uint8Array([0xff, 0xfe]); // not UTF-8: must pass through untouched
    expect(Array.from(concatBytes("1.", body))).toEqual([0x31, 0x2e, 0xff, 0xfe]);
  });
});
