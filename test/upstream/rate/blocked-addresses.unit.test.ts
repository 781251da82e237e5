import { describe, expect, it } from "vitest";
import { addressKey, BlockedAddresses } from "../../../src/upstream/rate/blocked-addresses";

describe("blocked addresses: keys", () => {
  it("counts IPv4 as it is, IPv6 by its /64 in any spelling, IPv4-mapped IPv6 as IPv4", () => {
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:1:2::7")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0DB8:0001:0002:ffff:0:0:1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:3::7")).toBe("2001:db8:1:3::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("")).toBeNull();
  });
});

describe("blocked addresses: memory", () => {
  it("refuses an address until its block ends, in whole seconds", () => {
    const b = new BlockedAddresses();
    b.block("a", 60_000, 1000);
    expect(b.secondsLeft("a", 1000)).toBe(60);
    expect(b.secondsLeft("a", 60_500)).toBe(1);
    expect(b.secondsLeft("a", 61_000)).toBe(0);
    expect(b.secondsLeft("b", 1000)).toBe(0);
  });

  it("stays within its bound: ended blocks go first, then the oldest", () => {
    const b = new BlockedAddresses(2);
    b.block("a", 10, 0);
    b.block("b", 60_000, 0);
    b.block("c", 60_000, 100);
    expect([b.secondsLeft("a", 100), b.secondsLeft("b", 100), b.secondsLeft("c", 100)]).toEqual([
      0, 60, 60,
    ]);
    b.block("d", 60_000, 200);
    expect([b.secondsLeft("b", 200), b.secondsLeft("c", 200), b.secondsLeft("d", 200)]).toEqual([
      0, 60, 60,
    ]);
  });

  it("is empty until something is blocked, and again once an ended block is forgotten", () => {
    const b = new BlockedAddresses();
    expect(b.empty).toBe(true);
    b.block("a", 1000, 0);
    expect(b.empty).toBe(false);
    // Still remembered after it ended, until it is asked about: not empty, so a caller checks.
    expect(b.empty).toBe(false);
    expect(b.secondsLeft("a", 1000)).toBe(0);
    expect(b.empty).toBe(true);
  });
});
