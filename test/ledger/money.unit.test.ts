import { describe, expect, it } from "vitest";
import { formatMinor, mulDiv, stripeMinor, toDecimal, toMinor } from "../../src/ledger/money";

describe("money", () => {
  it("parses decimal strings to minor units without floats", () => {
    expect(toMinor("199.9")).toBe(19990);
    expect((toMinor("0.1") ?? NaN) + (toMinor("0.2") ?? NaN)).toBe(30);
    expect(toMinor("-0.05")).toBe(-5);
    expect(toMinor("0.125")).toBe(13);
    expect(toMinor("-1.005")).toBe(-101);
    expect(toMinor(12)).toBe(1200);
    expect(toMinor(19.99)).toBe(1999);
    expect(toMinor("12,50")).toBeNull();
    expect(toMinor("")).toBeNull();
    expect(toMinor("1e3")).toBeNull();
  });
  it("writes minor units as the API's two-place decimals", () => {
    expect(toDecimal(19990)).toBe(199.9);
    expect(toDecimal(-5)).toBe(-0.05);
    expect(toDecimal(123456789)).toBe(1234567.89);
    expect(formatMinor(-105)).toBe("-1.05");
  });
  it("multiplies and divides in integers, rounding half away from zero", () => {
    expect(mulDiv(4900, 100, 115)).toBe(4261); // 42.6087 → 42.61
    expect(mulDiv(125, 1, 2)).toBe(63);
    expect(mulDiv(-125, 1, 2)).toBe(-63);
    expect(stripeMinor(500, "jpy")).toBe(50000);
    expect(stripeMinor(500, "nok")).toBe(500);
  });
});
