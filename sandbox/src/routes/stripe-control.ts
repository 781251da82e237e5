/**
 * @module
 * `/_sandbox/stripe/*`, the control API of the Stripe stand-in (served only with
 * `SANDBOX_CONTROL=true`, like the rest of `/_sandbox/`): an account with its restricted key, the
 * charges, refunds, fees and payouts of its balance, a payout's status, the counters and a reset.
 * Its ids are Stripe's, so these paths are matched as sent too.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { SandboxApp } from "../app";
import { controlEnabled } from "./control-gate";
import { controlBody } from "../lib/body";
import type { StripeResult } from "../durable/stripe";
import { stripeOf, stripeResponse } from "./stripe-api";

const Amount = z.int().positive().max(99_999_999);
const Day = z.iso.date();

const Account = z.strictObject({
  currency: z
    .string()
    .regex(/^[a-z]{3}$/)
    .default("nok"),
});
const Charges = z.strictObject({
  charges: z
    .array(
      z.strictObject({
        amount: Amount,
        fee: z.int().min(0).max(99_999_999).default(0),
        paymentIntent: z.string().min(1).max(255).optional(),
      }),
    )
    .min(1)
    .max(5_000),
});
const RefundBody = z.strictObject({ charge: z.string().min(1), amount: Amount });
const FeeBody = z.strictObject({
  amount: Amount,
  description: z.string().max(200).default("Radar for Fraud Teams"),
});
const PayoutBody = z.strictObject({
  automatic: z.boolean().default(true),
  method: z.enum(["standard", "instant"]).default("standard"),
  amount: Amount.optional(),
  reconciliationStatus: z.enum(["completed", "in_progress"]).default("completed"),
  arrivalDate: Day.optional(),
});
const PayoutPatch = z.strictObject({
  status: z.enum(["pending", "in_transit", "paid", "failed", "canceled"]).optional(),
  reconciliationStatus: z.enum(["completed", "in_progress"]).optional(),
  failureCode: z.string().max(100).optional(),
  failureMessage: z.string().max(500).optional(),
});

/** A result of the stand-in as a control answer. */
const created = (r: StripeResult) => stripeResponse(r, 201);

export const stripeControlRoutes = new Hono<SandboxApp>()
  .use("*", controlEnabled)
  .post("/accounts", async (c) => {
    const [input, bad] = await controlBody(c.req.raw, Account);
    if (bad) return bad;
    const made = await stripeOf(c.env).createAccount(input.currency);
    return c.json({ ...made, currency: input.currency }, 201);
  })
  .post("/accounts/:account/charges", async (c) => {
    const [input, bad] = await controlBody(c.req.raw, Charges);
    if (bad) return bad;
    return created(await stripeOf(c.env).createCharges(c.req.param("account"), input.charges));
  })
  .post("/accounts/:account/refunds", async (c) => {
    const [input, bad] = await controlBody(c.req.raw, RefundBody);
    if (bad) return bad;
    return created(
      await stripeOf(c.env).createRefund(c.req.param("account"), input.charge, input.amount),
    );
  })
  .post("/accounts/:account/fees", async (c) => {
    const [input, bad] = await controlBody(c.req.raw, FeeBody);
    if (bad) return bad;
    return created(
      await stripeOf(c.env).createFee(c.req.param("account"), input.amount, input.description),
    );
  })
  .post("/accounts/:account/payouts", async (c) => {
    const [input, bad] = await controlBody(c.req.raw, PayoutBody);
    if (bad) return bad;
    return created(
      await stripeOf(c.env).createPayout(c.req.param("account"), {
        automatic: input.automatic,
        method: input.method,
        amount: input.amount ?? null,
        reconciliation: input.reconciliationStatus,
        arrivalDate: input.arrivalDate ?? new Date().toISOString().slice(0, 10),
      }),
    );
  })
  .patch("/accounts/:account/payouts/:id", async (c) => {
    const [input, bad] = await controlBody(c.req.raw, PayoutPatch);
    if (bad) return bad;
    const patch: Record<string, string> = Object.fromEntries(
      Object.entries({
        status: input.status,
        reconciliation_status: input.reconciliationStatus,
        failure_code: input.failureCode,
        failure_message: input.failureMessage,
      }).filter((e): e is [string, string] => e[1] !== undefined),
    );
    return stripeResponse(
      await stripeOf(c.env).updatePayout(c.req.param("account"), c.req.param("id"), patch),
    );
  })
  .get("/stats", async (c) => stripeResponse({ ok: true, json: await stripeOf(c.env).stats() }))
  .post("/reset", async (c) => {
    await stripeOf(c.env).reset();
    return c.body(null, 204);
  });
