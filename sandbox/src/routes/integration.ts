/**
 * @module
 * `GET /ClientIntegrationInformation` (who am I, with privileges) and
 * `DELETE /Offboarding/RemoveIntegration` (the client removes this integration).
 */
import { Hono } from "hono";
import { platformOf, type SandboxApp } from "../app";
import { problemResponse } from "../lib/problem";

export const integrationRoutes = new Hono<SandboxApp>()
  .get("/clientintegrationinformation", async (c) => {
    const info = await platformOf(c.env, c.get("environment")).integrationInformation(
      c.get("environment"),
      c.get("clientId"),
    );
    return info
      ? c.json(info)
      : problemResponse({
          status: 404,
          title: "Object(s) not found",
          detail: "The client no longer exists.",
        });
  })
  .delete("/offboarding/removeintegration", async (c) => {
    await platformOf(c.env, c.get("environment")).removeIntegration(
      c.get("clientId"),
      c.get("integration"),
    );
    return c.body(null, 200);
  });
