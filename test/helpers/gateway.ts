/**
 * Helpers for the gateway's tests: the gateway Worker itself (`exports.default`), and the sandbox
 * Worker it is bound to (its control API makes clients, sets faults and counts what arrived).
 */
import { env, exports } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import { expectDeclared } from "./answers";

type Environment = "demo" | "production";

const gateway = exports.default;
const sandbox = env.SANDBOX;

export const ADMIN = { authorization: "Bearer local-admin-token" };

/**
 * A request to the gateway. A JSON answer of the gateway's own routes must be what `/openapi.json`
 * declares for its route and status (`expectDeclared`), so every route test checks the document.
 */
export async function gw(path: string, init: RequestInit = {}): Promise<Response> {
  const url = `https://gateway.test${path}`;
  const res = await gateway.fetch(url, init);
  await expectDeclared(init.method ?? "GET", url, res);
  return res;
}

/** A JSON request to the sandbox's control API; throws unless it answers `expected`. */
export async function control<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  expected = 200,
): Promise<T> {
  const res = await sandbox.fetch(`https://sandbox.ledgergate.local/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(expected);
  return (res.status === 204 ? null : await res.json()) as T;
}

/** The sandbox's counters. */
export interface Stats {
  requests: number;
  throttled: number;
  tokenRequests: { total: number; byClient: Record<string, number> };
  environments: Record<Environment, { rejected: { token: number } }>;
}
export const stats = () => control<Stats>("GET", "/stats");

/** Resets the sandbox to the real API's defaults (10 req/s, 20-minute tokens), or to `settings`. */
export async function fresh(settings: Record<string, unknown> = {}): Promise<void> {
  await control("POST", "/reset", undefined, 204);
  if (Object.keys(settings).length) await control("PUT", "/settings", settings);
}

/**
 * Evicts the environment's rate governor, if it runs: the next call meets a fresh one, with no
 * grants, pace or pause in memory (it stores nothing).
 */
export async function evictGovernor(environment: Environment): Promise<void> {
  const governors = env.RATE_GOVERNOR;
  await evictDurableObject(governors.get(governors.idFromName(environment))).catch((e: unknown) => {
    // Never started, or evicted already: nothing is held in memory.
    if (!String(e).includes("not currently running")) throw e;
  });
}

let seq = 0;
/** A client slug no other test uses (the gateway's objects persist for the whole file). */
export function slug(prefix = "t"): string {
  return `${prefix}-${Date.now().toString(36)}-${(seq++).toString(36)}`;
}

/** A JSON body for `init`. */
export function json(
  body: unknown,
  method = "POST",
  headers: Record<string, string> = {},
): RequestInit {
  return {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

/** Registers a tenant on a new sandbox client; returns its gateway key and a v2 caller. */
export async function tenant(environment: Environment = "demo") {
  const client = await control<{ clientId: string; clientKey: string }>(
    "POST",
    "/clients",
    { environment, name: "Test AS" },
    201,
  );
  const slugName = slug();
  const res = await gw(
    "/admin/tenants",
    json(
      { client: slugName, environment, clientKey: client.clientKey, name: "Test AS" },
      "POST",
      ADMIN,
    ),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  const { gatewayKey, tenant: name } = (await res.json()) as { gatewayKey: string; tenant: string };
  return {
    ...client,
    client: slugName,
    name,
    environment,
    gatewayKey,
    v2: (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set("authorization", `Bearer ${gatewayKey}`);
      return gw(`/v2${path}`, { ...init, headers });
    },
  };
}
