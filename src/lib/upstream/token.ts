/**
 * @module
 * The client-credentials request to the API's token endpoint, and what its answer means.
 */
import { z } from "zod";
import type { Bindings, EnvironmentConfig } from "../config";
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
