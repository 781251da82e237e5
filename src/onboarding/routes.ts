/**
 * @module
 * `GET /onboarding/callback`, where the client's browser lands after approving or declining.
 * Always an HTML page, errors included: a person reads it, not a program.
 */
import type { Context } from "hono";
import type { GatewayApp } from "../kernel/app";
import { finishOnboarding } from "./finish";
import { callbackPage, PAGE_HEADERS } from "./page";
import { gatewayRouter } from "../kernel/routes/contract-kit";
import { onboardingCallback } from "./contract";

/** A query that fails its schema gets the page too, not a problem+json. */
function badQuery(c: Context<GatewayApp>) {
  const { status, page } = callbackPage({
    ok: false,
    reason: "unknown-state",
    detail: "This onboarding link is malformed. Ask the operator for a new one.",
  });
  return c.html(page, status, PAGE_HEADERS);
}

export const onboardingRoutes = gatewayRouter().openapi(
  onboardingCallback,
  async (c) => {
    const finished = await finishOnboarding(c.env, c.req.valid("query"));
    c.set(
      "logFields",
      finished.ok
        ? {
            environment: finished.environment,
            connected: finished.connected.map((t) => t.tenant),
            notConnected: finished.failed.length,
          }
        : { onboarding: finished.reason },
    );
    const { status, page } = callbackPage(finished);
    return c.html(page, status, PAGE_HEADERS);
  },
  (result, c) => (result.success ? undefined : badQuery(c)),
);
