/** @module The client-credentials request to the API's token endpoint, and what it means. */
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

/** `refused`: 400, the client or application key; `unsubscribed`: the subscription key. */
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
      // Locally only, as `callUpstream` sends it.
      ...(env.SANDBOX ? { "x-ledgergate-sent-at": String(Date.now()) } : {}),
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
  // 401/403 come from the gateway in front of the API: the subscription key is wrong, and blaming
  // the tenant would mark every tenant rejected at once.
  if (res.status === 401 || res.status === 403)
    return {
      ok: false,
      kind: "unsubscribed",
      reason: `the API refused the environment's subscription key (HTTP ${res.status})`,
    };
  return { ok: false, kind: "failed", reason: `token endpoint answered HTTP ${res.status}` };
}

const TOKEN_PERMIT_WAIT_MS = 10_000;
/** Retry-After while the environment is suspect, s: time to fix a secret and redeploy. */
const SUSPECT_RETRY_AFTER_SECONDS = 60;

/** Visible ASCII: a Basic header carries Latin-1 only, and client keys are GUIDs (else a typo). */
const CLIENT_KEY_CHARS = /^[\x21-\x7e]+$/;

/**
 * One token request under a permit of the environment's governor, which judges a refusal:
 * `unprocessable` when the tenant's key is at fault, `unavailable` when the environment's may be.
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
  // Never the tenant's fault, but reported, so /healthz shows the environment suspect.
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
