/**
 * @module
 * Onboarding's Initiate and Finalize: no tenant and no token yet, so not through `callUpstream`,
 * but with the subscription key and a permit of the shared budget. Neither is retried: Finalize
 * is single-use upstream.
 */
import { z } from "zod";
import { readConfig, type Bindings, type Environment } from "../kernel/config";
import { fail, ok, type Outcome } from "../kernel/outcome";
import { governorStub } from "../kernel/stubs";
import { leaving } from "../upstream/departure";
import { exchange, retryAfterSeconds } from "../upstream/transport";

/** The governor's queue for onboarding: never a tenant's name (a slug has no underscore). */
const ONBOARDING_QUEUE = "_onboarding";
/** How long an onboarding call may wait for a permit, ms: a person is waiting for a page. */
const PERMIT_WAIT_MS = 10_000;
const MAX_DETAIL_CHARS = 300;

export const InitiateAnswer = z.object({
  TemporaryUrl: z.url({ protocol: /^https?$/ }),
  ValidUntilDateTimeOffset: z.iso.datetime({ offset: true }).nullish(),
});

/** Each client's key is a secret, and goes nowhere but into a tenant's object. */
export const FinalizeAnswer = z.object({
  OnboardedClientsInformation: z
    .array(
      z.object({
        ClientKey: z.string().min(1).max(200),
        ClientName: z.string().nullish(),
        ClientOrganizationNumber: z.string().nullish(),
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
  UserEmail: z.string().nullish(),
});

/** The ProblemDetails' detail or title (keys in any case), short, for the operator. */
function problemText(body: unknown): string {
  if (typeof body !== "object" || body === null) return "no details";
  const fields = new Map(Object.entries(body).map(([k, v]) => [k.toLowerCase(), v]));
  const text = [fields.get("detail"), fields.get("title"), fields.get("message")].find(
    (v): v is string => typeof v === "string" && v.length > 0,
  );
  return (text ?? "no details").slice(0, MAX_DETAIL_CHARS);
}

/**
 * One onboarding call, its 200 parsed with `schema`; a 400 is `bad-request`, anything else
 * `unavailable`. Never throws; no key goes into a detail.
 */
export async function onboardingCall<T extends z.ZodType>(
  env: Bindings,
  environment: Environment,
  op: "Initiate" | "Finalize",
  body: object,
  schema: T,
): Promise<Outcome<z.output<T>>> {
  const config = readConfig(env).environments[environment];
  if (!config.ok) return fail("misconfigured", config.detail);
  const governor = governorStub(env, environment);
  const permit = await governor.acquire(`${environment}:${ONBOARDING_QUEUE}`, PERMIT_WAIT_MS);
  if (!permit.ok)
    return fail(
      "unavailable",
      `The ${environment} environment's shared rate limit leaves no room for ${op} now.`,
      permit.retryAfterSeconds,
    );
  const result = await leaving(
    governor,
    permit,
    exchange(env, `${config.config.apiBaseUrl}/Onboarding/${op}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "ocp-apim-subscription-key": config.config.subscriptionKey,
        "user-agent": "ledgergate",
      },
      body: JSON.stringify(body),
    }),
  );
  if (!result.ok)
    return fail(
      "unavailable",
      `Onboarding ${op} ${result.failure === "timeout" ? "timed out" : "could not reach the accounting API"}.`,
    );
  const res = result.response;
  if (res.status === 429) {
    const wait = retryAfterSeconds(res.headers.get("retry-after"));
    await governor.throttled(wait, permit.permit);
    return fail("unavailable", `The accounting API answered 429 to ${op}.`, wait);
  }
  const answer: unknown = await res.json().catch(() => null);
  if (res.status === 400)
    return fail("bad-request", `The accounting API refused ${op}: ${problemText(answer)}`);
  if (res.status === 401 || res.status === 403)
    return fail(
      "unavailable",
      `The accounting API refused the ${environment} environment's subscription key (HTTP ${res.status}).`,
    );
  if (res.status !== 200)
    return fail("unavailable", `The accounting API answered HTTP ${res.status} to ${op}.`);
  const parsed = schema.safeParse(answer);
  return parsed.success
    ? ok(parsed.data)
    : fail("unavailable", `The accounting API answered ${op} with an unexpected body.`);
}
