/**
 * @module
 * `POST {root}/v2/Onboarding/Initiate` and `…/Finalize`. The spec gives both an empty security
 * requirement: no bearer token (there is no client yet), but they still pass the API's front layer
 * (subscription key, rate limit, faults) like every other call. Initiate answers a TemporaryUrl
 * that opens the sandbox's approval page (`routes/onboarding-page.ts`); Finalize exchanges the
 * token the page redirected with for one client key per approved client, once.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import { FinalizeOnboardingPost, InitiateOnboardingPost } from "../../../shared/v2/clients";
import { platformOf, type SandboxApp } from "../app";
import type { Environment } from "../env";
import { readJson } from "../lib/body";
import { problemResponse, schemaProblem, type Problem } from "../lib/problem";
import { delay, rejectionResponse } from "../lib/rejection";
import { subscriptionKeyOf } from "./guards";

/** The simulated user who approves: example.com is reserved, so no mail can reach anyone. */
const ONBOARDING_USER_EMAIL = "sandbox.user@example.com";

/**
 * The spec's body, except ApplicationKey: the API's keys are GUIDs, the sandbox's are readable
 * names (`sandbox-demo-application-key`), and the platform compares it with the environment's own.
 */
const InitiateBody = InitiateOnboardingPost.extend({ ApplicationKey: z.string().min(1) });

const invalid = (field: string, message: string): Problem => ({
  status: 400,
  title: "Onboarding validation error(s)",
  detail: message,
  errors: { [field]: [message] },
});

/**
 * Where the approval page is served: `SANDBOX_PUBLIC_URL` when a browser reaches the sandbox
 * elsewhere than the caller did.
 */
function pageBase(c: Context<SandboxApp>, environment: Environment): string {
  const origin = c.env.SANDBOX_PUBLIC_URL?.replace(/\/+$/, "") || new URL(c.req.url).origin;
  return `${origin}/onboarding/${environment}`;
}

/** Runs the front layer's checks; a response when the call is turned away. */
async function admitted(
  c: Context<SandboxApp>,
  environment: Environment,
): Promise<Response | null> {
  const path = new URL(c.req.url).pathname.replace(/^(\/demo)?\/v2/i, "").toLowerCase();
  const admission = await platformOf(c.env, environment).admitAnonymous(environment, {
    arrivedAt: Date.now(),
    subscriptionKey: subscriptionKeyOf(c.req.raw),
    path,
  });
  await delay(admission.latencyMs);
  return admission.ok ? null : rejectionResponse(admission.rejection);
}

/** A JSON body checked against `schema`, or the problem response. */
async function bodyOf<T extends z.ZodType>(
  req: Request,
  schema: T,
): Promise<{ ok: true; value: z.output<T> } | { ok: false; response: Response }> {
  const raw = await readJson(req, "json");
  if (!raw.ok) return { ok: false, response: problemResponse(raw.problem) };
  const parsed = schema.safeParse(raw.value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, response: problemResponse(schemaProblem(parsed.error)) };
}

/**
 * The two anonymous operations of one environment; mounted before the token gate of `apiRoutes`.
 */
export function onboardingApiRoutes(environment: Environment) {
  return new Hono<SandboxApp>()
    .post("/onboarding/initiate", async (c) => {
      const refused = await admitted(c, environment);
      if (refused) return refused;
      const body = await bodyOf(c.req.raw, InitiateBody);
      if (!body.ok) return body.response;
      const { ApplicationKey, ClientOrganizationNo, RedirectUri } = body.value;
      // Optional in the schema, but without it the user has nowhere to go after approving.
      if (!RedirectUri)
        return problemResponse(
          invalid(
            "RedirectUri",
            "RedirectUri must be set: the user is sent there after approving.",
          ),
        );
      const started = await platformOf(c.env, environment).initiateOnboarding(environment, {
        applicationKey: ApplicationKey,
        redirectUri: RedirectUri,
        orgNo: ClientOrganizationNo?.trim() || null,
        pageBase: pageBase(c, environment),
      });
      if (!started.ok) return problemResponse(invalid(started.field, started.message));
      return c.json({
        TemporaryUrl: started.temporaryUrl,
        ValidUntilDateTimeOffset: started.validUntil,
      });
    })
    .post("/onboarding/finalize", async (c) => {
      const refused = await admitted(c, environment);
      if (refused) return refused;
      const body = await bodyOf(c.req.raw, FinalizeOnboardingPost);
      if (!body.ok) return body.response;
      const clients = await platformOf(c.env, environment).finalizeOnboarding(
        body.value.OnboardingToken.trim(),
      );
      // The spec documents only 400 here: an unknown, used or expired token is a bad request.
      if (!clients)
        return problemResponse({
          status: 400,
          title: "Onboarding validation error(s)",
          detail:
            "The OnboardingToken is unknown, already used or expired. Start again with POST /Onboarding/Initiate.",
        });
      return c.json({ OnboardedClientsInformation: clients, UserEmail: ONBOARDING_USER_EMAIL });
    });
}
