/**
 * @module
 * The sandbox of the accounting API v2: both environments at the real roots' paths
 * (`/Demo/OAuth/Token`, `/Demo/v2/...`, `/OAuth/Token`, `/v2/...`), matched case-insensitively,
 * and the local control API under `/_sandbox/`. This file only composes.
 */
import { Hono } from "hono";
import type { SandboxApp } from "./app";
import { DroppedConnection } from "./lib/rejection";
import { apimResponse, problemResponse } from "./lib/problem";
import { apiRoutes } from "./routes/api";
import { controlRoutes } from "./routes/control";
import { onboardingPageRoutes } from "./routes/onboarding-page";
import { requireHttps } from "./routes/https";
import { tokenRoutes } from "./routes/token";

export { SandboxClient } from "./durable/client";
export { SandboxPlatform } from "./durable/platform";

const app = new Hono<SandboxApp>({ getPath: (req) => new URL(req.url).pathname.toLowerCase() });

app.use("*", requireHttps);
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

export default app;
