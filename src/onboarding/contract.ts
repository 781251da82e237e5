/**
 * @module
 * The declarations of onboarding v2: the operator starts it (`POST /admin/onboarding`) and the
 * client's browser ends it at `GET /onboarding/callback`, its only credential the single-use state.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { Environment } from "../kernel/config";
import { StartedOnboarding } from "./start";
import { problemResponse } from "../kernel/openapi/problems";
import { SECURITY } from "../kernel/openapi/security";
import { jsonGate } from "../kernel/middleware/validate";
import { guardedJson, htmlPage, jsonAnswer, jsonBody, tagged } from "../kernel/routes/contract-kit";

const Start = z
  .strictObject({
    environment: Environment,
    organizationNumber: z
      .string()
      .regex(/^[0-9]{9}$/, "must be the 9 digits of an organization number")
      .optional()
      .openapi({
        description:
          "Offer only this company to the client's user; without it, every company the user may onboard.",
      }),
  })
  .openapi("OnboardingStart");

// A clone: a lib schema (see the note at `setOrderMapping` in `tenant/admin-contract.ts`).
const Started = StartedOnboarding.clone().openapi("StartedOnboarding");

/**
 * Every state the gateway makes (32 random bytes, base64url): a malformed one is answered 400
 * before the one `Directory` object is asked about it.
 */
const STATE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The state the gateway put in its RedirectUri, and what the API added. */
export const CallbackQuery = z.object({
  state: z.string().regex(STATE_SHAPE).optional().openapi({
    description: "The single-use state of the onboarding, set by `POST /admin/onboarding`.",
  }),
  token: z.string().max(4096).optional().openapi({
    description: "The onboarding token the API adds on approval; exchanged at Finalize.",
  }),
  error: z.string().max(200).optional().openapi({
    description: "Set by the API instead of `token` when the user declined (`access_denied`).",
  }),
  error_description: z.string().max(1000).optional(),
});

const operator = tagged("onboarding", SECURITY.operator);
const browser = tagged("onboarding", null);

export const startOnboarding = createRoute({
  ...operator.post,
  path: "/onboarding",
  operationId: "startOnboarding",
  summary: "Start onboarding a client: answers the TemporaryUrl to hand to the client's user",
  description:
    "Calls Initiate with this gateway's `/onboarding/callback` (plus a single-use state, 30 minutes) as the RedirectUri. When the user approves, the callback registers one tenant per company; no client key passes through a person.",
  middleware: [jsonGate()],
  request: { body: jsonBody(Start) },
  responses: { 201: jsonAnswer("Started.", Started), ...guardedJson(502, 504) },
});

export const onboardingCallback = createRoute({
  ...browser.get,
  path: "/onboarding/callback",
  operationId: "onboardingCallback",
  summary:
    "The end of onboarding: the client's browser lands here; an HTML page says what was connected",
  description:
    "Uses up the state, calls Finalize, and registers one tenant per onboarded company (slug from the company's name, or its organization number; a number is added when taken). The page shows no secret. A malformed state is refused before any lookup; an address whose states keep failing (unknown, used, expired: more than 20 a minute) gets 429 for a minute.",
  request: { query: CallbackQuery },
  responses: {
    200: htmlPage("What was connected."),
    400: htmlPage("Unknown state, no token, or a malformed query."),
    403: htmlPage("The client's user declined."),
    409: htmlPage("The state was used already (a replay)."),
    410: htmlPage("The state expired."),
    502: htmlPage("The API refused Finalize, or no company could be registered."),
    503: htmlPage("The API or the environment is unavailable."),
    429: problemResponse(429),
  },
});
