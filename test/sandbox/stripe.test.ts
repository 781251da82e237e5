/**
 * The sandbox's stand-in of Stripe's API (`sandbox/src/routes/stripe-api.ts`): its own keys, an
 * automatic payout that takes every transaction not yet paid out, balance transactions listed
 * newest first with real cursor paging and sources expanded on request, Stripe's 401 for a missing
 * or wrong key, Stripe's words for a manual payout's filter, and ids matched as sent.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { call, control, fresh } from "./helpers";

type Json = Record<string, unknown>;

beforeEach(() => fresh());

/** A stand-in account with its restricted key. */
async function account() {
  return control<{ account: string; key: string }>("POST", "/stripe/accounts", {}, 201);
}

/** `GET` of the stand-in with `key`. */
const stripe = (path: string, key: string | null, headers: Record<string, string> = {}) =>
  call(path, { headers: key ? { authorization: `Bearer ${key}`, ...headers } : headers });

/** Every transaction of payout `po`, read page by page with `limit`; the pages' sizes too. */
async function walk(key: string, po: string, limit: number) {
  const ids: string[] = [];
  const sizes: number[] = [];
  let after: string | null = null;
  for (;;) {
    const q = new URLSearchParams({ payout: po, limit: String(limit) });
    if (after) q.set("starting_after", after);
    const res = await stripe(`/v1/balance_transactions?${q}`, key);
    expect(res.status, await res.clone().text()).toBe(200);
    const page = (await res.json()) as { data: Json[]; has_more: boolean };
    sizes.push(page.data.length);
    ids.push(...page.data.map((t) => String(t.id)));
    if (!page.has_more) return { ids, sizes };
    after = String(page.data.at(-1)?.id);
  }
}

describe("Stripe stand-in: payouts and their transactions", () => {
  it("an automatic payout holds every transaction not yet paid out; its amount is their net", async () => {
    const a = await account();
    const made = await control<{ charges: { charge: string; paymentIntent: string }[] }>(
      "POST",
      `/stripe/accounts/${a.account}/charges`,
      {
        charges: [
          { amount: 100_000, fee: 2_600, paymentIntent: "pi_3ABCdef" },
          { amount: 50_000, fee: 1_400 },
        ],
      },
      201,
    );
    const [first] = made.charges;
    expect(first?.paymentIntent).toBe("pi_3ABCdef");
    await control(
      "POST",
      `/stripe/accounts/${a.account}/refunds`,
      { charge: first?.charge, amount: 20_000 },
      201,
    );
    await control("POST", `/stripe/accounts/${a.account}/fees`, { amount: 300 }, 201);
    const po = await control<Json>(
      "POST",
      `/stripe/accounts/${a.account}/payouts`,
      { arrivalDate: "2026-11-20" },
      201,
    );
    // 100 000 − 2 600 + 50 000 − 1 400 − 20 000 − 300
    expect(po).toMatchObject({
      object: "payout",
      amount: 125_700,
      automatic: true,
      method: "standard",
      status: "paid",
      reconciliation_status: "completed",
      arrival_date: Date.UTC(2026, 10, 20) / 1000,
    });
    const read = await stripe(`/v1/payouts/${String(po.id)}`, a.key);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(po);

    const res = await stripe(
      `/v1/balance_transactions?payout=${String(po.id)}&limit=100&expand[]=data.source`,
      a.key,
    );
    const list = (await res.json()) as { object: string; data: Json[]; has_more: boolean };
    expect(list).toMatchObject({ object: "list", has_more: false });
    // Newest first: the payout's own, the fee, the refund, the two charges.
    expect(list.data.map((t) => [t.reporting_category, t.amount, t.fee, t.net])).toEqual([
      ["payout", -125_700, 0, -125_700],
      ["fee", -300, 0, -300],
      ["refund", -20_000, 0, -20_000],
      ["charge", 50_000, 1_400, 48_600],
      ["charge", 100_000, 2_600, 97_400],
    ]);
    const [own, , refundTxn, , charge] = list.data;
    expect(own?.source).toMatchObject({ id: po.id, object: "payout" });
    expect(refundTxn?.source).toMatchObject({
      object: "refund",
      charge: first?.charge,
      payment_intent: "pi_3ABCdef",
    });
    expect(charge?.source).toMatchObject({ object: "charge", payment_intent: "pi_3ABCdef" });
    // Unexpanded, a source is its id.
    const plain = (await (
      await stripe(`/v1/balance_transactions?payout=${String(po.id)}`, a.key)
    ).json()) as { data: Json[] };
    expect(typeof plain.data[0]?.source).toBe("string");

    // The next automatic payout holds only what came since.
    await control(
      "POST",
      `/stripe/accounts/${a.account}/charges`,
      { charges: [{ amount: 9_000, fee: 200 }] },
      201,
    );
    const next = await control<Json>("POST", `/stripe/accounts/${a.account}/payouts`, {}, 201);
    expect(next.amount).toBe(8_800);
  });

  it("pages with has_more and starting_after: every transaction once, in order, whatever the limit", async () => {
    const a = await account();
    await control(
      "POST",
      `/stripe/accounts/${a.account}/charges`,
      { charges: Array.from({ length: 104 }, () => ({ amount: 1_000, fee: 10 })) },
      201,
    );
    const po = await control<Json>("POST", `/stripe/accounts/${a.account}/payouts`, {}, 201);
    const full = await walk(a.key, String(po.id), 100);
    expect(full.sizes).toEqual([100, 5]);
    expect(new Set(full.ids).size).toBe(105);
    const small = await walk(a.key, String(po.id), 7);
    expect(small.ids).toEqual(full.ids);
    expect(small.sizes).toHaveLength(15);
    // A limit Stripe does not take, and a cursor it does not know.
    for (const q of ["limit=0", "limit=101", "limit=ten", "starting_after=txn_nope"]) {
      const res = await stripe(`/v1/balance_transactions?payout=${String(po.id)}&${q}`, a.key);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: Json }).error.type).toBe("invalid_request_error");
    }
  });
});

