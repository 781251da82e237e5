import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { OrderSettings } from "../../../src/orders/tenant/order-settings";
import { Sealer } from "../../../src/tenant/sealer";
import { importSecretsKey, seal } from "../../../src/kernel/crypto";
import { DEFAULT_VAT_ROUTES } from "../../../src/ledger/mapping";

const TENANT = env.TENANT;
let seq = 0;
/**
 * The SQLite storage of a tenant object never registered (its constructor has migrated it), under a
 * name no other test uses.
 */
function withSql<R>(run: (sql: SqlStorage) => R | Promise<R>): Promise<R> {
  const stub = TENANT.get(
    TENANT.idFromName(`test:order-settings-${Date.now().toString(36)}-${seq++}`),
  );
  return runInDurableObject(stub, (_i, state) => run(state.storage.sql));
}
const settings = (sql: SqlStorage, sealer = new Sealer(env)) => new OrderSettings(sql, sealer);
const storedSecrets = (sql: SqlStorage) =>
  sql
    .exec<{ source: string; sealed: string }>(
      "SELECT source, sealed FROM webhook_secrets ORDER BY source",
    )
    .toArray();

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

describe("order-settings: webhook secrets", () => {
  it("stores a secret sealed (never as itself) and opens it for its tenant and source", async () => {
    await withSql(async (sql) => {
      const s = settings(sql);
      expect(await s.setSecret("demo:acme", "shopify", SECRET)).toBe(true);
      const rows = storedSecrets(sql);
      expect(rows.map((r) => r.source)).toEqual(["shopify"]);
      expect(JSON.stringify(rows)).not.toContain(SECRET);
      expect(JSON.parse(rows[0]?.sealed ?? "null")).toMatchObject({
        kid: expect.stringMatching(/^[0-9a-f]{12}$/) as unknown,
        iv: expect.any(String) as unknown,
        ct: expect.any(String) as unknown,
      });
      expect(await s.secret("demo:acme", "shopify")).toBe(SECRET);
    });
  });

  it("opens a secret only under its own tenant and source context", async () => {
    await withSql(async (sql) => {
      const s = settings(sql);
      await s.setSecret("demo:acme", "shopify", SECRET);
      expect(await s.secret("demo:other", "shopify")).toBeNull();
      expect(await s.secret("production:acme", "shopify")).toBeNull();
      expect(await s.secret("demo:acme", "stripe")).toBeNull();
      // The sealed record copied to another source's row does not open there either.
      sql.exec(
        "INSERT INTO webhook_secrets (source, sealed) SELECT 'stripe', sealed FROM webhook_secrets WHERE source = 'shopify'",
      );
      expect(await s.secret("demo:acme", "stripe")).toBeNull();
      expect(await s.secret("demo:acme", "shopify")).toBe(SECRET);
    });
  });

  it("replaces a source's secret, one row per source", async () => {
    await withSql(async (sql) => {
      const s = settings(sql);
      await s.setSecret("demo:acme", "shopify", "first");
      await s.setSecret("demo:acme", "shopify", "second");
      await s.setSecret("demo:acme", "woocommerce", "third");
      expect(storedSecrets(sql).map((r) => r.source)).toEqual(["shopify", "woocommerce"]);
      expect(await s.secret("demo:acme", "shopify")).toBe("second");
      expect(await s.secret("demo:acme", "woocommerce")).toBe("third");
    });
  });

  it("refuses to store a secret without SECRETS_KEY, and stores nothing", async () => {
    await withSql(async (sql) => {
      const s = settings(sql, new Sealer({ ...env, SECRETS_KEY: undefined }));
      expect(await s.setSecret("demo:acme", "shopify", SECRET)).toBe(false);
      expect(storedSecrets(sql)).toEqual([]);
    });
  });

  it("opens a secret sealed under SECRETS_KEY_PREVIOUS and re-seals it under SECRETS_KEY", async () => {
    await withSql(async (sql) => {
      const previous = await importSecretsKey(env.SECRETS_KEY_PREVIOUS ?? "");
      const current = await importSecretsKey(env.SECRETS_KEY ?? "");
      const old = await seal(SECRET, previous, "webhook:demo:acme:stripe");
      sql.exec(
        "INSERT INTO webhook_secrets (source, sealed) VALUES ('stripe', ?)",
        JSON.stringify(old),
      );
      const s = settings(sql);
      expect(await s.secret("demo:acme", "stripe")).toBe(SECRET);
      const kid = (JSON.parse(storedSecrets(sql)[0]?.sealed ?? "null") as { kid: string }).kid;
      expect(kid).toBe(current.kid);
      expect(await s.secret("demo:acme", "stripe")).toBe(SECRET);
    });
  });
});

