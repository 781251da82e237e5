import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { KNOWN_FOR_MS, KnownIds } from "../../../src/orders/tenant/known-ids";
import { OrderSettings } from "../../../src/orders/tenant/order-settings";
import { Sealer } from "../../../src/tenant/sealer";
import { withTenantSql } from "../../helpers/storage";

const withSql = <R>(run: (sql: SqlStorage) => R | Promise<R>) => withTenantSql("known-ids", run);
const known = (sql: SqlStorage) => new KnownIds(sql, new OrderSettings(sql, new Sealer(env)));

const T0 = Date.parse("2026-03-01T10:00:00.000Z");
const REG = "reg-1";
const BUYER = "a".repeat(64);
const KARI = { id: 501, number: 10_001, subledgerAccountId: 9001, warning: null };

describe("known-ids: customers and products", () => {
  it("recalls what a run learned, by buyer and by code, and nothing else", async () => {
    await withSql((sql) => {
      const k = known(sql);
      k.learn(
        REG,
        {
          customer: { buyer: BUYER, known: KARI },
          products: [
            { code: "PLEDD", salesAccount: 3000 },
            { code: "FRAKT-25", salesAccount: null },
          ],
        },
        T0,
      );
      expect(
        k.recall(REG, { buyer: BUYER, codes: ["PLEDD", "FRAKT-25", "KAFFE"] }, T0 + 1),
      ).toEqual({
        customer: KARI,
        products: expect.arrayContaining([
          { code: "PLEDD", salesAccount: 3000 },
          { code: "FRAKT-25", salesAccount: null },
        ]) as unknown,
        settlement: null,
      });
      expect(k.recall(REG, { buyer: "b".repeat(64), codes: ["KAFFE"] }, T0 + 1)).toEqual({
        customer: null,
        products: [],
        settlement: null,
      });
    });
  });

  it("is scoped to the registration: another registration of the slug recalls nothing", async () => {
    await withSql((sql) => {
      const k = known(sql);
      k.learn(
        REG,
        {
          customer: { buyer: BUYER, known: KARI },
          products: [{ code: "PLEDD", salesAccount: 3000 }],
        },
        T0,
      );
      expect(k.recall("reg-2", { buyer: BUYER, codes: ["PLEDD"] }, T0)).toEqual({
        customer: null,
        products: [],
        settlement: null,
      });
    });
  });

  it("trusts an id for KNOWN_FOR_MS after the API showed it, then drops it", async () => {
    await withSql((sql) => {
      const k = known(sql);
      k.learn(
        REG,
        {
          customer: { buyer: BUYER, known: KARI },
          products: [{ code: "PLEDD", salesAccount: 3000 }],
        },
        T0,
      );
      expect(
        k.recall(REG, { buyer: BUYER, codes: ["PLEDD"] }, T0 + KNOWN_FOR_MS - 1).customer,
      ).toEqual(KARI);
      expect(k.recall(REG, { buyer: BUYER, codes: ["PLEDD"] }, T0 + KNOWN_FOR_MS)).toMatchObject({
        customer: null,
        products: [],
      });
      // The next learning purges the expired rows.
      k.learn(REG, { products: [{ code: "KAFFE", salesAccount: 3030 }] }, T0 + KNOWN_FOR_MS);
      expect(sql.exec("SELECT code FROM known_products").toArray()).toEqual([{ code: "KAFFE" }]);
      expect(sql.exec("SELECT buyer FROM known_customers").toArray()).toEqual([]);
    });
  });

  it("forgets a customer id the API says is gone (every buyer filed under it) and product codes, even odd ones", async () => {
    await withSql((sql) => {
      const k = known(sql);
      const odd = "SKU'); DROP TABLE known_products; --";
      k.learn(
        REG,
        {
          customer: { buyer: BUYER, known: KARI },
          products: [
            { code: odd, salesAccount: 3000 },
            { code: "a,b", salesAccount: 3000 },
            { code: "KAFFE", salesAccount: 3030 },
          ],
        },
        T0,
      );
      k.learn(REG, { customer: { buyer: "c".repeat(64), known: KARI } }, T0);
      k.learn(REG, { gone: { customerId: 501, codes: [odd, "a,b"] } }, T0 + 1);
      expect(k.recall(REG, { buyer: BUYER, codes: [odd, "a,b", "KAFFE"] }, T0 + 2)).toEqual({
        customer: null,
        products: [{ code: "KAFFE", salesAccount: 3030 }],
        settlement: null,
      });
      expect(k.recall(REG, { buyer: "c".repeat(64) }, T0 + 2).customer).toBeNull();
    });
  });

  it("rejects a malformed record, files a customer under the buyer's hash and its id, and clear() empties both tables", async () => {
    await withSql((sql) => {
      const k = known(sql);
      expect(() =>
        k.learn(REG, { customer: { buyer: BUYER, known: { ...KARI, id: 1.5 } } }, T0),
      ).toThrow();
      k.learn(
        REG,
        {
          customer: { buyer: BUYER, known: KARI },
          products: [{ code: "PLEDD", salesAccount: 3000 }],
        },
        T0,
      );
      expect(
        sql.exec("SELECT registration, buyer, customer_id FROM known_customers").toArray(),
      ).toEqual([{ registration: REG, buyer: BUYER, customer_id: 501 }]);
      k.clear();
      for (const table of ["known_customers", "known_products"])
        expect(sql.exec(`SELECT * FROM ${table}`).toArray(), table).toEqual([]);
    });
  });
});

describe("known-ids: settlement ids", () => {
  it("are recalled by account number and kept as before, in order settings' table", async () => {
    await withSql((sql) => {
      const k = known(sql);
      expect(k.recall(REG, { settlementAccount: 1920 }, T0).settlement).toBeNull();
      k.learn(
        REG,
        { settlement: { accountNo: 1920, ids: { settlementAccountId: 77, noVatId: 3 } } },
        T0,
      );
      expect(k.recall(REG, { settlementAccount: 1920 }, T0 + 2 * KNOWN_FOR_MS).settlement).toEqual({
        settlementAccountId: 77,
        noVatId: 3,
      });
      expect(sql.exec("SELECT account_no FROM settlement_ids").toArray()).toEqual([
        { account_no: 1920 },
      ]);
    });
  });
});
