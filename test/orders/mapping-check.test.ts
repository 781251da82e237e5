/**
 * Saving an order mapping checks its accounts against the client's chart of accounts and VAT codes
 * (`src/orders/mapping-check.ts`), through the admin API and the console's form.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { follow, signIn } from "../helpers/console";
import { ADMIN, control, fresh, gw, json, stats, tenant } from "../helpers/gateway";

beforeEach(() => fresh());

type Tenant = Awaited<ReturnType<typeof tenant>>;

/** Upstream calls made by `run` (the sandbox's request counter). */
async function calls<T>(run: () => Promise<T>): Promise<{ value: T; calls: number }> {
  const before = (await stats()).requests;
  const value = await run();
  return { value, calls: (await stats()).requests - before };
}

const url = (t: Tenant) => `/admin/tenants/${t.environment}/${t.client}/order-mapping`;
const save = (t: Tenant, mapping: unknown) => gw(url(t), json(mapping, "PUT", ADMIN));
const stored = async (t: Tenant) =>
  (await (await gw(url(t), { headers: ADMIN })).json()) as {
    settlementAccount: number;
    vat: Record<string, { salesAccount: number }>;
  };

type ProblemBody = {
  type: string;
  status: number;
  detail: string;
  errors?: { path: string; message: string }[];
};

describe("mapping check: happy", () => {
  it("stores a mapping whose accounts are in the chart, and a second save reads nothing upstream", async () => {
    const t = await tenant();
    const first = await calls(() =>
      save(t, {
        settlementAccount: 1900,
        roundingAccount: 3200,
        vat: { "25": { salesAccount: 3000 } },
      }),
    );
    expect(first.value.status, await first.value.clone().text()).toBe(200);
    // The chart and the VAT codes, one read each (the token was fetched at registration).
    expect(first.calls).toBe(2);
    expect((await stored(t)).settlementAccount).toBe(1900);
    const second = await calls(() => save(t, { settlementAccount: 1920 }));
    expect(second.value.status).toBe(200);
    expect(second.calls).toBe(0);
    expect((await stored(t)).settlementAccount).toBe(1920);
  });

  it("a mapping that names no account reads nothing", async () => {
    const t = await tenant();
    const r = await calls(() => save(t, { settle: false, customers: "webshop" }));
    expect([r.value.status, r.calls]).toEqual([200, 0]);
  });

  it("shares the reference cache with /v2: a chart read through /v2 is not read again", async () => {
    const t = await tenant();
    expect((await t.v2("/GeneralLedgerAccounts")).status).toBe(200);
    expect((await t.v2("/VatCodes")).status).toBe(200);
    const r = await calls(() => save(t, { vat: { "15": { salesAccount: 3030 } } }));
    expect([r.value.status, r.calls]).toEqual([200, 0]);
  });
});

