import { createRoute, z } from "@hono/zod-openapi";
import { problems } from "../openapi/problems";
import { jsonAnswer } from "./contract-kit";

export const EnvironmentState = z.enum(["configured", "unconfigured", "suspect"]);

const Health = z
  .strictObject({
    ok: z.literal(true),
    version: z.string(),
    environments: z.strictObject({ demo: EnvironmentState, production: EnvironmentState }),
  })
  .openapi("Health");
export type HealthAnswer = z.output<typeof Health>;

export const healthz = createRoute({
  method: "get",
  path: "/healthz",
  tags: ["meta"],
  operationId: "getHealth",
  summary: "Liveness, the version, and the state of each environment",
  description:
    "No credential. Reads are counted per client address (20 a minute) and answered 429 beyond that.",
  security: [],
  responses: { 200: jsonAnswer("The gateway is up.", Health), ...problems(429) },
});

export const landing = createRoute({
  method: "get",
  path: "/",
  tags: ["meta"],
  operationId: "getLanding",
  summary: "A small page naming the gateway and linking its console, docs and health",
  description: "No credential. Someone who opens the gateway's address meets a page, not a 404.",
  security: [],
  responses: {
    200: { description: "The page.", content: { "text/html": { schema: z.string() } } },
  },
});

export const favicon = createRoute({
  method: "get",
  path: "/favicon.ico",
  tags: ["meta"],
  operationId: "getFavicon",
  summary: "The gateway's icon (a small SVG), so a browser's automatic request is not an error",
  security: [],
  responses: {
    200: { description: "The icon.", content: { "image/svg+xml": { schema: z.string() } } },
  },
});