describe("Stripe stand-in: refusals, in Stripe's shapes", () => {
  it("no key, a wrong key, another account's key: 401 or 404, the key masked", async () => {
    const a = await account();
    const b = await account();
    const po = await control<Json>(
      "POST",
      `/stripe/accounts/${a.account}/payouts`,
      { automatic: false, amount: 5_000 },
      201,
    );
    const none = await stripe(`/v1/payouts/${String(po.id)}`, null);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: Json }).error).toMatchObject({
      type: "invalid_request_error",
      message: expect.stringMatching(/did not provide an API key/),
    });
    const wrong = "rk_test_Wrong0000000000000000000001234";
    const refused = await stripe(`/v1/payouts/${String(po.id)}`, wrong);
    expect(refused.status).toBe(401);
    const message = String(((await refused.json()) as { error: Json }).error.message);
    expect(message).toMatch(/^Invalid API Key provided: rk_test_\*+1234$/);
    expect(message).not.toContain("Wrong0");
    // Another account's key opens its own account only.
    const other = await stripe(`/v1/payouts/${String(po.id)}`, b.key);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: Json }).error).toMatchObject({
      code: "resource_missing",
    });
    // Ids are matched as sent: the same id lower-cased is another (unknown) payout.
    const lower = await stripe(`/v1/payouts/${String(po.id).toLowerCase()}`, a.key);
    expect(lower.status).toBe(404);
  });

  it("a manual or instant payout's transactions cannot be listed: Stripe's own message", async () => {
    const a = await account();
    await control(
      "POST",
      `/stripe/accounts/${a.account}/charges`,
      { charges: [{ amount: 10_000, fee: 300 }] },
      201,
    );
    for (const body of [
      { automatic: false, amount: 9_700 },
      { method: "instant", amount: 9_700 },
    ]) {
      const po = await control<Json>("POST", `/stripe/accounts/${a.account}/payouts`, body, 201);
      expect(po.reconciliation_status).toBe("not_applicable");
      const res = await stripe(`/v1/balance_transactions?payout=${String(po.id)}`, a.key);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: {
          type: "invalid_request_error",
          message:
            "Balance transaction history can only be filtered on automatic transfers, not manual.",
          param: "payout",
        },
      });
    }
  });

  it("counts its calls, by path and by the Stripe-Version pinned, refusals apart", async () => {
    const a = await account();
    const po = await control<Json>(
      "POST",
      `/stripe/accounts/${a.account}/payouts`,
      { automatic: false, amount: 100 },
      201,
    );
    await stripe(`/v1/payouts/${String(po.id)}`, a.key, { "stripe-version": "2025-03-31.basil" });
    await stripe(`/v1/balance_transactions?payout=${String(po.id)}`, a.key);
    await stripe("/v1/balance_transactions", "rk_test_nobody00000000");
    expect(await control("GET", "/stripe/stats")).toEqual({
      requests: 3,
      refused: 1,
      byPath: { "/v1/payouts/{id}": 1, "/v1/balance_transactions": 2 },
      versions: { "2025-03-31.basil": 1 },
    });
  });
});
