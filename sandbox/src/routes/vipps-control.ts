/**
 * @module
 * `/_sandbox/vipps/*`, the control API of the Vipps MobilePay stand-in (served only with
 * `SANDBOX_CONTROL=true`): a merchant with its keys and ledger, captures made from a sandbox
 * client's own invoiced orders (or named), refunds, entries of any type (unknown ones too), the
 * close of a date that pays it out, the counters and a reset. docs/sandbox.md.
 */
import { Hono } from "hono";
import { z } from "zod";
import { clientOf, type SandboxApp } from "../app";
import { controlEnabled } from "./control-gate";
import { ENVIRONMENTS } from "../env";
import { controlBody } from "../lib/body";
import { problemResponse } from "../lib/problem";
import { vippsOf, vippsResponse } from "./vipps-api";

const Amount = z.int().positive().max(99_999_999);
const Reference = z.string().min(1).max(100);

const MerchantBody = z.strictObject({
  settlement: z.enum(["net", "gross"]).default("net"),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .default("NOK"),
  /** A capture's fee in hundredths of a percent: 175 is 1.75 %. */
  feeBasisPoints: z.int().min(0).max(1_000).default(175),
  /** Every this many closed dates, an entry of a type not documented (0: never). */
  surpriseEvery: z.int().min(0).max(1_000).default(0),
});
const EntriesBody = z.strictObject({
  captures: z
    .array(z.strictObject({ reference: Reference, amount: Amount }))
    .max(5_000)
    .default([]),
  refunds: z
    .array(z.strictObject({ reference: Reference, amount: Amount }))
    .max(5_000)
    .default([]),
  /** Any entry type, those the gateway does not know too; `amount` signed as Vipps signs it. */
  entries: z
    .array(
      z.strictObject({
        entryType: z.string().min(1).max(60),
        reference: z.string().max(100).default(""),
        amount: z.int().min(-99_999_999).max(99_999_999),
      }),
    )
    .max(100)
    .default([]),
});
const FromOrdersBody = z.strictObject({
  environment: z.enum(ENVIRONMENTS),
  clientId: z.string().min(1).max(100),
  /** What the shop puts before its order id in a Vipps payment's reference. */
  referencePrefix: z.string().max(40).default(""),
  /** At most this many of the client's invoiced orders not captured yet. */
  limit: z.int().min(1).max(5_000).default(5_000),
});

export const vippsControlRoutes = new Hono<SandboxApp>()
  .use("*", controlEnabled)
  .post("/merchants", async (c) => {
    const [input, bad] = await controlBody(c.req.raw, MerchantBody);
    if (bad) return bad;
    return c.json({ ...(await vippsOf(c.env).createMerchant(input)), ...input }, 201);
  })
  .post("/ledgers/:ledgerId/dates/:date/entries", async (c) => {
    const [input, bad] = await controlBody(c.req.raw, EntriesBody);
    if (bad) return bad;
    const date = c.req.param("date");
    if (!z.iso.date().safeParse(date).success) return notADate();
    const entries = [
      ...input.captures.map((x) => ({ kind: "capture" as const, ...x })),
      ...input.refunds.map((x) => ({ kind: "refund" as const, ...x })),
      ...input.entries.map((x) => ({ kind: "entry" as const, ...x })),
    ];
    return vippsResponse(await vippsOf(c.env).add(c.req.param("ledgerId"), date, entries));
  })
  .post("/ledgers/:ledgerId/dates/:date/from-orders", async (c) => {
    const [input, bad] = await controlBody(c.req.raw, FromOrdersBody);
    if (bad) return bad;
    const date = c.req.param("date");
    if (!z.iso.date().safeParse(date).success) return notADate();
    const invoices = await clientOf(c.env, input.environment, input.clientId).orderInvoices();
    const orders = invoices
      .filter((i) => i.currency === "NOK")
      .slice(0, input.limit)
      .map((i) => ({ reference: `${input.referencePrefix}${i.orderId}`, amount: i.total }));
    return vippsResponse(await vippsOf(c.env).capture(c.req.param("ledgerId"), date, orders));
  })
  .post("/ledgers/:ledgerId/dates/:date/close", async (c) => {
    const date = c.req.param("date");
    if (!z.iso.date().safeParse(date).success) return notADate();
    return vippsResponse(await vippsOf(c.env).close(c.req.param("ledgerId"), date));
  })
  .get("/stats", async (c) => c.json(await vippsOf(c.env).stats()))
  .post("/reset", async (c) => {
    await vippsOf(c.env).reset();
    return c.body(null, 204);
  });

const notADate = () =>
  problemResponse({ status: 400, title: "Bad Request", detail: "The date is not yyyy-MM-dd." });
