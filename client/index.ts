/**
 * @module
 * `ledgergate/client`: typed calls to a ledgergate gateway, on `openapi-fetch`. The path types are
 * generated from the gateway's own OpenAPI documents (`/openapi.json` and `/v2/openapi.json`) by
 * scripts/generate-client.mjs into client/generated/, and checked for drift by `npm test`.
 */
import createClient, { type ClientOptions } from "openapi-fetch";
import type { ExactClient } from "./exact.js";
import type { paths as GatewayPaths } from "./generated/gateway.js";
import type { paths as V2Paths } from "./generated/v2.js";

export type { GatewayPaths, V2Paths };
export type { ExactClient, ExactInit, ExactMethod } from "./exact.js";
export type { components as GatewayComponents } from "./generated/gateway.js";
export type { components as V2Components } from "./generated/v2.js";

/** Options of {@link createLedgergateClient}. */
export interface LedgergateClientOptions {
  /**
   * Where the gateway answers, e.g. `https://ledgergate.example.com` or `http://127.0.0.1:8787`.
   */
  baseUrl: string;
  /** The tenant's gateway key; sent as `Authorization: Bearer <key>` on every call. */
  gatewayKey: string;
  /**
   * Another `fetch`, e.g. a service binding's (`env.LEDGERGATE.fetch.bind(env.LEDGERGATE)`) or a
   * test double.
   */
  fetch?: ClientOptions["fetch"];
}

/** The two typed clients of one gateway key. */
export interface LedgergateClient {
  /**
   * API v2 through the gateway; paths as in the API, relative to `/v2` (`v2.GET("/Customers")`).
   */
  v2: ExactClient<V2Paths>;
  /**
   * The gateway's own routes (`/healthz`, `/orders/...`, `/admin/...`); paths as the gateway serves
   * them.
   */
  gateway: ExactClient<GatewayPaths>;
}

/**
 * Typed clients for one tenant of a gateway: the key is set once, here.
 *
 * Operator routes (`/admin/*`) take the operator's token instead of a gateway key: pass
 * `headers: { authorization: "Bearer <ADMIN_TOKEN>" }` on those calls.
 *
 * @param options - the gateway's address, the gateway key, optionally a `fetch`
 * @returns `{ v2, gateway }`, two `openapi-fetch` clients with exact request types
 * @see https://openapi-ts.dev/openapi-fetch/ for calls, middleware and error handling
 * @example
 * const lg = createLedgergateClient({ baseUrl: "http://127.0.0.1:8787", gatewayKey });
 * const { data, error } = await lg.v2.GET("/Customers/{id}", { params: { path: { id: "42" } } });
 */
export function createLedgergateClient(options: LedgergateClientOptions): LedgergateClient {
  if (!options.baseUrl) throw new TypeError("createLedgergateClient: baseUrl is required");
  if (!options.gatewayKey) throw new TypeError("createLedgergateClient: gatewayKey is required");
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const shared: ClientOptions = { headers: { authorization: `Bearer ${options.gatewayKey}` } };
  // Left out when not given, so openapi-fetch picks up globalThis.fetch at call time (a test may
  // stub it).
  if (options.fetch) shared.fetch = options.fetch;
  // The same openapi-fetch objects, typed with exact options (client/exact.ts): a misspelt body
  // property is a compile error, not a 400 from the API at run time.
  return {
    v2: createClient<V2Paths>({
      ...shared,
      baseUrl: `${baseUrl}/v2`,
    }) as unknown as ExactClient<V2Paths>,
    gateway: createClient<GatewayPaths>({
      ...shared,
      baseUrl,
    }) as unknown as ExactClient<GatewayPaths>,
  };
}
