/**
 * @module
 * The client-credentials request to the API's token endpoint, and what its answer means.
 */
import { z } from "zod";
import {
  readConfig,
  type Bindings,
  type Environment,
  type EnvironmentConfig,
} from "../kernel/config";
import { fail, ok, type Outcome } from "../kernel/outcome";
import { governorStub, type TenantName } from "../kernel/stubs";
import { leaving } from "./departure";
import { exchange, retryAfterSeconds } from "./transport";

const TokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
});

/**
 * A token, or why there is none: `refused` (400: the client key or the application key is wrong),
 * `unsubscribed` (401/403: the environment's subscription key is wrong), `failed` (transient),
 * `throttled`.
 */
export type TokenOutcome =
  | { ok: true; accessToken: string; expiresIn: number }
  | { ok: false; kind: "refused" | "unsubscribed"; reason: string }
  | { ok: false; kind: "failed"; reason: string }
  | { ok: false; kind: "throttled"; retryAfterSeconds: number };

/** Asks for a token for `clientKey`. Never throws; never puts a key into `reason`. */
export async function requestToken(
  env: Bindings,
  config: EnvironmentConfig,
  clientKey: string,
): Promise<TokenOutcome> {
  const result = await exchange(env, config.authUrl, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${config.applicationKey}:${clientKey}`)}`, // both visible ASCII: checked by config.ts and issueToken
      "ocp-apim-subscription-key": config.subscriptionKey,
      "content-type": "application/x-www-form-urlencoded; charset=utf-8",
      "user-agent": "ledgergate",
    },
    body: "grant_type=client_credentials",
  });
  if (!result.ok)
    return {
      ok: false,
      kind: "failed",
      reason: `token endpoint ${result.failure === "timeout" ? "timed out" : "connection failed"}`,
    };
  const res = result.response;
  if (res.status === 429)
    return {
      ok: false,
      kind: "throttled",
      retryAfterSeconds: retryAfterSeconds(res.headers.get("retry-after")),
    };
  const body: unknown = await res.json().catch(() => null);
  if (res.status === 200) {
    const parsed = TokenResponse.safeParse(body);
    return parsed.success
      ? { ok: true, accessToken: parsed.data.access_token, expiresIn: parsed.data.expires_in }
      : { ok: false, kind: "failed", reason: "token endpoint answered 200 without a token" };
  }
  if (res.status === 400) {
    const error =
      typeof body === "object" && body !== null && "error" in body
        ? String(body.error)
        : "HTTP 400";
    return { ok: false, kind: "refused", reason: `the token endpoint refused the keys (${error})` };
  }
  // 401/403 come from the gateway in front of the API: the environment's subscription key, not the
  // tenant's client key, is wrong. Blaming the tenant would mark every tenant rejected at once.
  if (res.status === 401 || res.status === 403)
    return {
      ok: false,
      kind: "unsubscribed",
      reason: `the API refused the environment's subscription key (HTTP ${res.status})`,
    };
  return { ok: false, kind: "failed", reason: `token endpoint answered HTTP ${res.status}` };
}

/** How long a token request may wait for a rate permit, ms. */
const TOKEN_PERMIT_WAIT_MS = 10_000;
/**
 * Retry-After for a registration refused while the environment is suspect, s: time to fix a secret
 * and redeploy.
 */
const SUSPECT_RETRY_AFTER_SECONDS = 60;

/**
 * What a client key may contain: visible ASCII. The key travels in a Basic header
 * (`btoa(applicationKey:clientKey)`), which carries only Latin-1, and the API's client keys are
 * GUIDs; a space, an accented letter or a euro sign is a paste error, refused before anything is
 * sent rather than thrown as a 500 by `btoa` or spent on a request the API must refuse.
 */
const CLIENT_KEY_CHARS = /^[\x21-\x7e]+$/;

/**
 * One token request for a tenant's client key, through the environment's rate governor (token
 * requests spend the shared 10 req/s too). A 429 goes to the governor, which slows the pace.
 *
 * A refusal (`400 invalid_client`) is judged by the governor (`upstream/rate/key-health.ts`),
 * because the API answers a wrong application key exactly like a wrong client key: `unprocessable`
 * when the tenant's key is at fault (a registration answers 422, a stored key becomes `rejected`),
 * and `unavailable` (retried after a back-off) when several tenants are refused at once or, for a
 * `proven` key (one that got a token before), until another tenant's token shows the environment's
 * keys work.
 */
export async function issueToken(
  env: Bindings,
  environment: Environment,
  tenant: TenantName,
  clientKey: string,
  { proven = false }: { proven?: boolean } = {},
): Promise<Outcome<{ accessToken: string; expiresIn: number }>> {
  if (!CLIENT_KEY_CHARS.test(clientKey))
    return fail(
      "unprocessable",
      "The client key has characters a token request cannot carry (only visible ASCII, no spaces); nothing was sent.",
    );
  const config = readConfig(env).environments[environment];
  if (!config.ok) return fail("misconfigured", config.detail);
  const governor = governorStub(env, environment);
  const permit = await governor.acquire(tenant, TOKEN_PERMIT_WAIT_MS);
  if (!permit.ok)
    return fail(
      "unavailable",
      "The environment's rate limit leaves no room for a token request now.",
      permit.retryAfterSeconds,
    );
  const outcome = await leaving(governor, permit, requestToken(env, config.config, clientKey));
  if (outcome.ok) {
    await governor.tokenIssued(tenant);
    return ok({ accessToken: outcome.accessToken, expiresIn: outcome.expiresIn });
  }
  if (outcome.kind === "throttled") {
    await governor.throttled(outcome.retryAfterSeconds, permit.permit);
    return fail("unavailable", "The token endpoint answered 429.", outcome.retryAfterSeconds);
  }
  if (outcome.kind === "failed") return fail("unavailable", outcome.reason);
  const { verdict, refusedTenants } = await governor.tokenRefused(tenant, proven);
  // Never the tenant's fault, but reported all the same, so /healthz shows the environment suspect.
  if (outcome.kind === "unsubscribed") return fail("unavailable", outcome.reason);
  const keys = `${environment === "demo" ? "DEMO_" : "PRODUCTION_"}APPLICATION_KEY or …SUBSCRIPTION_KEY`;
  switch (verdict) {
    case "tenant":
      return fail("unprocessable", outcome.reason);
    case "environment":
      return fail(
        "unavailable",
        `${outcome.reason}; the token endpoint refused ${refusedTenants} tenants' keys since it last issued a token, so this environment's own keys (${keys}) are suspect. Once they are fixed this recovers by itself; until then it is retried after a back-off.`,
        SUSPECT_RETRY_AFTER_SECONDS,
      );
    case "unproven":
      return fail(
        "unavailable",
        `${outcome.reason}; this key got a token before, and no other tenant has got one since, so the environment's keys (${keys}) may be at fault. Retried after a back-off.`,
      );
  }
}
