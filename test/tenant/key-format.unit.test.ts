import { describe, expect, it } from "vitest";
import { claimedTenant, newGatewayKey } from "../../src/tenant/key-format";

const SECRET = "A".repeat(21) + "_-" + "z9".repeat(10); // 43 base64url characters

describe("gateway-key: newGatewayKey", () => {
  it("names its tenant and carries 32 random bytes as 43 base64url characters", () => {
    const key = newGatewayKey("demo", "acme");
    expect(key).toMatch(/^lg_demo_acme_[A-Za-z0-9_-]{43}$/);
    expect(claimedTenant(key)).toEqual({ environment: "demo", client: "acme", name: "demo:acme" });
  });

  it("makes a different key every time", () => {
    const keys = new Set(Array.from({ length: 50 }, () => newGatewayKey("production", "acme")));
    expect(keys.size).toBe(50);
  });
});

describe("gateway-key: claimedTenant", () => {
  it("accepts both environments, dashes and digits in the client, and a secret holding _ and -", () => {
    expect(claimedTenant(`lg_production_a-1_${SECRET}`)).toEqual({
      environment: "production",
      client: "a-1",
      name: "production:a-1",
    });
    expect(claimedTenant(`lg_demo_${"a".repeat(63)}_${SECRET}`)?.client).toBe("a".repeat(63));
    expect(claimedTenant(`lg_demo_0_${SECRET}`)?.name).toBe("demo:0");
  });

  it("refuses anything not shaped like a gateway key", () => {
    const refused = [
      "",
      SECRET,
      `lg_staging_acme_${SECRET}`,
      `lg_Demo_acme_${SECRET}`,
      `LG_demo_acme_${SECRET}`,
      `lg_demo_Acme_${SECRET}`,
      `lg_demo_-acme_${SECRET}`,
      `lg_demo_ac_me_${SECRET}`,
      `lg_demo_ac.me_${SECRET}`,
      `lg_demo_${"a".repeat(64)}_${SECRET}`,
      `lg_demo__${SECRET}`,
      `lg_demo_acme_${SECRET.slice(1)}`,
      `lg_demo_acme_${SECRET}A`,
      `lg_demo_acme_${SECRET.slice(1)}=`,
      `lg_demo_acme_${SECRET.slice(1)}+`,
      `lg_demo_acme_${SECRET}\n`,
      ` lg_demo_acme_${SECRET}`,
      `Bearer lg_demo_acme_${SECRET}`,
    ];
    for (const k of refused) expect(claimedTenant(k), JSON.stringify(k)).toBeNull();
  });
});
