/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import docs from "../../../docs/order-json.md?raw";
import { standard, standardKey } from "../../../src/orders/adapters/standard";
import { sign, TEST_SECRETS, toDelivery } from "../../fixtures/orders/sign";
import {
  corpus,
  standardCancelled,
  standardEvent,
  standardRefund,
} from "../../fixtures/orders/standard";
import { eventsOf, must, parseSigned, signatureSuite } from "./security";

const cases = corpus();
const mixed = must(cases.find((c) => c.name.includes("mixed VAT")));
const event = mixed.payload;
const data = event["data"] as Record<string, unknown>;
const exclusive = must(cases.find((c) => c.name.includes("tax-exclusive B2B"))).payload;
const secret = TEST_SECRETS.standard;
const T = 1_772_000_000;

signatureSuite("standard", event, "webhook-signature", { timestamp: T });

describe("standard verify", () => {
  it("returns webhook-id and webhook-timestamp", async () => {
    const result = await standard.verify(
      toDelivery(await sign("standard", event, secret, { eventId: "msg_2b8Yq", timestamp: T })),
      secret,
      T * 1000,
    );
    expect(result).toEqual({ ok: true, value: { eventId: "msg_2b8Yq", signedAt: T } });
  });

  it("takes a secret with or without the whsec_ prefix", async () => {
    const bare = secret.slice("whsec_".length);
    expect(standardKey(bare)).toEqual(standardKey(secret));
    expect(
      (
        await standard.verify(
          toDelivery(await sign("standard", event, secret, { timestamp: T })),
          bare,
          T * 1000,
        )
      ).ok,
    ).toBe(true);
    expect(
      await standard.verify(
        toDelivery(await sign("standard", event, secret, { timestamp: T })),
        "whsec_%%%",
        T * 1000,
      ),
    ).toMatchObject({ ok: false, error: { status: 401 } });
  });

  it("passes when any v1 signature matches, skipping other schemes", async () => {
    const signed = await sign("standard", event, secret, { timestamp: T });
    signed.headers["webhook-signature"] =
      `v1a,AAAA v1,${btoa("x".repeat(32))} ${must(signed.headers["webhook-signature"])}`;
    expect((await standard.verify(toDelivery(signed), secret, T * 1000)).ok).toBe(true);
  });

  it("refuses a timestamp more than 300 s old or ahead", async () => {
    const delivery = toDelivery(await sign("standard", event, secret, { timestamp: T }));
    expect((await standard.verify(delivery, secret, (T - 300) * 1000)).ok).toBe(true);
    expect(await standard.verify(delivery, secret, (T + 301) * 1000)).toEqual({
      ok: false,
      error: { status: 401, detail: expect.stringContaining("stale timestamp") },
    });
    expect(await standard.verify(delivery, secret, (T - 301) * 1000)).toMatchObject({
      ok: false,
      error: { status: 401 },
    });
  });

  it("refuses a changed webhook-id or timestamp (both are signed) and missing headers", async () => {
    const signed = await sign("standard", event, secret, { eventId: "msg_1", timestamp: T });
    expect(
      await standard.verify(
        toDelivery({ ...signed, headers: { ...signed.headers, "webhook-id": "msg_2" } }),
        secret,
        T * 1000,
      ),
    ).toMatchObject({ ok: false, error: { status: 401 } });
    expect(
      await standard.verify(
        toDelivery({
          ...signed,
          headers: { ...signed.headers, "webhook-timestamp": String(T + 1) },
        }),
        secret,
        T * 1000,
      ),
    ).toMatchObject({ ok: false, error: { status: 401 } });
    const { ["webhook-id"]: _id, ...noId } = signed.headers;
    expect(
      await standard.verify(toDelivery({ ...signed, headers: noId }), secret, T * 1000),
    ).toMatchObject({ ok: false, error: { status: 401 } });
  });
});

