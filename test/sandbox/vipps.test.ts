/**
 * The sandbox's stand-in of Vipps MobilePay's Report API (`sandbox/src/routes/vipps-api.ts`): a
 * sales unit's keys for a 24-hour token whose fields are all strings, the merchant's ledger, a
 * date that answers `tryLater` until it closes, net settlement's fees retained and gross's left for
 * the invoice, a balance that is not positive carried with no payout, cursor paging, entry types
 * passed through as given, and the 401 and 404 of wrong keys and ledgers.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { call, control, fresh } from "./helpers";

interface Merchant {
  merchantSerialNumber: string;
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
  ledgerId: string;
}
interface Row {
  entryType: string;
  reference: string;
  amount: number;
  balanceBefore: number;
  balanceAfter: number;
  pspReference: string;
  ledgerDate: string;
}
interface Page {
  items: Row[];
  tryLater?: boolean;
  hasMore?: boolean;
  cursor?: string;
}

beforeEach(async () => {
  await fresh();
  await control("POST", "/vipps/reset", undefined, 204);
});

const merchant = (settlement: "net" | "gross" = "net", feeBasisPoints = 200) =>
  control<Merchant>("POST", "/vipps/merchants", { settlement, feeBasisPoints }, 201);

async function token(m: Merchant, secret = m.clientSecret) {
  return call("/accesstoken/get", {
    method: "POST",
    headers: {
      client_id: m.clientId,
      client_secret: secret,
      "Ocp-Apim-Subscription-Key": m.subscriptionKey,
      "Merchant-Serial-Number": m.merchantSerialNumber,
    },
  });
}

async function reader(m: Merchant) {
  const t = (await (await token(m)).json()) as { access_token: string };
  return async (path: string) => {
    const res = await call(path, {
      headers: {
        authorization: `Bearer ${t.access_token}`,
        "Ocp-Apim-Subscription-Key": m.subscriptionKey,
      },
    });
    return { status: res.status, body: (await res.json()) as Page & Record<string, unknown> };
  };
}

const entries = (m: Merchant, date: string, body: unknown) =>
  control("POST", `/vipps/ledgers/${m.ledgerId}/dates/${date}/entries`, body, 201);
const close = (m: Merchant, date: string) =>
  control<{ payout: { pspReference: string; amount: number } | null; balanceAfter: number }>(
    "POST",
    `/vipps/ledgers/${m.ledgerId}/dates/${date}/close`,
  );
const funds = (m: Merchant, date: string) => `/report/v2/ledgers/${m.ledgerId}/funds/dates/${date}`;

describe("Vipps stand-in: keys and ledgers", () => {
  it("answers a 24-hour token with every field a string, and 401 to a wrong secret", async () => {
    const m = await merchant();
    const res = await token(m);
    expect(res.status).toBe(200);
    const t = (await res.json()) as Record<string, unknown>;
    expect(t.token_type).toBe("Bearer");
    expect(t.expires_in).toBe("86400");
    for (const v of Object.values(t)) expect(typeof v).toBe("string");
    expect((await token(m, "wrong")).status).toBe(401);
  });

  it("lists the merchant's ledger for its handle, and refuses another's token", async () => {
    const m = await merchant();
    const other = await merchant();
    const read = await reader(m);
    const mine = await read(
      `/settlement/v1/ledgers?settlesForRecipientHandles=api:${m.merchantSerialNumber}`,
    );
    expect(mine.status).toBe(200);
    expect(mine.body.items).toMatchObject([
      { ledgerId: m.ledgerId, currency: "NOK", payoutBankAccount: { scheme: "BBAN:NO" } },
    ]);
    const theirs = await read(
      `/settlement/v1/ledgers?settlesForRecipientHandles=api:${other.merchantSerialNumber}`,
    );
    expect(theirs.body.items).toEqual([]);
    expect((await read(funds(other, "2026-11-02"))).status).toBe(404);
    const none = await call(funds(m, "2026-11-02"));
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      code: "Unauthorized",
      message: "Please check your API keys",
    });
  });
});

describe("Vipps stand-in: a ledger date", () => {
  it("answers tryLater until the date closes, then rows with running balances and the payout", async () => {
    const m = await merchant("net", 200);
    const read = await reader(m);
    await entries(m, "2026-11-02", {
      captures: [
        { reference: "1001", amount: 50_000 },
        { reference: "1002", amount: 30_000 },
      ],
      refunds: [{ reference: "0999", amount: 10_000 }],
    });
    expect((await read(funds(m, "2026-11-02"))).body).toEqual({ items: [], tryLater: true });
    const closed = await close(m, "2026-11-02");
    // 50,000 + 30,000 − 10,000 − fees 1,000 + 600.
    expect(closed.payout).toEqual({ pspReference: `${m.ledgerId}-1`, amount: 68_400 });
    const page = await read(funds(m, "2026-11-02"));
    expect(page.body.tryLater).toBe(false);
    expect(page.body.items.map((r) => [r.entryType, r.amount, r.balanceAfter])).toEqual([
      ["capture", 50_000, 50_000],
      ["capture", 30_000, 80_000],
      ["refund", -10_000, 70_000],
      ["fees-retained", -1_600, 68_400],
      ["payout-scheduled", -68_400, 0],
    ]);
    const fees = await read(`/report/v2/ledgers/${m.ledgerId}/fees/dates/2026-11-02`);
    expect(fees.body.items.map((r) => [r.entryType, r.amount])).toEqual([
      ["capture-fee", -1_000],
      ["capture-fee", -600],
      ["fees-retained", 1_600],
    ]);
    await control("POST", `/vipps/ledgers/${m.ledgerId}/dates/2026-11-02/close`, undefined, 409);
    await control(
      "POST",
      `/vipps/ledgers/${m.ledgerId}/dates/2026-11-01/entries`,
      { captures: [{ reference: "x", amount: 1 }] },
      409,
    );
  });

  it("gross settlement pays out captures less refunds and leaves the fees for the invoice", async () => {
    const m = await merchant("gross", 200);
    const read = await reader(m);
    await entries(m, "2026-11-02", {
      captures: [{ reference: "1001", amount: 50_000 }],
      refunds: [{ reference: "0999", amount: 5_000 }],
    });
    expect((await close(m, "2026-11-02")).payout?.amount).toBe(45_000);
    const rows = (await read(funds(m, "2026-11-02"))).body.items;
    expect(rows.map((r) => r.entryType)).toEqual(["capture", "refund", "payout-scheduled"]);
    const fees = (await read(`/report/v2/ledgers/${m.ledgerId}/fees/dates/2026-11-02`)).body.items;
    expect(fees.map((r) => [r.entryType, r.amount, r.balanceAfter])).toEqual([
      ["capture-fee", -1_000, -1_000],
    ]);
  });

  it("carries a negative balance with no payout, and the next date's payout repays it", async () => {
    const m = await merchant("net", 0);
    const read = await reader(m);
    await entries(m, "2026-11-02", { refunds: [{ reference: "0999", amount: 20_000 }] });
    expect(await close(m, "2026-11-02")).toMatchObject({ payout: null, balanceAfter: -20_000 });
    await entries(m, "2026-11-03", {
      captures: [{ reference: "1001", amount: 50_000 }],
      entries: [{ entryType: "interest-credited", amount: 7 }],
    });
    expect((await close(m, "2026-11-03")).payout?.amount).toBe(30_007);
    const rows = (await read(funds(m, "2026-11-03"))).body.items;
    expect(rows[0]?.balanceBefore).toBe(-20_000);
    expect(rows.map((r) => r.entryType)).toEqual([
      "capture",
      "interest-credited",
      "payout-scheduled",
    ]);
  });

  it("adds an entry of a type not documented every so many dates, when asked", async () => {
    const m = await control<Merchant>(
      "POST",
      "/vipps/merchants",
      { settlement: "gross", feeBasisPoints: 0, surpriseEvery: 2 },
      201,
    );
    const read = await reader(m);
    const types = [];
    for (const date of ["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05"]) {
      await entries(m, date, { captures: [{ reference: date, amount: 100 }] });
      await close(m, date);
      types.push((await read(funds(m, date))).body.items.map((r) => r.entryType).join(" "));
    }
    expect(types).toEqual([
      "capture payout-scheduled",
      "capture interest-credited payout-scheduled",
      "capture payout-scheduled",
      "capture interest-credited payout-scheduled",
    ]);
  });

  it("pages a date's rows by cursor", async () => {
    const m = await merchant("gross", 0);
    const read = await reader(m);
    const captures = Array.from({ length: 7 }, (_, i) => ({ reference: `r${i}`, amount: 100 + i }));
    await entries(m, "2026-11-02", { captures });
    await close(m, "2026-11-02");
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 5; n++) {
      const q = new URLSearchParams({ pageSize: "3", ...(cursor ? { cursor } : {}) });
      const page = (await read(`${funds(m, "2026-11-02")}?${q}`)).body;
      seen.push(...page.items.map((r) => r.reference));
      if (!page.hasMore) break;
      cursor = page.cursor;
    }
    expect(seen).toEqual([...captures.map((c) => c.reference), "Vipps MobilePay 2026-11-02"]);
    expect((await read(`${funds(m, "2026-11-02")}?pageSize=5000`)).status).toBe(400);
  });
});
