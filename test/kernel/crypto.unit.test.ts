import { describe, expect, it } from "vitest";
import { sha256Hex, toHex } from "../../src/kernel/crypto";

describe("hex", () => {
  it("writes every byte as two lowercase digits", () => {
    expect(toHex(new Uint8Array([0, 1, 15, 16, 171, 255]))).toBe("00010f10abff");
    expect(toHex(new Uint8Array(256).map((_, i) => i))).toBe(
      Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0")).join(""),
    );
    expect(toHex(new Uint8Array())).toBe("");
  });

  it("gives SHA-256 as the standard's test vector has it", async () => {
    expect(await sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });
});