describe("mapping check: error", () => {
  it("refuses an account the chart lacks with a 422 naming the field, and stores nothing", async () => {
    const t = await tenant();
    const res = await save(t, { settlementAccount: 1921, vat: { "12": { salesAccount: 3020 } } });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    const body = (await res.json()) as ProblemBody;
    expect(body.errors).toEqual([
      {
        path: "settlementAccount",
        message: "account 1921 is not in the client's chart of accounts",
      },
    ]);
    expect((await stored(t)).settlementAccount).toBeNull();
  });

  it("lists every field at fault: missing accounts and a sales account of another VAT rate", async () => {
    const t = await tenant();
    const res = await save(t, {
      vat: { "25": { salesAccount: 3999 }, "15": { salesAccount: 3000 } },
      roundingAccount: 3000,
    });
    expect(res.status).toBe(422);
    const { errors } = (await res.json()) as ProblemBody;
    const byPath = new Map(errors?.map((e) => [e.path, e.message]));
    expect([...byPath.keys()].sort()).toEqual([
      "roundingAccount",
      "vat.15.salesAccount",
      "vat.25.salesAccount",
    ]);
    expect(byPath.get("vat.25.salesAccount")).toBe(
      "account 3999 is not in the client's chart of accounts",
    );
    expect(byPath.get("vat.15.salesAccount")).toMatch(/account 3000 has VAT code 3 \(25 %\).*15 %/);
    expect(byPath.get("roundingAccount")).toMatch(/the rounding product needs a 0 % code/);
    expect((await stored(t)).vat["25"]?.salesAccount).toBe(3000);
  });

  it("says so when the API cannot be reached, and stores nothing", async () => {
    const t = await tenant();
    await control("PUT", "/settings", {
      faults: [
        { kind: "error", target: "api", path: "/GeneralLedgerAccounts", status: 500, count: 1 },
      ],
    });
    const res = await save(t, { settlementAccount: 1900 });
    expect(res.status).toBe(502);
    expect(((await res.json()) as ProblemBody).type).toMatch(/upstream-failed$/);
    expect((await stored(t)).settlementAccount).toBeNull();
  });

  it("a dropped connection is the usual 502, and nothing is stored", async () => {
    const t = await tenant();
    await control("PUT", "/settings", {
      faults: [{ kind: "drop", target: "api", path: "/VatCodes", count: 1 }],
    });
    const res = await save(t, { vat: { zero: { salesAccount: 3200 } } });
    expect(res.status).toBe(502);
    expect((await stored(t)).vat["zero"]?.salesAccount).toBe(3100);
    // The chart's read was kept; only the VAT codes are read again.
    const again = await calls(() => save(t, { vat: { zero: { salesAccount: 3200 } } }));
    expect([again.value.status, again.calls]).toEqual([200, 1]);
    expect((await stored(t)).vat["zero"]?.salesAccount).toBe(3200);
  });

  it("checks the clearing and payout accounts it names, and the fees' VAT code", async () => {
    const t = await tenant();
    const res = await save(t, {
      clearingAccounts: { stripe: 1999 },
      payouts: { feeAccount: 7771, feeVatCode: "99", disputeAccount: 7830 },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ProblemBody).errors).toEqual([
      {
        path: "clearingAccounts.stripe",
        message: "account 1999 is not in the client's chart of accounts",
      },
      {
        path: "payouts.feeAccount",
        message: "account 7771 is not in the client's chart of accounts",
      },
      { path: "payouts.feeVatCode", message: "the client has no VAT code 99" },
    ]);
  });

  it("switching to clearing accounts by source checks the clearing account of every source the tenant takes webhooks from", async () => {
    const t = await tenant();
    for (const no of [1903, 1904]) {
      const [a] = (await (await t.v2(`/GeneralLedgerAccounts?accountNos=${no}`)).json()) as {
        Id: number;
      }[];
      expect((await t.v2(`/GeneralLedgerAccounts/${a?.Id}`, { method: "DELETE" })).status).toBe(
        200,
      );
    }
    const secret = json(
      { secret: `whsec_${btoa("a-standard-secret-of-32-bytes!!!")}` },
      "PUT",
      ADMIN,
    );
    expect((await gw(`/admin/tenants/demo/${t.client}/webhooks/standard`, secret)).status).toBe(
      204,
    );
    const res = await save(t, { settlementAccount: null, clearingBy: "source" });
    expect(res.status).toBe(422);
    // Stripe's 1903 is missing too, but the tenant takes no Stripe webhooks.
    expect(((await res.json()) as ProblemBody).errors).toEqual([
      {
        path: "clearingAccounts.standard",
        message: "account 1904 is not in the client's chart of accounts",
      },
    ]);
    expect(
      (
        await save(t, {
          settlementAccount: null,
          clearingBy: "source",
          clearingAccounts: { standard: 1901 },
        })
      ).status,
    ).toBe(200);
  });

  it("switching to clearing by provider checks every provider's account for a shop source, Stripe's alone for Stripe", async () => {
    const t = await tenant();
    const [a] = (await (await t.v2("/GeneralLedgerAccounts?accountNos=1907")).json()) as {
      Id: number;
    }[];
    expect((await t.v2(`/GeneralLedgerAccounts/${a?.Id}`, { method: "DELETE" })).status).toBe(200);
    const setSecret = async (source: string, secret: string) =>
      expect(
        (
          await gw(
            `/admin/tenants/demo/${t.client}/webhooks/${source}`,
            json({ secret }, "PUT", ADMIN),
          )
        ).status,
      ).toBe(204);
    await setSecret("stripe", "whsec_a-stripe-secret-of-enough-length");
    // Stripe pays out its own orders whatever the method: Klarna's 1907 is not needed.
    expect((await save(t, { clearingBy: "provider" })).status).toBe(200);
    await setSecret("standard", `whsec_${btoa("a-standard-secret-of-32-bytes!!!")}`);
    const res = await save(t, { clearingBy: "provider" });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ProblemBody).errors).toEqual([
      {
        path: "providerAccounts.klarna",
        message: "account 1907 is not in the client's chart of accounts",
      },
    ]);
    expect(
      (await save(t, { clearingBy: "provider", providerAccounts: { klarna: 1904 } })).status,
    ).toBe(200);
  });

  it("an unknown tenant is still a 404", async () => {
    const res = await gw(
      "/admin/tenants/demo/no-such-client/order-mapping",
      json({ settlementAccount: 1900 }, "PUT", ADMIN),
    );
    expect(res.status).toBe(404);
  });
});

describe("mapping check: console", () => {
  it("the form shows the refusal beside the field and stores nothing", async () => {
    const t = await tenant();
    const s = await signIn();
    const res = await s.post(`/console/tenants/demo/${t.client}/order-mapping`, {
      settlementAccount: "1921",
    });
    const { html } = await follow(s, res);
    expect(html).toContain("Settlement account");
    expect(html).toContain("account 1921 is not in the client&#39;s chart of accounts");
    expect((await stored(t)).settlementAccount).toBeNull();
  });
});
