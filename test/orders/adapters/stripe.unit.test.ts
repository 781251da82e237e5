import { describe, expect, it } from "vitest";
import { stripe } from "../../../src/orders/adapters/stripe";
import { toHex } from "../../../src/kernel/crypto";
import { hmacSha256 } from "../../../src/orders/adapters/signature";
import { sign, TEST_SECRETS, toDelivery } from "../../fixtures/orders/sign";
import {
  corpus,
  stripeBasil,
  stripeChargeRefunded,
  stripeInvoiceVoided,
} from "../../fixtures/orders/stripe";
import { eventsOf, must, parseSigned, signatureSuite } from "./security";

const cases = corpus();
const mixed = must(cases.find((c) => c.name.includes("mixed VAT")));
const event = mixed.payload;
const invoice = (event["data"] as { object: Record<string, unknown> }).object;
const secret = TEST_SECRETS.stripe;
const T = 1_772_000_000;

signatureSuite("stripe", event, "Stripe-Signature", { timestamp: T });

describe("stripe verify", () => {
  it("returns the event id and the signed timestamp", async () => {
    const result = await stripe.verify(
      toDelivery(await sign("stripe", event, secret, { timestamp: T })),
      secret,
      T * 1000,
    );
    expect(result).toEqual({ ok: true, value: { eventId: event["id"], signedAt: T } });
  });

  it("passes when any v1 matches (secret roll), not when none does", async () => {
    const signed = await sign("stripe", event, secret, { timestamp: T });
    const good = must(/v1=([0-9a-f]+)/.exec(must(signed.headers["Stripe-Signature"]))?.[1]);
    const old = toHex(await hmacSha256("whsec_old", `${T}.${signed.body}`));
    signed.headers["Stripe-Signature"] = `t=${T},v1=${old},v1=${good},v0=abc`;
    expect((await stripe.verify(toDelivery(signed), secret, T * 1000)).ok).toBe(true);
    signed.headers["Stripe-Signature"] = `t=${T},v1=${old}`;
    expect(await stripe.verify(toDelivery(signed), secret, T * 1000)).toMatchObject({
      ok: false,
      error: { status: 401 },
    });
  });

  it("refuses a timestamp more than 300 s away, in either direction", async () => {
    const delivery = toDelivery(await sign("stripe", event, secret, { timestamp: T }));
    expect((await stripe.verify(delivery, secret, (T + 300) * 1000)).ok).toBe(true);
    expect(await stripe.verify(delivery, secret, (T + 301) * 1000)).toEqual({
      ok: false,
      error: { status: 401, detail: expect.stringContaining("stale timestamp") },
    });
    expect(await stripe.verify(delivery, secret, (T - 301) * 1000)).toMatchObject({
      ok: false,
      error: { status: 401 },
    });
  });

  it("refuses a timestamp that is not the one signed", async () => {
    const signed = await sign("stripe", event, secret, { timestamp: T });
    signed.headers["Stripe-Signature"] = must(signed.headers["Stripe-Signature"]).replace(
      `t=${T}`,
      `t=${T + 1}`,
    );
    expect(await stripe.verify(toDelivery(signed), secret, T * 1000)).toMatchObject({
      ok: false,
      error: { status: 401 },
    });
  });

  it("refuses a header without t or v1", async () => {
    const signed = await sign("stripe", event, secret, { timestamp: T });
    signed.headers["Stripe-Signature"] = must(signed.headers["Stripe-Signature"]).replace(
      /^t=\d+,/,
      "",
    );
    expect(await stripe.verify(toDelivery(signed), secret, T * 1000)).toMatchObject({
      ok: false,
      error: { status: 401 },
    });
  });
});

