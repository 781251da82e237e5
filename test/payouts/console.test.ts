/**
 * The console's payouts (`src/payouts/console-routes.tsx`): the accounts the mapping posts
 * to, each present in the client's chart or created at the operator's word; why to switch while a
 * tenant settles to one account; a payout that does not match, named, with its Retry; a payout that
 * pays out no order, with its Confirm and book, which books it on the operator's word.
 */
import { env } from "cloudflare:workers";
import { introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { payoutPaid, plainOrder } from "../fixtures/orders/payouts";
import { follow, signIn } from "../helpers/console";
import { ADMIN, control, gw } from "../helpers/gateway";
import { shopTenant, type ShopTenant } from "../helpers/orders";

const accountNos = async (t: ShopTenant, no: number) =>
  (await t.rows(`/GeneralLedgerAccounts?accountNos=${no}`)).map((a) => [a.AccountNo, a.VatCode]);

describe("console: payouts", () => {
  it("lists the accounts the mapping posts to; a missing one is created through the API, with VAT code 0", async () => {
    const t = await shopTenant();
    const [a] = await t.rows("/GeneralLedgerAccounts?accountNos=1910");
    expect((await t.v2(`/GeneralLedgerAccounts/${a?.Id}`, { method: "DELETE" })).status).toBe(200);
    const s = await signIn();
    const at = `/console/tenants/demo/${t.client}/payouts`;
    const page = await s.page(at);
    expect(page).toContain("clearing account, vipps");
    expect(page).toContain("Create 1910 Mellomregning andre betalinger");
    expect(page).not.toContain("Create 1906");
    // No note while the tenant settles to its clearing accounts.
    expect(page).not.toContain("one account for every source");

    const created = await follow(s, await s.post(`${at}/accounts`, { accountNo: "1910" }));
    expect(created.location).toBe(`${at}#accounts`);
    expect(created.html).toContain("Account 1910 Mellomregning andre betalinger created");
    expect(created.html).not.toContain("Create 1910");
    expect(await accountNos(t, 1910)).toEqual([[1910, "0"]]);

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

  it("shows what each provider's clearing account holds by the tenant's records, and how each order was paid", async () => {
    const t = await shopTenant();
    const s = await signIn();
    const at = `/console/tenants/demo/${t.client}/payouts`;
    expect(await s.page(at)).toMatch(
      /What the clearing accounts hold<\/h2><p>[^<]*<\/p><p>Nothing.<\/p>/,
    );
    {
      await using intro = await introspectWorkflow(env.ORDER_TO_INVOICE);
      for (const [id, total] of [
        ["h-1", "300.00"],
        ["h-2", "100.00"],
      ] as const) {
        const o = plainOrder(id, total);
        const e = { ...o, data: { ...(o.data as object), paymentMethod: "vipps" } };
        expect((await t.send("standard", e)).status).toBe(202);
      }
      for (const i of await intro.get()) await i.waitForStatus("complete");
    }
    const page = await s.page(at);
    // Paid on 2026-03-01 (the fixture's day), so due long since.
    expect(page).toContain(
      "<td>1906</td><td>vipps</td><td>2 orders, 400.00 NOK</td><td>2 orders, 400.00 NOK</td>",
    );
    const order = await s.page(`/console/tenants/demo/${t.client}/orders/standard/h-1`);
    expect(order).toContain("<dt>Paid with</dt><dd>vipps: paid out by vipps, waits in 1906</dd>");
  });

  it("the Stripe key: set from the payouts page and never shown again, a secret key refused with the reason and not echoed, and forgotten", async () => {
    const t = await shopTenant();
    const s = await signIn();
    const at = `/console/tenants/demo/${t.client}/payouts`;
    expect(await s.page(at)).toContain("No Stripe key is set");
    const secret = `sk_live_${"C3".repeat(16)}`;
    const refused = await follow(s, await s.post(`${at}/stripe-key`, { key: secret }));
    expect(refused.location).toBe(`${at}#stripe`);
    expect(refused.html).toContain("This is a secret key (sk_…), which can move money.");
    expect(refused.html).not.toContain(secret);
    expect(refused.html).toContain("No Stripe key is set");

    const key = `rk_live_${"D4".repeat(16)}`;
    const set = await follow(s, await s.post(`${at}/stripe-key`, { key }));
    expect(set.html).toContain("The Stripe key is set.");
    expect(set.html).toContain("A Stripe key is set (live mode)");
    expect(set.html).not.toContain(key);
    expect(set.html).not.toContain(key.slice(-8));
    const state = await gw(`/admin/tenants/demo/${t.client}/stripe-key`, { headers: ADMIN });
    expect(await state.json()).toMatchObject({ set: true, mode: "live" });

    const removed = await follow(s, await s.post(`${at}/stripe-key/remove`));
    expect(removed.html).toContain("The Stripe key is forgotten.");
    expect(removed.html).toContain("No Stripe key is set");
    const after = await gw(`/admin/tenants/demo/${t.client}/stripe-key`, { headers: ADMIN });
    expect(await after.json()).toEqual({ set: false, mode: null, setAt: null });
  });

  it("Vipps: keys set from the payouts page and never shown, Read now reads the closed date, its payout linked; a bad form is refused with the reason", async () => {
    const t = await shopTenant();
    {
      await using intro = await introspectWorkflow(env.ORDER_TO_INVOICE);
      const o = plainOrder("vc-1", "200.00");
      const e = { ...o, data: { ...(o.data as object), paymentMethod: "vipps" } };
      expect((await t.send("standard", e)).status).toBe(202);
      for (const i of await intro.get()) await i.waitForStatus("complete");
    }
    const m = await control<Record<string, string>>("POST", "/vipps/merchants", {}, 201);
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await control(
      "POST",
      `/vipps/ledgers/${m.ledgerId}/dates/${day}/entries`,
      { captures: [{ reference: "vc-1", amount: 200_00 }] },
      201,
    );
    const closed = await control<{ payout: { pspReference: string } }>(
      "POST",
      `/vipps/ledgers/${m.ledgerId}/dates/${day}/close`,
    );
    const s = await signIn();
    const at = `/console/tenants/demo/${t.client}/payouts`;
    expect(await s.page(at)).toContain("No Vipps keys are set");
    const form = {
      clientId: m.clientId ?? "",
      clientSecret: m.clientSecret ?? "",
      subscriptionKey: m.subscriptionKey ?? "",
      merchantSerialNumber: m.merchantSerialNumber ?? "",
      orderSource: "standard",
      referencePrefix: "",
      since: day,
    };
    const bad = await follow(
      s,
      await s.post(`${at}/vipps`, { ...form, merchantSerialNumber: "x" }),
    );
    expect(bad.location).toBe(`${at}#vipps`);
    expect(bad.html).toContain(
      "merchantSerialNumber: the merchant serial number (MSN) is 4 to 10 digits",
    );
    expect(bad.html).not.toContain(form.clientSecret);

    const set = await follow(s, await s.post(`${at}/vipps`, form));
    expect(set.html).toContain("The Vipps keys are set");
    expect(set.html).toContain(`Keys of sales unit ${form.merchantSerialNumber} are set`);
    for (const secret of [form.clientSecret, form.subscriptionKey])
      expect(set.html).not.toContain(secret);

    let read: Awaited<ReturnType<typeof follow>>;
    {
      await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
      read = await follow(s, await s.post(`${at}/vipps/read`));
      for (const i of await intro.get()) await i.waitForStatus("complete");
    }
    expect(read.html).toContain("Read 1 dates; 1 payouts found.");
    expect(read.html).toContain(`Ledger ${m.ledgerId} (NOK)`);
    expect(read.html).toContain(`href="${at}/vipps/${closed.payout.pspReference}"`);
    const payout = await s.page(`${at}/vipps/${closed.payout.pspReference}`);
    expect(payout).toContain("<dt>Read from Vipps</dt>");
    expect(payout).toContain("booked");

    const removed = await follow(s, await s.post(`${at}/vipps/remove`));
    expect(removed.html).toContain("The Vipps keys are forgotten");
    expect(removed.html).toContain("No Vipps keys are set");
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
    // Held for a missing order, not for paying out none: nothing for the operator to confirm.
    expect(page).not.toContain(`action="${at}/confirm"`);
    expect((await s.post(`${at}/confirm`)).status).toBe(409);
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

  it("a payout that pays out no order: its page offers Confirm and book, which posts with the session's CSRF and books it as one voucher", async () => {
    const t = await shopTenant();
    {
      await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
      const event = payoutPaid("po_c2", [{ type: "adjustment", amount: "250.00" }]);
      expect((await t.send("standard", event)).status).toBe(202);
      for (const i of await intro.get()) await i.waitForStatus("complete");
    }
    const s = await signIn();
    const at = `/console/tenants/demo/${t.client}/payouts/standard/po_c2`;
    const page = await s.page(at);
    expect(page).toContain("no line is a charge or refund of a standard order of this tenant");
    expect(page).toContain(`action="${at}/confirm"`);
    expect(page).toContain("Confirm and book");
    expect(page).toContain("deposit of 250.00 NOK");
    // Without the session's CSRF token the form is refused and nothing starts.
    expect((await s.post(`${at}/confirm`, { csrf: "wrong" })).status).toBe(403);
    expect(await s.page(at)).toMatch(/<dt>Attempt<\/dt><dd>1<\/dd>/);

    await using intro = await introspectWorkflow(env.PAYOUT_RECONCILIATION);
    const confirmed = await s.post(`${at}/confirm`);
    expect([confirmed.status, confirmed.headers.get("location")]).toEqual([303, at]);
    const runs = await intro.get();
    expect(runs).toHaveLength(1);
    for (const i of runs) await i.waitForStatus("complete");
    const booked = await s.page(at);
    expect(booked).toMatch(/<dt>State<\/dt><dd>booked<\/dd>/);
    expect(booked).toMatch(/<dt>Confirmed without orders<\/dt><dd>by the operator, /);
    expect(booked).not.toContain(`action="${at}/confirm"`);
    const bank = await t.rows(
      "/AccountTransactions?accountNos=1920&fromDate=2000-01-01&toDate=2099-12-31",
    );
    expect(bank.map((r) => Number(r.Amount))).toEqual([250]);
  });
});
