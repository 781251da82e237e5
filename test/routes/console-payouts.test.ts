/**
 * The console's payouts (`src/routes/console/payout-routes.tsx`): the accounts the mapping posts
 * to, each present in the client's chart or created at the operator's word; why to switch while a
 * tenant settles to one account; a payout that does not match, named, with its Retry.
 */
import { env } from "cloudflare:workers";
import { introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { payoutPaid } from "../fixtures/orders/payouts";
import { follow, signIn } from "../helpers/console";
import { ADMIN, gw } from "../helpers/gateway";
import { shopTenant, type ShopTenant } from "../helpers/orders";

const accountNos = async (t: ShopTenant, no: number) =>
  (await t.rows(`/GeneralLedgerAccounts?accountNos=${no}`)).map((a) => [a.AccountNo, a.VatCode]);

describe("console: payouts", () => {
  it("lists the accounts the mapping posts to; a missing one is created through the API, with VAT code 0", async () => {
    const t = await shopTenant();
    const [a] = await t.rows("/GeneralLedgerAccounts?accountNos=1904");
    expect((await t.v2(`/GeneralLedgerAccounts/${a?.Id}`, { method: "DELETE" })).status).toBe(200);
    const s = await signIn();
    const at = `/console/tenants/demo/${t.client}/payouts`;
    const page = await s.page(at);
    expect(page).toContain("clearing account, shopify");
    expect(page).toContain("Create 1904 Mellomregning nettbutikk");
    expect(page).not.toContain("Create 1901");
    // No note while the tenant settles to its clearing accounts.
    expect(page).not.toContain("one account for every source");

    const created = await follow(s, await s.post(`${at}/accounts`, { accountNo: "1904" }));
    expect(created.location).toBe(`${at}#accounts`);
    expect(created.html).toContain("Account 1904 Mellomregning nettbutikk created");
    expect(created.html).not.toContain("Create 1904");
    expect(await accountNos(t, 1904)).toEqual([[1904, "0"]]);

    // Only an account the mapping posts to: the form is not a way to edit the chart.
    const refused = await follow(s, await s.post(`${at}/accounts`, { accountNo: "4000" }));
    expect(refused.html).toContain("Account 4000 is not one the order mapping posts to");
  });

  it("says why to switch while the tenant settles to one account, and the mapping's form switches it", async () => {
    const t = await shopTenant({ settlementAccount: 1920 });
    const s = await signIn();
    expect(await s.page(`/console/tenants/demo/${t.client}/payouts`)).toContain(
      "Paid orders settle to account 1920, one account for every source.",
    );
    const tenantPage = await s.page(`/console/tenants/demo/${t.client}`);
    expect(tenantPage).toContain("the bank account never matches the statement");
    expect(tenantPage).toContain('name="settlementAccount" value="1920"');
    // Emptied: each source's clearing account, not the tenant's default (1920 here).
    await follow(
      s,
      await s.post(`/console/tenants/demo/${t.client}/order-mapping`, { settlementAccount: "" }),
    );
    const mapping = await gw(`/admin/tenants/demo/${t.client}/order-mapping`, { headers: ADMIN });
    expect(((await mapping.json()) as { settlementAccount: unknown }).settlementAccount).toBeNull();
    expect(await s.page(`/console/tenants/demo/${t.client}`)).not.toContain(
      "the bank account never matches the statement",
    );
  });

  it("a payout that does not match: listed as unmatched, its issue named on its page, its Retry starts it again", async () => {
    const t = await shopTenant();
    {
      await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
      const event = payoutPaid("po_c1", [{ type: "charge", orderId: "o-404", amount: "10.00" }]);
      expect((await t.send("standard", event)).status).toBe(202);
      for (const i of await intro.get()) await i.waitForStatus("complete");
    }
    const s = await signIn();
    const list = await s.page(`/console/tenants/demo/${t.client}/payouts?state=unmatched`);
    expect(list).toContain(`href="/console/tenants/demo/${t.client}/payouts/standard/po_c1"`);
    const at = `/console/tenants/demo/${t.client}/payouts/standard/po_c1`;
    const page = await s.page(at);
    expect(page).toContain("line 0: no standard order o-404 has reached this tenant");
    expect(page).toContain(`action="${at}/retry"`);
    await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
    const retried = await s.post(`${at}/retry`);
    expect([retried.status, retried.headers.get("location")]).toEqual([303, at]);
    for (const i of await intro.get()) await i.waitForStatus("complete");
    expect(await s.page(at)).toMatch(/<dt>Attempt<\/dt><dd>2<\/dd>/);
    const other = await shopTenant();
    expect(
      (await s.get(`/console/tenants/demo/${other.client}/payouts/standard/po_c1`)).status,
    ).toBe(404);
  });
});