describe("stripe parse", () => {
  it("refuses a body that is not JSON, or not an event, with 400", async () => {
    // The event id is in the body, so verify already reads it: a signed body that is not JSON is a
    // 400 there.
    expect(
      await stripe.verify(
        toDelivery(await sign("stripe", "not json", secret, { timestamp: T })),
        secret,
        T * 1000,
      ),
    ).toEqual({ ok: false, error: { status: 400, detail: "the body is not JSON" } });
    expect(stripe.parse(toDelivery(await sign("stripe", "not json", secret)))).toMatchObject({
      ok: false,
      error: { status: 400 },
    });
    const delivery = toDelivery(await sign("stripe", { object: "event" }, secret));
    expect(stripe.parse(delivery)).toMatchObject({ ok: false, error: { status: 400 } });
    const wrong = await parseSigned("stripe", {
      ...event,
      data: { object: { ...invoice, lines: { data: [] } } },
    });
    expect(wrong).toMatchObject({ ok: false, error: { status: 400 } });
  });

  it("maps invoice.paid: number, buyer, lines, org number from no_vat, total = amount_paid", async () => {
    const [e] = await eventsOf("stripe", event);
    if (e?.kind !== "paid") throw new Error("not paid");
    const o = e.order;
    expect(o).toMatchObject({
      source: "stripe",
      id: invoice["id"],
      number: invoice["number"],
      currency: "NOK",
      taxIncluded: true,
      total: invoice["amount_paid"],
    });
    expect(o.buyer).toMatchObject({
      company: invoice["customer_name"],
      organizationNumber: mixed.orgNumber,
      email: invoice["customer_email"],
      externalId: invoice["customer"],
    });
    expect(o.lines.map((l) => [l.kind, l.vat])).toEqual([
      ["item", "25"],
      ["item", "15"],
      ["item", "12"],
      ["item", "zero"],
      ["item", "25"],
      ["shipping", "25"],
    ]);
    expect(o.paidAt).toBe(
      new Date((invoice["status_transitions"] as { paid_at: number }).paid_at * 1000).toISOString(),
    );
  });

  it("infers the rate from tax over taxable amount when the rate is not expanded", async () => {
    const bare = structuredClone(invoice) as {
      lines: { data: { tax_amounts: { tax_rate: unknown }[] }[] };
    };
    for (const l of bare.lines.data) for (const t of l.tax_amounts) t.tax_rate = "txr_123";
    const [e] = await eventsOf("stripe", { ...event, data: { object: bare } });
    expect(e?.kind === "paid" && e.order.lines.map((l) => l.vat)).toEqual([
      "25",
      "15",
      "12",
      "zero",
      "25",
      "25",
    ]);
  });

  it("reads zero-decimal currencies in their own unit", async () => {
    const yen = {
      ...invoice,
      currency: "jpy",
      shipping_cost: null,
      amount_paid: 500,
      lines: {
        data: [{ id: "il_1", amount: 500, quantity: 1, description: "Omiyage", tax_amounts: [] }],
      },
    };
    const [e] = await eventsOf("stripe", { ...event, data: { object: yen } });
    expect(
      e?.kind === "paid" && [e.order.total, e.order.lines[0]?.amount, e.order.currency],
    ).toEqual([50_000, 50_000, "JPY"]);
  });

  it("refuses an invoice mixing inclusive and exclusive tax, or with more lines than carried", async () => {
    const mixedTax = structuredClone(invoice) as {
      lines: { data: { tax_amounts: { inclusive: boolean }[] }[] };
    };
    must(must(mixedTax.lines.data[0]).tax_amounts[0]).inclusive = false;
    expect(await parseSigned("stripe", { ...event, data: { object: mixedTax } })).toMatchObject({
      ok: false,
      error: { status: 400 },
    });
    const truncated = { ...invoice, lines: { ...(invoice["lines"] as object), has_more: true } };
    expect(await parseSigned("stripe", { ...event, data: { object: truncated } })).toMatchObject({
      ok: false,
      error: { status: 400 },
    });
  });

  it("maps invoice.voided to cancelled", async () => {
    expect(await eventsOf("stripe", stripeInvoiceVoided(event, 1_772_100_000))).toEqual([
      { kind: "cancelled", orderId: invoice["id"], at: new Date(1_772_100_000_000).toISOString() },
    ]);
  });

  it("maps charge.refunded to one refunded event per succeeded refund, lines left to the run", async () => {
    const body = stripeChargeRefunded(event, 5_000, {
      previous: [{ id: "re_old", amount: 2_000 }],
    });
    const events = await eventsOf("stripe", body);
    expect(events).toEqual([
      {
        kind: "refunded",
        orderId: invoice["id"],
        refund: {
          id: expect.stringMatching(/^re_/),
          at: expect.any(String),
          lines: [],
          total: 5_000,
        },
      },
      {
        kind: "refunded",
        orderId: invoice["id"],
        refund: { id: "re_old", at: expect.any(String), lines: [], total: 2_000 },
      },
    ]);
    const charge = (body["data"] as { object: { refunds: { data: { status: string }[] } } }).object;
    must(charge.refunds.data[0]).status = "failed";
    expect((await eventsOf("stripe", body)).length).toBe(1);
  });

  it("ignores a refunded charge that paid no invoice, and other event types", async () => {
    const body = stripeChargeRefunded(event, 5_000);
    (body["data"] as { object: { invoice: string | null } }).object.invoice = null;
    expect((await eventsOf("stripe", body))[0]?.kind).toBe("ignored");
    expect(await eventsOf("stripe", { ...event, type: "customer.created" })).toEqual([
      { kind: "ignored", orderId: null, reason: "event customer.created is not used" },
    ]);
  });
});

