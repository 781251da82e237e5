import { describe, expect, it } from "vitest";
import { Problem } from "../../../src/kernel/problem";
import { mayHaveArrived } from "../../../src/v2/shaping/idempotency";
import {
  fingerprintOf,
  idempotencyKeyOf,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  recoverableCreate,
} from "../../../src/v2/shaping/idempotency-rules";

const bytes = (text: string) => new Response(text).arrayBuffer();

describe("idempotencyKeyOf", () => {
  it("takes 1 to 255 printable ASCII characters, bare or as a structured-field string", () => {
    expect(idempotencyKeyOf("8e03978e-40d5-43e8-bc93-6894a57f9324")).toEqual({
      ok: true,
      value: "8e03978e-40d5-43e8-bc93-6894a57f9324",
    });
    expect(idempotencyKeyOf('"8e03978e"')).toEqual({ ok: true, value: "8e03978e" });
    expect(idempotencyKeyOf("order 1001 / try ~1")).toEqual({
      ok: true,
      value: "order 1001 / try ~1",
    });
    expect(idempotencyKeyOf("x".repeat(MAX_IDEMPOTENCY_KEY_LENGTH)).ok).toBe(true);
  });

  it("refuses empty, too long and non-printable keys", () => {
    for (const bad of [
      "",
      '""',
      "x".repeat(MAX_IDEMPOTENCY_KEY_LENGTH + 1),
      "tab\tkey",
      "nøkkel",
      "del\x7f",
      "nul\0",
    ]) {
      const k = idempotencyKeyOf(bad);
      expect(k.ok, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("fingerprintOf", () => {
  it("is the same for the same method, target and bytes, and differs when any of them does", async () => {
    const base = await fingerprintOf("POST", "/Customers", await bytes('{"Name":"A"}'));
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(await fingerprintOf("POST", "/Customers", await bytes('{"Name":"A"}'))).toBe(base);
    const others = [
      await fingerprintOf("PUT", "/Customers", await bytes('{"Name":"A"}')),
      await fingerprintOf("POST", "/Customers?x=1", await bytes('{"Name":"A"}')),
      await fingerprintOf("POST", "/Suppliers", await bytes('{"Name":"A"}')),
      await fingerprintOf("POST", "/Customers", await bytes('{"Name": "A"}')),
      await fingerprintOf("POST", "/Customers", null),
    ];
    expect(new Set([base, ...others]).size).toBe(6);
  });

  it("cannot be fooled by moving bytes between the target and the body", async () => {
    expect(await fingerprintOf("POST", "/a", await bytes("\nb"))).not.toBe(
      await fingerprintOf("POST", "/a\n", await bytes("b")),
    );
  });
});

describe("recoverableCreate", () => {
  it("is the list lookup for a POST to a listed collection whose body has a top-level ExternalImportReference", async () => {
    expect(
      recoverableCreate(
        "POST",
        "/customers",
        await bytes('{"Name":"A","ExternalImportReference":"r-1"}'),
      ),
    ).toEqual({
      list: "/Customers",
      filter: "externalImportReference",
      reference: "r-1",
      status: 201,
    });
    expect(
      recoverableCreate(
        "POST",
        "/CustomDimensions",
        await bytes('{"ExternalImportReference":"d"}'),
      ),
    ).toMatchObject({ list: "/CustomDimensions" });
  });

  it("is null for other methods and collections, nested or empty references, and bodies that are not JSON objects", async () => {
    const ref = await bytes('{"ExternalImportReference":"r-1"}');
    expect(recoverableCreate("PATCH", "/Customers", ref)).toBeNull();
    expect(recoverableCreate("POST", "/SalesOrders/Complete", ref)).toBeNull();
    expect(recoverableCreate("POST", "/Customers/1", ref)).toBeNull();
    expect(
      recoverableCreate(
        "POST",
        "/Customers",
        await bytes('{"Lines":[{"ExternalImportReference":"r"}]}'),
      ),
    ).toBeNull();
    expect(
      recoverableCreate("POST", "/Customers", await bytes('{"ExternalImportReference":""}')),
    ).toBeNull();
    expect(
      recoverableCreate("POST", "/Customers", await bytes('[{"ExternalImportReference":"r"}]')),
    ).toBeNull();
    expect(recoverableCreate("POST", "/Customers", await bytes("not json"))).toBeNull();
    expect(recoverableCreate("POST", "/Customers", null)).toBeNull();
  });
});

describe("mayHaveArrived", () => {
  it("is true only when something was sent and no answer came", () => {
    expect(mayHaveArrived(new Problem("upstream-timeout", "t"), true)).toBe(true);
    expect(mayHaveArrived(new Problem("upstream-failed", "f"), true)).toBe(true);
    expect(mayHaveArrived(new Error("platform"), true)).toBe(true);
    expect(mayHaveArrived(new Problem("upstream-timeout", "t"), false)).toBe(false);
    // The gateway's own refusals come before the write is sent (or after a 401, which applies
    // nothing).
    for (const type of [
      "validation-failed",
      "bad-request",
      "unavailable",
      "unauthorized",
      "credentials-rejected",
    ] as const) {
      expect(mayHaveArrived(new Problem(type, "x"), true), type).toBe(false);
    }
  });
});
