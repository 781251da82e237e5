import { describe, expect, it } from "vitest";
import {
  MAX_REFERENCE_ENTRIES,
  REFERENCE_TTL_MS,
  ReferenceCache,
} from "../../../src/v2/tenant/reference-cache";
import { withTenantSql } from "../../helpers/storage";

const withCache = <R>(run: (c: ReferenceCache, sql: SqlStorage) => R | Promise<R>) =>
  withTenantSql("reference-cache", (sql) => run(new ReferenceCache(sql), sql));

const T0 = Date.parse("2026-03-01T10:00:00.000Z");
const ANSWER = {
  status: 200,
  headers: { "content-type": "application/json" },
  body: new TextEncoder().encode("[]").buffer as ArrayBuffer,
};

describe("reference-cache (object)", () => {
  it("serves an entry for REFERENCE_TTL_MS, then misses and purges it", async () => {
    await withCache((c, sql) => {
      const miss = c.read("/VatCodes", "vatcodes", false, T0);
      if (miss.kind !== "miss") throw new Error("hit");
      expect(c.keep("/VatCodes", "vatcodes", miss.generation, ANSWER, T0)).toEqual({
        storedAt: T0,
        expiresAt: T0 + REFERENCE_TTL_MS,
      });
      expect(c.read("/VatCodes", "vatcodes", false, T0 + REFERENCE_TTL_MS - 1)).toMatchObject({
        kind: "hit",
        storedAt: T0,
        answer: { status: 200, headers: ANSWER.headers },
      });
      expect(c.read("/VatCodes", "vatcodes", true, T0 + 1).kind).toBe("miss");
      expect(c.read("/VatCodes", "vatcodes", false, T0 + REFERENCE_TTL_MS).kind).toBe("miss");
      expect(c.dueAt()).toBe(T0 + REFERENCE_TTL_MS);
      c.purge(T0 + REFERENCE_TTL_MS);
      expect(sql.exec("SELECT key FROM reference_cache").toArray()).toEqual([]);
    });
  });

  it("a write between a miss and its keep wins: the stale read is not kept", async () => {
    await withCache((c) => {
      const miss = c.read("/PaymentTerms", "paymentterms", false, T0);
      if (miss.kind !== "miss") throw new Error("hit");
      c.forget("paymentterms");
      expect(c.keep("/PaymentTerms", "paymentterms", miss.generation, ANSWER, T0 + 1)).toBeNull();
      expect(c.read("/PaymentTerms", "paymentterms", false, T0 + 2).kind).toBe("miss");
    });
  });

  it("forgetting a resource leaves the others; clearing forgets all and outdates reads in flight", async () => {
    await withCache((c) => {
      for (const [key, resource] of [
        ["/VatCodes", "vatcodes"],
        ["/Currencies", "currencies"],
      ] as const)
        c.keep(key, resource, 0, ANSWER, T0);
      c.forget("vatcodes");
      expect(c.read("/VatCodes", "vatcodes", false, T0 + 1).kind).toBe("miss");
      expect(c.read("/Currencies", "currencies", false, T0 + 1).kind).toBe("hit");
      const miss = c.read("/BrandingThemes", "brandingthemes", false, T0 + 1);
      c.clear();
      expect(c.read("/Currencies", "currencies", false, T0 + 2).kind).toBe("miss");
      if (miss.kind === "miss")
        expect(
          c.keep("/BrandingThemes", "brandingthemes", miss.generation, ANSWER, T0 + 2),
        ).toBeNull();
    });
  });

  it(`keeps at most ${MAX_REFERENCE_ENTRIES} entries, dropping the oldest`, async () => {
    await withCache((c, sql) => {
      for (let i = 0; i <= MAX_REFERENCE_ENTRIES; i++)
        c.keep(`/VatCodes?PageNumber=${i}`, "vatcodes", 0, ANSWER, T0 + i);
      expect(sql.exec("SELECT COUNT(*) AS n FROM reference_cache").one()).toEqual({
        n: MAX_REFERENCE_ENTRIES,
      });
      expect(c.read("/VatCodes?PageNumber=0", "vatcodes", false, T0 + 200).kind).toBe("miss");
      expect(
        c.read(`/VatCodes?PageNumber=${MAX_REFERENCE_ENTRIES}`, "vatcodes", false, T0 + 200).kind,
      ).toBe("hit");
    });
  });
});
