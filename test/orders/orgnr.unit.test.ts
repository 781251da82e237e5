import { describe, expect, it } from "vitest";
import {
  checkDigit,
  isOrgNumberField,
  isValidOrgNumber,
  normalizeOrgNumber,
} from "../../src/orders/orgnr";

describe("organization numbers", () => {
  it("accepts numbers whose last digit is the MOD11 check digit", () => {
    expect(isValidOrgNumber("123456785")).toBe(true);
    expect(isValidOrgNumber("974760673")).toBe(true); // Brønnøysundregistrene
    expect(isValidOrgNumber("923609016")).toBe(true);
    expect(checkDigit("12345678")).toBe(5);
  });

  it("refuses a wrong check digit, and anything but nine digits", () => {
    expect(isValidOrgNumber("123456784")).toBe(false);
    expect(isValidOrgNumber("12345678")).toBe(false);
    expect(isValidOrgNumber("1234567850")).toBe(false);
    expect(isValidOrgNumber("12345678a")).toBe(false);
    expect(isValidOrgNumber("NO123456785MVA")).toBe(false);
  });

  it("refuses every number whose check digit would be 10", () => {
    // 4·3 = 12, 12 mod 11 = 1, so the check digit would be 11 − 1 = 10: no such number exists.
    expect(checkDigit("40000000")).toBeNull();
    for (let d = 0; d <= 9; d++) expect(isValidOrgNumber(`40000000${d}`)).toBe(false);
  });

  it("gives r = 0 the check digit 0", () => {
    // 3·3 + 1·2 = 11, 11 mod 11 = 0.
    expect(checkDigit("31000000")).toBe(0);
    expect(isValidOrgNumber("310000000")).toBe(true);
  });

  it("normalizes the written forms to nine digits", () => {
    expect(normalizeOrgNumber("NO 123456785 MVA")).toBe("123456785");
    expect(normalizeOrgNumber("123 456 785")).toBe("123456785");
    expect(normalizeOrgNumber("NO123456785MVA")).toBe("123456785");
    expect(normalizeOrgNumber("no 123 456 785 mva")).toBe("123456785");
    expect(normalizeOrgNumber("123.456.785")).toBe("123456785");
    expect(normalizeOrgNumber(" 123456785 ")).toBe("123456785");
    // Normalizing does not validate: the check comes after.
    expect(normalizeOrgNumber("123456784")).toBe("123456784");
  });

  it("returns null when the text cannot be nine digits", () => {
    for (const raw of [
      "",
      "12345678",
      "1234567890",
      "SE556012345601",
      "abc",
      "12345678X",
      "NO",
      "MVA",
    ])
      expect(normalizeOrgNumber(raw)).toBeNull();
  });

  it("recognizes checkout fields that hold an organization number", () => {
    for (const name of [
      "Org.nr",
      "org_nr",
      "orgnr",
      "Organisasjonsnummer",
      "organisasjonsnummer (bedrift)",
      "_billing_org_nr",
      "organization_number",
      "Organisation number",
      "VAT number",
      "MVA-nummer",
      "Foretaksnummer",
    ]) {
      expect(isOrgNumberField(name), name).toBe(true);
    }
    for (const name of [
      "is_vat_exempt",
      "gift_message",
      "Organic",
      "order_note",
      "_wc_order_attribution_source_type",
    ])
      expect(isOrgNumberField(name), name).toBe(false);
  });
});