describe("order-settings: secret rotation and the pinned shop", () => {
  const T0 = Date.parse("2026-03-01T10:00:00.000Z");
  const HOUR = 3_600_000;

  it("keeps the replaced secret verifying until its retire time, then only the current one", async () => {
    await withSql(async (sql) => {
      const s = settings(sql);
      expect(await s.secrets("demo:acme", "shopify", T0)).toEqual([]);
      await s.setSecret("demo:acme", "shopify", "first-secret");
      expect(
        await s.configure("demo:acme", "shopify", "second-secret", { graceSeconds: 3600 }, T0),
      ).toEqual({
        ok: true,
        value: { previousSecretRetiresAt: new Date(T0 + HOUR).toISOString() },
      });
      expect(await s.secrets("demo:acme", "shopify", T0 + HOUR - 1)).toEqual([
        "second-secret",
        "first-secret",
      ]);
      expect(await s.secrets("demo:acme", "shopify", T0 + HOUR)).toEqual(["second-secret"]);
      expect(await s.secret("demo:acme", "shopify")).toBe("second-secret");
      // Sealed like the current one, never as itself.
      expect(
        JSON.stringify(sql.exec("SELECT * FROM webhook_previous_secrets").toArray()),
      ).not.toContain("first-secret");
    });
  });

  it("keeps one previous secret: a second rotation replaces it, and an outright set drops it", async () => {
    await withSql(async (sql) => {
      const s = settings(sql);
      await s.setSecret("demo:acme", "woocommerce", "first-secret");
      await s.configure("demo:acme", "woocommerce", "second-secret", { graceSeconds: 3600 }, T0);
      await s.configure(
        "demo:acme",
        "woocommerce",
        "third-secret",
        { graceSeconds: 60 },
        T0 + 1000,
      );
      expect(await s.secrets("demo:acme", "woocommerce", T0 + 2000)).toEqual([
        "third-secret",
        "second-secret",
      ]);
      expect(s.previousRetiresAt("woocommerce")).toBe(T0 + 61_000);
      expect(await s.configure("demo:acme", "woocommerce", "fourth-secret", {}, T0 + 3000)).toEqual(
        { ok: true, value: { previousSecretRetiresAt: null } },
      );
      expect(await s.secrets("demo:acme", "woocommerce", T0 + 3000)).toEqual(["fourth-secret"]);
      // A rotation with nothing to replace keeps nothing.
      expect(
        await s.configure("demo:acme", "shopify", "only-secret", { graceSeconds: 3600 }, T0),
      ).toEqual({ ok: true, value: { previousSecretRetiresAt: null } });
    });
  });

  it("is due when the earliest previous secret retires, and the purge removes retired ones only", async () => {
    await withSql(async (sql) => {
      const s = settings(sql);
      expect(s.dueAt()).toBeNull();
      for (const [source, grace] of [
        ["shopify", 7200],
        ["woocommerce", 3600],
      ] as const) {
        await s.setSecret("demo:acme", source, "old-secret");
        await s.configure("demo:acme", source, "new-secret", { graceSeconds: grace }, T0);
      }
      expect(s.dueAt()).toBe(T0 + HOUR);
      s.purge(T0 + HOUR);
      expect(s.previousRetiresAt("woocommerce")).toBeNull();
      expect(s.dueAt()).toBe(T0 + 2 * HOUR);
      expect(await s.secrets("demo:acme", "shopify", T0 + HOUR)).toEqual([
        "new-secret",
        "old-secret",
      ]);
    });
  });

  it("re-seals a previous secret sealed under SECRETS_KEY_PREVIOUS", async () => {
    await withSql(async (sql) => {
      const previous = await importSecretsKey(env.SECRETS_KEY_PREVIOUS ?? "");
      const current = await importSecretsKey(env.SECRETS_KEY ?? "");
      sql.exec(
        "INSERT INTO webhook_previous_secrets (source, sealed, retires_at) VALUES ('shopify', ?, ?)",
        JSON.stringify(await seal("old-secret", previous, "webhook:demo:acme:shopify")),
        T0 + HOUR,
      );
      expect(await settings(sql).secrets("demo:acme", "shopify", T0)).toEqual(["old-secret"]);
      const [stored] = sql
        .exec<{ sealed: string }>("SELECT sealed FROM webhook_previous_secrets")
        .toArray();
      expect((JSON.parse(stored?.sealed ?? "null") as { kid: string }).kid).toBe(current.kid);
    });
  });
});

