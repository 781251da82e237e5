/**
 * @module
 * The sandbox of the accounting API v2: both environments at the real roots' paths
 * (`/Demo/OAuth/Token`, `/Demo/v2/...`, `/OAuth/Token`, `/v2/...`), matched case-insensitively,
 * and the local control API under `/_sandbox/`; and a stand-in of the Stripe endpoints a payout is
 * read with (`/v1/...`, `/_sandbox/stripe/...`) and of the Vipps MobilePay endpoints a settlement is
 * read with (`/accesstoken/get`, `/settlement/v1/...`, `/report/v2/...`, `/_sandbox/vipps/...`),
 * docs/sandbox.md; its root (`GET /`) says where these are. This file only composes.
 */
import { Hono } from "hono";
import type { SandboxApp } from "./app";
import { DroppedConnection } from "./lib/rejection";
import { apimResponse, problemResponse } from "./lib/problem";
import { apiRoutes } from "./routes/api";
import { controlRoutes } from "./routes/control";
import { onboardingPageRoutes } from "./routes/onboarding-page";
import { requireHttps } from "./routes/https";
import { rootRoutes } from "./routes/root";
import { stripeApiRoutes } from "./routes/stripe-api";
import { stripeControlRoutes } from "./routes/stripe-control";
import { tokenRoutes } from "./routes/token";
import { vippsApiRoutes } from "./routes/vipps-api";
import { vippsControlRoutes } from "./routes/vipps-control";

export { SandboxClient } from "./durable/client";
export { SandboxPlatform } from "./durable/platform";
export { SandboxStripe } from "./durable/stripe";
export { SandboxVipps } from "./durable/vipps";

const app = new Hono<SandboxApp>({ getPath: (req) => new URL(req.url).pathname.toLowerCase() });

app.use("*", requireHttps);
app.route("/", rootRoutes);
app.route("/_sandbox", controlRoutes);
app.route("/onboarding", onboardingPageRoutes);
app.route("/demo/oauth", tokenRoutes("demo"));
app.route("/demo/v2", apiRoutes("demo"));
app.route("/oauth", tokenRoutes("production"));
app.route("/v2", apiRoutes("production"));

// Outside the API's roots the gateway in front of it answers, not the API.
app.notFound((c) =>
  /^(\/demo)?\/v2\//.test(new URL(c.req.url).pathname.toLowerCase())
    ? problemResponse({
        status: 404,
        title: "Not Found",
        detail: `No resource at ${new URL(c.req.url).pathname}.`,
      })
    : apimResponse(404, "Resource not found"),
);
app.onError((err) => {
  if (err instanceof DroppedConnection) throw err;
  return problemResponse({
    status: 500,
    title: "Internal Server Error",
    detail: "The sandbox failed to handle the request.",
  });
});

// Stripe's stand-in: its own app, because its paths are matched as sent (Stripe's ids are
// case-sensitive, and the API's paths above are matched lower-cased).
const stripe = new Hono<SandboxApp>();
stripe.use("*", requireHttps);
stripe.route("/_sandbox/stripe", stripeControlRoutes);
stripe.route("/v1", stripeApiRoutes);

/** The paths Stripe's stand-in serves. */
const STRIPE_PATH = /^\/(v1|_sandbox\/stripe)(\/|$)/;

// Vipps MobilePay's stand-in: its own app for the same reason.
const vipps = new Hono<SandboxApp>();
vipps.use("*", requireHttps);
vipps.route("/_sandbox/vipps", vippsControlRoutes);
vipps.route("/", vippsApiRoutes);

/** The paths Vipps MobilePay's stand-in serves. */
const VIPPS_PATH = /^\/(accesstoken|settlement|report|_sandbox\/vipps)(\/|$)/;

export default {
  fetch(req: Request, env: SandboxEnv, ctx: ExecutionContext) {
    const path = new URL(req.url).pathname;
    if (STRIPE_PATH.test(path)) return stripe.fetch(req, env, ctx);
    if (VIPPS_PATH.test(path)) return vipps.fetch(req, env, ctx);
    return app.fetch(req, env, ctx);
  },
} satisfies ExportedHandler<SandboxEnv>;
