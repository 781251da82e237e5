/**
 * @module
 * The client-credentials request to the API's token endpoint, and what its answer means.
 */
import { z } from "zod";
import { environmentConfig, type Bindings, type Environment, type EnvironmentConfig } from "../config";
import { fail, ok, type Outcome } from "../outcome";
import { governorStub, type TenantName } from "../stubs";
import { exchange, retryAfterSeconds } from "./transport";

const TokenResponse = z.object({ access_token: z.string().min(1), token_type: z.string(), expires_in: z.number().int().positive() });

/** A token, or why there is none: `refused` (the keys are wrong: do not retry), `failed` (transient), `throttled`. */
export type TokenOutcome =
  | { ok: true; accessToken: string; expiresIn: number }
  | { ok: false; kind: "refused"; reason: string }
  | { ok: false; kind: "failed"; reason: string }
  | { ok: false; kind: "throttled"; retryAfterSeconds: number };

/** Asks for a token for `clientKey`. Never throws; never puts a key into `reason`. */
export async function requestToken(env: Bindings, config: EnvironmentConfig, clientKey: string): Promise<TokenOutcome> {
  const result = await exchange(env, config.authUrl, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${config.applicationKey}:${clientKey}`)}`,
      "ocp-apim-subscription-key": config.subscriptionKey,
      "content-type": "application/x-www-form-urlencoded; charset=utf-8",
      "user-agent": "ledgergate",
    },
    body: "grant_type=client_credentials",
  });
  if (!result.ok) return { ok: false, kind: "failed", reason: `token endpoint ${result.failure === "timeout" ? "timed out" : "connection failed"}` };
  const res = result.response;
  if (res.status === 429) return { ok: false, kind: "throttled", retryAfterSeconds: retryAfterSeconds(res.headers.get("retry-after")) };
  const body: unknown = await res.json().catch(() => null);
  if (res.status === 200) {
    const parsed = TokenResponse.safeParse(body);
    return parsed.success
      ? { ok: true, accessToken: parsed.data.access_token, expiresIn: parsed.data.expires_in }
      : { ok: false, kind: "failed", reason: "token endpoint answered 200 without a token" };
  }
  if (res.status === 400) {
    const error = typeof body === "object" && body !== null && "error" in body ? String(body.error) : "HTTP 400";
    return { ok: false, kind: "refused", reason: `the token endpoint refused the keys (${error})` };
  }
  // 401/403 come from the gateway in front of the API: the environment's subscription key, not the
  // tenant's client key, is wrong. Blaming the tenant would mark every tenant rejected at once.
  if (res.status === 401 || res.status === 403) return { ok: false, kind: "failed", reason: `the API refused the environment's subscription key (HTTP ${res.status})` };
  return { ok: false, kind: "failed", reason: `token endpoint answered HTTP ${res.status}` };
}

/** How long a token request may wait for a rate permit, ms. */
const TOKEN_PERMIT_WAIT_MS = 10_000;

/**
 * One token request for a tenant's client key, through the environment's rate governor (token
 * requests spend the shared 10 req/s too). A refusal of the key is `unprocessable`; a 429 pauses
 * the environment for its Retry-After.
 */
export async function issueToken(env: Bindings, environment: Environment, tenant: TenantName, clientKey: string): Promise<Outcome<{ accessToken: string; expiresIn: number }>> {
  const config = environmentConfig(env, environment);
  if (!config.ok) return fail("misconfigured", config.detail);
  const governor = governorStub(env, environment);
  const permit = await governor.acquire(tenant, TOKEN_PERMIT_WAIT_MS);
  if (!permit.ok) return fail("unavailable", "The environment's rate limit leaves no room for a token request now.", permit.retryAfterSeconds);
  const outcome = await requestToken(env, config.config, clientKey);
  if (outcome.ok) return ok({ accessToken: outcome.accessToken, expiresIn: outcome.expiresIn });
  if (outcome.kind === "throttled") {
    await governor.pause(outcome.retryAfterSeconds);
    return fail("unavailable", "The token endpoint answered 429.", outcome.retryAfterSeconds);
  }
  return fail(outcome.kind === "refused" ? "unprocessable" : "unavailable", outcome.reason);
}