describe("standard parse", () => {
  it("maps order.paid", async () => {
    const [e] = await eventsOf("standard", event);
    if (e?.kind !== "paid") throw new Error("not paid");
    expect(e.order).toMatchObject({
      source: "standard",
      id: data["id"],
      number: data["number"],
      placedAt: data["placedAt"],
      paidAt: data["paidAt"],
      taxIncluded: true,
      total: mixed.expectedTotal,
    });
    expect(e.order.lines.map((l) => [l.ref, l.kind])).toEqual([
      ["L1", "item"],
      ["L2", "item"],
      ["L3", "item"],
      ["L4", "item"],
      ["S1", "shipping"],
      ["F1", "fee"],
    ]);
    expect(e.order.buyer.organizationNumber).toBe(mixed.orgNumber);
  });

  it("defaults paidAt to the event's timestamp", async () => {
    const { paidAt: _p, ...rest } = data;
    const [e] = await eventsOf("standard", { ...event, data: rest });
    expect(e?.kind === "paid" && e.order.paidAt).toBe(event["timestamp"]);
  });

  it("refuses bodies that are not JSON or not the documented shape with 400", async () => {
    const refused = async (body: unknown): Promise<string> => {
      const r = await parseSigned("standard", body);
      if (r.ok) throw new Error("accepted");
      expect(r.error.status).toBe(400);
      return r.error.detail;
    };
    expect(await refused("nope")).toBe("the body is not JSON");
    expect(await refused({ ...event, extra: 1 })).toContain("unknown field");
    expect(await refused({ ...event, data: { ...data, total: 1899.8 } })).toContain("total");
    expect(await refused({ ...event, data: { ...data, total: "1899.805" } })).toContain(
      "two decimals",
    );
    expect(
      await refused({
        ...event,
        data: { ...data, lines: [{ ...(data["lines"] as object[])[0], unit_price: "1.00" }] },
      }),
    ).toContain("unit_price");
    expect(
      await refused({
        ...event,
        data: { ...data, lines: [{ ...(data["lines"] as object[])[0], quantity: 1.5 }] },
      }),
    ).toContain("quantity");
    expect(
      await refused({
        ...event,
        data: { ...data, lines: [{ ...(data["lines"] as object[])[0], vat: "20" }] },
      }),
    ).toContain("vat");
    expect(
      await refused({
        ...event,
        data: { ...data, buyer: { ...(data["buyer"] as object), organizationNumber: "12345" } },
      }),
    ).toContain("organizationNumber");
  });

  it("refuses totals that do not add up, and line ids used twice", async () => {
    const total = (event["data"] as { total: string }).total;
    const r1 = await parseSigned("standard", { ...event, data: { ...data, total: "1.00" } });
    expect(r1).toMatchObject({ ok: false, error: { status: 400 } });
    if (!r1.ok) expect(r1.error.detail).toContain(`the sum of the lines, ${total}`);
    const excl = exclusive["data"] as Record<string, unknown>;
    expect(
      await parseSigned("standard", { ...exclusive, data: { ...excl, total: "1.00" } }),
    ).toMatchObject({ ok: false, error: { status: 400 } });
    const lines = data["lines"] as { id: string }[];
    expect(
      await parseSigned("standard", {
        ...event,
        data: {
          ...data,
          shipping: [{ ...(data["shipping"] as object[])[0], id: must(lines[0]).id }],
        },
      }),
    ).toMatchObject({ ok: false, error: { status: 400 } });
  });

  it("maps order.refunded with lines that name order lines", async () => {
    const body = standardRefund(
      exclusive,
      [
        { lineId: "L1", quantity: 2 },
        { lineId: "S1", quantity: 1 },
      ],
      { id: "ref_9", at: "2026-03-02T10:00:00Z" },
    );
    const [e] = await eventsOf("standard", body);
    if (e?.kind !== "refunded") throw new Error("not refunded");
    expect(e.orderId).toBe((exclusive["data"] as { id: string }).id);
    expect(e.refund.id).toBe("ref_9");
    expect(e.refund.lines.map((l) => [l.ref, l.quantity, l.vat])).toEqual([
      ["L1", 2, "25"],
      ["S1", 1, "25"],
    ]);
    expect(e.refund.total).toBe(e.refund.lines.reduce((s, l) => s + l.amount, 0));
    const bad = { ...body, data: { ...(body["data"] as object), total: "1.00" } };
    expect(await parseSigned("standard", bad)).toMatchObject({ ok: false, error: { status: 400 } });
  });

  it("maps order.cancelled, and ignores unknown types", async () => {
    const cancelled = standardCancelled(event);
    expect(await eventsOf("standard", cancelled)).toEqual([
      { kind: "cancelled", orderId: data["id"], at: cancelled["timestamp"] },
    ]);
    expect(
      await eventsOf("standard", standardEvent("customer.updated", { anything: true })),
    ).toEqual([{ kind: "ignored", orderId: null, reason: "type customer.updated is not used" }]);
  });
});