describe("stripe tax, in the shape before and since API version 2025-03-31", () => {
  it("reads a line's taxes[] (tax_behavior, rate id) exactly as tax_amounts, for every order of the corpus", async () => {
    for (const c of cases) {
      const [before] = await eventsOf("stripe", c.payload);
      const [since] = await eventsOf("stripe", stripeBasil(c.payload));
      expect(since, c.name).toEqual(before);
      expect(since?.kind, c.name).toBe("paid");
    }
  });

  it("a line that carries neither taxes nor tax_amounts makes the order unusable (a failed run), not 0 %", async () => {
    const basil = stripeBasil(event);
    const untold = structuredClone(
      (basil["data"] as { object: Record<string, unknown> }).object,
    ) as { lines: { data: Record<string, unknown>[] } };
    delete must(untold.lines.data[2]).taxes;
    expect(await eventsOf("stripe", { ...basil, data: { object: untold } })).toEqual([
      {
        kind: "unusable",
        orderId: invoice["id"],
        reason: `Order ${String(invoice["number"])} cannot be invoiced as the shop sent it: lines.data.2: the line carries neither taxes nor tax_amounts, so its VAT cannot be determined`,
      },
    ]);
  });

  it("shipping with neither taxes nor amount_tax, or a tax at no Norwegian rate, makes the order unusable", async () => {
    const noTax = {
      ...invoice,
      shipping_cost: { ...(invoice["shipping_cost"] as object), taxes: null, amount_tax: null },
    };
    expect((await eventsOf("stripe", { ...event, data: { object: noTax } }))[0]).toMatchObject({
      kind: "unusable",
      reason: expect.stringContaining("shipping_cost: carries neither taxes nor amount_tax"),
    });
    const foreign = structuredClone(invoice) as {
      lines: { data: { tax_amounts: { tax_rate: unknown }[] }[] };
    };
    must(must(foreign.lines.data[0]).tax_amounts[0]).tax_rate = { percentage: 20, inclusive: true };
    expect((await eventsOf("stripe", { ...event, data: { object: foreign } }))[0]).toMatchObject({
      kind: "unusable",
      reason: expect.stringContaining("lines.data.0: the tax is not at a Norwegian VAT rate"),
    });
  });
});
