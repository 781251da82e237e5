/**
 * Helpers for the sandbox's tests: calls through the real Worker (`exports.default`), clients made
 * with the control API, tokens from the real token endpoint.
 */
import { env, exports } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { expect, vi } from "vitest";
import { Store, type Dto } from "../../sandbox/src/engine/store";

/**
 * Holds the sandbox's clock still: its Durable Objects run in the tests' isolate and read `Date` on
 * every call, so from here a token's lifetime or a delivery's delay is an exact figure, and
 * `advanceClock` ends it with no wait. Only `Date` is faked (I/O and timers run as usual); a file
 * that calls this restores the clock with `afterEach(() => vi.useRealTimers())`.
 */
export function holdClock(): void {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
}

/** Moves the held clock `ms` ahead (holding it first if it is not held yet). */
export function advanceClock(ms: number): void {
  if (!vi.isFakeTimers()) holdClock();
  vi.setSystemTime(Date.now() + ms);
}

/** Base URL of the calls; HTTPS, as the real API requires. */
export const BASE = "https://sandbox.test";

type Environment = "demo" | "production";

const worker = exports.default;

/** A request to the sandbox Worker. */
export function call(path: string, init?: RequestInit): Promise<Response> {
  return worker.fetch(path.startsWith("http") ? path : BASE + path, init);
}

/** A JSON request to the control API; throws unless it answers `expected`. */
export async function control<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  expected = 200,
): Promise<T> {
  const res = await call(`/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(expected);
  return (res.status === 204 ? null : await res.json()) as T;
}

/** Resets the sandbox; the rate limit is lifted unless a test is about it. */
export async function fresh(
  settings: Record<string, unknown> = { rateLimitPerSecond: 10_000 },
): Promise<void> {
  await control("POST", "/reset", undefined, 204);
  await control("PUT", "/settings", settings);
}

/** The sandbox's application and subscription keys. */
/** An application's keys. */
interface Keys {
  applicationKey: string;
  subscriptionKey: string;
}

/** Each environment's keys: ledgergate's integration's, and another's (`other`). */
export async function keys(): Promise<Record<Environment, Keys & { other: Keys }>> {
  return control("GET", "/keys");
}

/** Roots of the environments, as the real API spells them. */
export const ROOT: Record<Environment, string> = { demo: "/Demo", production: "" };

/** A new client with its key. */
export async function newClient(environment: Environment, extra: Record<string, unknown> = {}) {
  return control<{ clientId: string; clientKey: string; environment: Environment }>(
    "POST",
    "/clients",
    { environment, ...extra },
    201,
  );
}

/** A raw token request. */
export function requestToken(
  environment: Environment,
  init: {
    basic?: string | null;
    subscriptionKey?: string | null;
    body?: string;
    contentType?: string;
  },
) {
  const headers: Record<string, string> = {
    "content-type": init.contentType ?? "application/x-www-form-urlencoded; charset=utf-8",
  };
  if (init.basic) headers.authorization = `Basic ${init.basic}`;
  if (init.subscriptionKey) headers["ocp-apim-subscription-key"] = init.subscriptionKey;
  return call(`${ROOT[environment]}/OAuth/Token`, {
    method: "POST",
    headers,
    body: init.body ?? "grant_type=client_credentials",
  });
}

/** A token for `clientKey`; throws unless the endpoint issues one. */
export async function tokenFor(environment: Environment, clientKey: string): Promise<string> {
  const k = (await keys())[environment];
  const res = await requestToken(environment, {
    basic: btoa(`${k.applicationKey}:${clientKey}`),
    subscriptionKey: k.subscriptionKey,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A v2 call with a token and the environment's subscription key. */
export async function api(
  environment: Environment,
  token: string | null,
  path: string,
  init: RequestInit & { subscriptionKey?: string | null } = {},
) {
  const k = (await keys())[environment];
  const headers = new Headers(init.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  const sub = init.subscriptionKey === undefined ? k.subscriptionKey : init.subscriptionKey;
  if (sub) headers.set("ocp-apim-subscription-key", sub);
  return call(`${ROOT[environment]}/v2${path}`, { ...init, headers });
}

/** A client with a token, ready for v2 calls. */
export async function session(
  environment: Environment = "demo",
  extra: Record<string, unknown> = {},
) {
  const client = await newClient(environment, extra);
  const token = await tokenFor(environment, client.clientKey);
  return {
    ...client,
    token,
    api: (path: string, init?: RequestInit) => api(environment, token, path, init),
  };
}

/** A JSON body for `init`. */
export function json(
  body: unknown,
  method = "POST",
  contentType = "application/json",
): RequestInit {
  return { method, headers: { "content-type": contentType }, body: JSON.stringify(body) };
}

/**
 * Puts records straight into a client's store, for kinds API v2 has no way to write (incoming
 * invoices, assignments' service tasks): each row is stored as it is under its `Id` (and `parent`).
 */
export async function putRecords(
  s: { environment: Environment; clientId: string },
  kind: string,
  rows: Dto[],
  parent?: string,
): Promise<void> {
  const ns = env.CLIENTS;
  await runInDurableObject(ns.get(ns.idFromName(`${s.environment}:${s.clientId}`)), (_i, state) => {
    const store = new Store(state.storage.sql);
    for (const r of rows)
      store.put(kind, String(r.Id), r, { parent: parent ?? null, owner: "test" });
  });
}

/** The kinds of records in a client's store, with how many of each: what a call left behind. */
export async function storedKinds(s: {
  environment: Environment;
  clientId: string;
}): Promise<Record<string, number>> {
  const ns = env.CLIENTS;
  return runInDurableObject(ns.get(ns.idFromName(`${s.environment}:${s.clientId}`)), (_i, state) =>
    Object.fromEntries(
      state.storage.sql
        .exec<{ kind: string; n: number }>("SELECT kind, COUNT(*) AS n FROM records GROUP BY kind")
        .toArray()
        .map((r) => [r.kind, r.n]),
    ),
  );
}
