/**
 * Standard Webhooks signing with WebCrypto (`src/events/sign.ts`), verified by the
 * `standardwebhooks` package as a receiver's software would.
 */
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newEndpointSecret, secretBytes, signatureHeader } from "../../src/events/sign";

const body = JSON.stringify({
  id: "evt_x",
  type: "order.settled",
  timestamp: "2026-11-26T10:00:00.000Z",
  data: { a: "ø" },
});

describe("signing", () => {
  it("makes whsec_ secrets of 32 random bytes", () => {
    const a = newEndpointSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretBytes(a)?.byteLength).toBe(32);
    expect(newEndpointSecret()).not.toBe(a);
    expect(secretBytes("whsec_AAAA")).toBeNull();
    expect(secretBytes("sk_live")).toBeNull();
  });

  it("signs id.timestamp.body so standardwebhooks verifies it, and nothing else", async () => {
    const secret = newEndpointSecret();
    const ts = Math.floor(Date.now() / 1000);
    const headers = {
      "webhook-id": "evt_x",
      "webhook-timestamp": String(ts),
      "webhook-signature": await signatureHeader([secret], "evt_x", ts, body),
    };
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(body, { ...headers, "webhook-id": "evt_y" })).toThrow(
      /No matching signature/,
    );
    expect(() => new Webhook(newEndpointSecret()).verify(body, headers)).toThrow(/No matching/);
  });

  it("signs with both secrets during a rotation, so a receiver with either verifies", async () => {
    const [next, previous] = [newEndpointSecret(), newEndpointSecret()];
    const ts = Math.floor(Date.now() / 1000);
    const signature = await signatureHeader([next, previous], "evt_x", ts, body);
    expect(signature.split(" ")).toHaveLength(2);
    const headers = {
      "webhook-id": "evt_x",
      "webhook-timestamp": String(ts),
      "webhook-signature": signature,
    };
    for (const secret of [next, previous])
      expect(new Webhook(secret).verify(body, headers)).toBeTruthy();
  });
});