describe("docs/order-json.md", () => {
  const blocks = [...docs.matchAll(/```json\n([\s\S]*?)```/g)].map(
    (m) => JSON.parse(m[1] ?? "") as Record<string, unknown>,
  );

  it("has one example of each type, and each parses as documented", async () => {
    expect(blocks.map((b) => b["type"])).toEqual([
      "order.paid",
      "order.cancelled",
      "order.refunded",
      "payout.paid",
      "payout.failed",
    ]);
    const [paid, cancelled, refunded, payout, failed] = await Promise.all(
      blocks.map(async (b) => must((await eventsOf("standard", b))[0])),
    );
    expect(
      paid?.kind === "paid" && [
        paid.order.total,
        paid.order.lines.length,
        paid.order.buyer.organizationNumber,
      ],
    ).toEqual([228_390, 7, "923609016"]);
    expect(cancelled).toEqual({
      kind: "cancelled",
      orderId: "ord_1042",
      at: "2026-03-03T08:00:00Z",
    });
    expect(refunded?.kind === "refunded" && [refunded.orderId, refunded.refund.total]).toEqual([
      "ord_1042",
      22_890,
    ]);
    const p =
      payout?.kind === "payout" && payout.event.kind === "payout-paid" && payout.event.payout;
    if (!p) throw new Error("not a payout");
    // The page's sum: the lines' amount − fee is the deposit.
    expect([p.amount, p.lines.reduce((n, l) => n + l.amount - l.fee, 0), p.lines.length]).toEqual([
      121_100, 121_100, 4,
    ]);
    expect(failed).toEqual({
      kind: "payout",
      event: {
        kind: "payout-failed",
        payoutId: "po_1OaX2b",
        at: "2026-03-06T08:00:00Z",
        reason: "account_closed",
      },
    });
  });
});

describe("standard parse: payouts", () => {
  const payout = (data: Record<string, unknown>) =>
    standardEvent("payout.paid", {
      id: "po_1",
      provider: "stripe",
      currency: "NOK",
      amount: "95.00",
      arrivalDate: "2026-03-04",
      lines: [{ type: "charge", orderId: "o-1", amount: "100.00", fee: "5.00" }],
      ...data,
    });

  it("maps payout.paid to minor units, defaults and all: no fee is 0, the order source is standard", async () => {
    const [e] = await eventsOf(
      "standard",
      payout({
        lines: [
          { type: "fee", amount: "-1.50" },
          { type: "charge", orderId: "o-1", amount: "96.50" },
        ],
      }),
    );
    expect(e).toEqual({
      kind: "payout",
      event: {
        kind: "payout-paid",
        payout: {
          id: "po_1",
          provider: "stripe",
          currency: "NOK",
          amount: 9_500,
          arrivalDate: "2026-03-04",
          orderSource: "standard",
          lines: [
            { type: "fee", orderId: null, refundId: null, amount: -150, fee: 0 },
            { type: "charge", orderId: "o-1", refundId: null, amount: 9_650, fee: 0 },
          ],
        },
      },
    });
  });

  it("takes a payout whose lines do not add up (the run shows it), and refuses a malformed one with 400 naming the field", async () => {
    expect((await parseSigned("standard", payout({ amount: "1.00" }))).ok).toBe(true);
    for (const [data, field] of [
      [{ amount: 95 }, "payout: amount"],
      [{ arrivalDate: "4 March" }, "payout: arrivalDate"],
      [{ provider: "Stripe Inc" }, "payout: provider"],
      [{ lines: [] }, "payout: lines"],
      [{ lines: [{ type: "tip", amount: "1.00" }] }, "payout: lines.0.type"],
      [{ lines: [{ type: "charge", amount: "1.005" }] }, "payout: lines.0.amount"],
      [{ orderSource: "ebay" }, "payout: orderSource"],
      [{ extra: true }, "extra"],
    ] as const) {
      const r = await parseSigned("standard", payout(data));
      if (r.ok) throw new Error(`accepted ${JSON.stringify(data)}`);
      expect(r.error).toMatchObject({ status: 400, detail: expect.stringContaining(field) });
    }
  });

  it("maps payout.failed, its time defaulting to the event's", async () => {
    const e = standardEvent("payout.failed", { id: "po_1" }, "2026-03-06T08:00:00Z");
    expect(await eventsOf("standard", e)).toEqual([
      {
        kind: "payout",
        event: {
          kind: "payout-failed",
          payoutId: "po_1",
          at: "2026-03-06T08:00:00Z",
          reason: null,
        },
      },
    ]);
  });
});
