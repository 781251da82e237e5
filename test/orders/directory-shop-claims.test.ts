/**
 * The directory's index of shop claims (`src/orders/directory-shop-claims.ts`): one secret (its
 * SHA-256) per shop per tenant, a tenant's claims replaced by its next, released with the tenant,
 * and never the secret itself.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ShopClaims } from "../../src/orders/directory-shop-claims";

const DIRECTORY = env.DIRECTORY;
let seq = 0;
/** A directory object of this test's own (not the gateway's "tenants"), migrated. */
const withClaims = <R>(run: (claims: ShopClaims, sql: SqlStorage) => R) =>
  runInDurableObject(
    DIRECTORY.get(DIRECTORY.idFromName(`test:shop-claims-${Date.now().toString(36)}-${seq++}`)),
    (_i, state) => run(new ShopClaims(state.storage.sql), state.storage.sql),
  );
const rows = (sql: SqlStorage) =>
  sql.exec("SELECT tenant, fingerprint, shop FROM shop_claims ORDER BY tenant, shop").toArray();
const claim = (tenant: string, fingerprint: string, shop: string, held = [] as never[]) => ({
  tenant,
  source: "shopify",
  fingerprint,
  shop,
  held,
});

describe("directory: shop claims", () => {
  it("refuses a second tenant the same secret on the same shop, and takes it on another shop", async () => {
    await withClaims((c, sql) => {
      expect(c.claim(claim("demo:a", "f1", "a.myshopify.com"))).toEqual({ ok: true });
      expect(c.claim(claim("demo:b", "f1", "a.myshopify.com"))).toEqual({
        ok: false,
        tenant: "demo:a",
      });
      expect(c.claim(claim("demo:b", "f1", "b.myshopify.com"))).toEqual({ ok: true });
      // The holder itself may claim its pair again.
      expect(c.claim(claim("demo:a", "f1", "a.myshopify.com"))).toEqual({ ok: true });
      expect(rows(sql)).toEqual([
        { tenant: "demo:a", fingerprint: "f1", shop: "a.myshopify.com" },
        { tenant: "demo:b", fingerprint: "f1", shop: "b.myshopify.com" },
      ]);
    });
  });

  it("replaces a tenant's claims with its next (keeping a rotation's held pair), and releases them with the tenant", async () => {
    await withClaims((c, sql) => {
      c.claim(claim("demo:a", "f1", "a.myshopify.com"));
      c.claim({
        ...claim("demo:a", "f2", "a.myshopify.com"),
        held: [{ fingerprint: "f1", shop: "a.myshopify.com" }],
      });
      expect(rows(sql)).toHaveLength(2);
      c.claim(claim("demo:a", "f3", "new.myshopify.com"));
      expect(rows(sql)).toEqual([
        { tenant: "demo:a", fingerprint: "f3", shop: "new.myshopify.com" },
      ]);
      // The old pair is free for another tenant now.
      expect(c.claim(claim("demo:b", "f1", "a.myshopify.com"))).toEqual({ ok: true });
      c.release("demo:a");
      expect(rows(sql)).toEqual([{ tenant: "demo:b", fingerprint: "f1", shop: "a.myshopify.com" }]);
    });
  });

  it("never takes a held pair from the tenant that holds it", async () => {
    await withClaims((c, sql) => {
      c.claim(claim("demo:b", "f1", "a.myshopify.com"));
      c.claim({
        ...claim("demo:a", "f2", "a.myshopify.com"),
        held: [{ fingerprint: "f1", shop: "a.myshopify.com" }],
      });
      expect(rows(sql)).toEqual([
        { tenant: "demo:a", fingerprint: "f2", shop: "a.myshopify.com" },
        { tenant: "demo:b", fingerprint: "f1", shop: "a.myshopify.com" },
      ]);
    });
  });
});
