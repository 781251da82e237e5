/**
 * @module
 * Step one of onboarding v2: a single-use state rides in the RedirectUri's query (the API keeps
 * its parameters), and Initiate answers the TemporaryUrl the client's user opens.
 */
import { z } from "zod";
import { Environment, readConfig, type Bindings } from "../kernel/config";
import { randomSecret, sha256Hex } from "../kernel/crypto";
import { problemOf } from "../kernel/outcome";
import { Problem } from "../kernel/problem";
import { directoryStub } from "../kernel/stubs";
import { InitiateAnswer, onboardingCall } from "./upstream";

/** How long a state is accepted, ms: longer than a TemporaryUrl lives, so none is refused. */
export const ONBOARDING_STATE_TTL_MS = 30 * 60 * 1000;

export const CALLBACK_PATH = "/onboarding/callback";

/** What the operator hands to the client. */
export const StartedOnboarding = z.strictObject({
  temporaryUrl: z.string().meta({
    description: "Hand this to the client's user: it opens the accounting system's approval page.",
  }),
  expiresAt: z.string().meta({
    description: "When the link (or the gateway's state for it) runs out, ISO 8601.",
  }),
  environment: Environment,
});
export type StartedOnboarding = z.output<typeof StartedOnboarding>;

/**
 * Starts an onboarding. A `Problem`: 503 when the environment or API is unavailable, 502 when the
 * API refuses Initiate (most often: the callback URL is not whitelisted).
 *
 * @example await startOnboarding(env, { environment: "demo", origin: "https://gw.example" })
 */
export async function startOnboarding(
  env: Bindings,
  input: { environment: Environment; organizationNumber?: string | undefined; origin: string },
): Promise<StartedOnboarding> {
  const config = readConfig(env).environments[input.environment];
  if (!config.ok) throw new Problem("unavailable", config.detail);
  const state = randomSecret(32);
  const stateExpiresAt = Date.now() + ONBOARDING_STATE_TTL_MS;
  await directoryStub(env).addOnboardingState(
    await sha256Hex(state),
    input.environment,
    stateExpiresAt,
  );
  const redirect = new URL(CALLBACK_PATH, input.origin);
  redirect.searchParams.set("state", state);
  const body = {
    ApplicationKey: config.config.applicationKey,
    RedirectUri: redirect.toString(),
    ...(input.organizationNumber ? { ClientOrganizationNo: input.organizationNumber } : {}),
  };
  const started = await onboardingCall(env, input.environment, "Initiate", body, InitiateAnswer);
  if (!started.ok) {
    // A 400 refused what the gateway sent, not the operator's request: a 502.
    if (started.error.reason === "bad-request")
      throw new Problem(
        "upstream-failed",
        `${started.error.detail} (Is ${CALLBACK_PATH} of this gateway's address whitelisted for the ${input.environment} environment?)`,
      );
    throw problemOf(started.error);
  }
  const validUntil = started.value.ValidUntilDateTimeOffset
    ? Date.parse(started.value.ValidUntilDateTimeOffset)
    : stateExpiresAt;
  return {
    temporaryUrl: started.value.TemporaryUrl,
    expiresAt: new Date(Math.min(validUntil, stateExpiresAt)).toISOString(),
    environment: input.environment,
  };
}