describe("order-settings: mapping", () => {
  it("answers the defaults when none is stored", async () => {
    await withSql((sql) => {
      const m = settings(sql).mapping();
      expect(m.vat).toEqual(DEFAULT_VAT_ROUTES);
      expect(m).toMatchObject({
        unknownSkus: "create",
        customers: "create",
        deliveryType: "Auto",
        settle: true,
        // A tenant registered since providers: each provider's money to its clearing account.
        settlementAccount: null,
        clearingBy: "provider",
        providerAccounts: {
          stripe: 1905,
          vipps: 1906,
          klarna: 1907,
          paypal: 1908,
          card: 1909,
          other: 1910,
        },
        unknownPaymentMethod: "other",
        paymentMethods: {},
        clearingAccounts: { shopify: 1901, woocommerce: 1902, stripe: 1903, standard: 1904 },
        roundingProduct: "AVRUNDING",
        roundingAccount: 3200,
      });
      expect(m.payouts).toEqual({
        bankAccount: 1920,
        feeAccount: 7770,
        feeVatCode: "0",
        adjustmentAccount: 7790,
        disputeAccount: 7830,
        currencyGainAccount: 8060,
        currencyLossAccount: 8160,
        unpaidAfterDays: 7,
      });
    });
  });

  it("a tenant from before payouts (step 11's row) keeps 1920 while its mapping names no account, and switches with settlementAccount: null", async () => {
    await withSql((sql) => {
      sql.exec("INSERT INTO mapping_defaults (id, settlement_account) VALUES (1, 1920)");
      const s = settings(sql);
      expect(s.mapping().settlementAccount).toBe(1920);
      expect(s.setMapping({ deliveryType: "PdfByEmail" }).settlementAccount).toBe(1920);
      expect(s.setMapping({ settlementAccount: null }).settlementAccount).toBeNull();
      expect(s.mapping().settlementAccount).toBeNull();
      expect(s.setMapping({ settlementAccount: 1950 }).settlementAccount).toBe(1950);
    });
  });

  it("a tenant from before providers (step 18's row) keeps clearing by source until its mapping switches", async () => {
    await withSql((sql) => {
      sql.exec(
        "INSERT INTO mapping_defaults (id, settlement_account, clearing_by) VALUES (1, NULL, 'source')",
      );
      const s = settings(sql);
      expect(s.mapping()).toMatchObject({ settlementAccount: null, clearingBy: "source" });
      expect(s.setMapping({ deliveryType: "PdfByEmail" }).clearingBy).toBe("source");
      expect(s.setMapping({ clearingBy: "provider" }).clearingBy).toBe("provider");
      expect(s.mapping().clearingBy).toBe("provider");
    });
  });

  it("stores the input as sent and answers it with the defaults filled in, now and on a later read", async () => {
    await withSql((sql) => {
      const s = settings(sql);
      const input = {
        vat: { "25": { salesAccount: 3001 } },
        settlementAccount: 1950,
        customers: "webshop" as const,
      };
      const answered = s.setMapping(input);
      expect(answered.vat["25"]).toEqual({
        salesAccount: 3001,
        shippingProduct: "FRAKT-25",
        fallbackProduct: "VARE-25",
      });
      expect(answered.vat["15"]).toEqual(DEFAULT_VAT_ROUTES["15"]);
      expect(answered).toMatchObject({
        settlementAccount: 1950,
        customers: "webshop",
        webshopCustomerName: "Nettbutikk",
        settle: true,
      });
      expect(settings(sql).mapping()).toEqual(answered);
      // Stored as sent, so a later change of a default reaches tenants that never set it.
      expect(sql.exec("SELECT data FROM order_mapping").toArray()).toEqual([
        { data: JSON.stringify(input) },
      ]);
    });
  });

  it("a new mapping replaces the old one whole (fields left out go back to their defaults)", async () => {
    await withSql((sql) => {
      const s = settings(sql);
      s.setMapping({ settlementAccount: 1950, settle: false });
      s.setMapping({ deliveryType: "PdfByEmail" });
      expect(s.mapping()).toMatchObject({
        deliveryType: "PdfByEmail",
        settlementAccount: null,
        settle: true,
      });
    });
  });
});

