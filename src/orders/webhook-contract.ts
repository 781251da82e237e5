/**
 * @module
 * The declaration of `POST /webhooks/{source}/{client}/{environment}`: a shop's signed delivery,
 * in the scheme of the `source` in its path (`kernel/openapi/security.ts`).
 */
import { createRoute, z } from "@hono/zod-openapi";
import { Environment } from "../kernel/config";
import { Source } from "./order";
import { problems } from "../kernel/openapi/problems";
import { SECURITY } from "../kernel/openapi/security";
import { ClientSlug } from "../kernel/stubs";
import { jsonAnswer } from "../kernel/routes/contract-kit";
import { OrderRun } from "./contract";

const WebhookRoute = z.object({ source: Source, client: ClientSlug, environment: Environment });

/** A webhook's answer: what the delivery did, and the order's run as it stands after it. */
const Intake = z
  .strictObject({
    intake: z
      .enum([
        "started",
        "recorded",
        "duplicate",
        "cancelled",
        "failed",
        "ignored",
        "refused",
        "ping",
      ])
      .openapi({
        description:
          "`refused`: verified, but from a shop this tenant is not bound to; nothing was booked (answered 200 so the shop does not retry). `recorded`: kept, its run to start on a later event (a Stripe payout whose lines Stripe has not finished), or a Stripe payment's link to its order, kept for the payout that names it.",
      }),
    detail: z.string(),
    // A union, not `.nullable()`: the library copies a schema's component name onto its nullable
    // twin, which then replaces the `OrderRun` component with a nullable one.
    run: z.union([OrderRun, z.null()]).openapi({
      description: "The order's run (as `GET /orders/{source}/{orderId}` shows it), or null.",
    }),
  })
  .openapi("WebhookIntake");
export type WebhookAnswer = z.output<typeof Intake>;

/**
 * Any one of the signature schemes (each source uses its own). Typed as the wide requirement list:
 * a literal union of differently keyed objects makes `createRoute` lose the route's request types.
 */
const SIGNATURES: Record<string, string[]>[] = [
  SECURITY.shopify,
  SECURITY.woocommerce,
  SECURITY.stripe,
  SECURITY.standard,
].map((name) => ({ [name]: [] }));

export const receiveWebhook = createRoute({
  method: "post",
  path: "/{source}/{client}/{environment}",
  tags: ["webhooks"],
  operationId: "receiveWebhook",
  summary: "A shop's webhook delivery",
  description:
    "The raw body as the shop sent it, verified with the tenant's secret for `source`. Answered as soon as the order's run is recorded (no API call is made while the shop waits); a repeat of one order is answered 200 and never runs twice. An unsigned or unverifiable delivery is 401, the same for every address.",
  security: SIGNATURES,
  request: {
    params: WebhookRoute,
    // Not zod: a zod body would make the library parse the bytes the adapters need untouched.
    body: {
      required: true,
      description: "The source's own payload, read as bytes (its signature covers them exactly).",
      content: { "application/json": { schema: { type: "object" as const } } },
    },
  },
  responses: {
    200: jsonAnswer(
      "Already recorded (a duplicate), ignored, refused for its shop, or WooCommerce's ping.",
      Intake,
    ),
    202: jsonAnswer(
      "Recorded; the run is started (or, `recorded`, starts on the event it waits for).",
      Intake,
    ),
    ...problems(400, 401, 404, 413, 422, 503),
  },
});