describe("order-settings: settlement ids", () => {
  it("round-trips per account number, null for another", async () => {
    await withSql((sql) => {
      const s = settings(sql);
      expect(s.settlementIds(1920)).toBeNull();
      s.rememberSettlementIds(1920, { settlementAccountId: 77, noVatId: 3 });
      s.rememberSettlementIds(1950, { settlementAccountId: 78, noVatId: 3 });
      expect(settings(sql).settlementIds(1920)).toEqual({ settlementAccountId: 77, noVatId: 3 });
      expect(settings(sql).settlementIds(1950)).toEqual({ settlementAccountId: 78, noVatId: 3 });
      expect(s.settlementIds(2400)).toBeNull();
      s.rememberSettlementIds(1920, { settlementAccountId: 79, noVatId: 4 });
      expect(s.settlementIds(1920)).toEqual({ settlementAccountId: 79, noVatId: 4 });
    });
  });

  it("refuses ids that do not match their schema, and stores nothing", async () => {
    await withSql((sql) => {
      const s = settings(sql);
      expect(() =>
        s.rememberSettlementIds(1920, { settlementAccountId: 1.5, noVatId: 3 }),
      ).toThrow();
      expect(s.settlementIds(1920)).toBeNull();
    });
  });
});

describe("order-settings: clear", () => {
  it("removes every secret, the mapping and the remembered ids", async () => {
    await withSql(async (sql) => {
      const s = settings(sql);
      await s.setSecret("demo:acme", "shopify", SECRET);
      await s.configure("demo:acme", "shopify", `${SECRET}-2`, { graceSeconds: 60 }, Date.now());
      s.setMapping({ settlementAccount: 1950 });
      sql.exec("INSERT INTO mapping_defaults (id, settlement_account) VALUES (1, 1920)");
      s.rememberSettlementIds(1950, { settlementAccountId: 78, noVatId: 3 });
      s.clear();
      expect(await s.secret("demo:acme", "shopify")).toBeNull();
      // A tenant registered again is a new one: the clearing accounts, not 1920.
      expect(s.mapping().settlementAccount).toBeNull();
      expect(s.settlementIds(1950)).toBeNull();
      for (const table of [
        "webhook_secrets",
        "webhook_previous_secrets",
        "order_mapping",
        "mapping_defaults",
        "settlement_ids",
      ])
        expect(sql.exec(`SELECT * FROM ${table}`).toArray(), table).toEqual([]);
    });
  });
});
