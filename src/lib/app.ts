/**
 * @module
 * Hono typing of the gateway: its bindings and the per-request context variables.
 */
import type { Bindings, Config, Environment } from "./config";
import type { TenantName } from "./stubs";
import type { AccessCache } from "./upstream/access-cache";

/**
 * Who a request with a gateway key claims to be; the tenant's object authenticates the key on each
 * call.
 */
export interface Caller {
  /** The gateway key as presented. */
  key: string;
  tenant: TenantName;
  environment: Environment;
}

/** Hono environment of every gateway router. */
export interface GatewayApp {
  Bindings: Bindings;
  Variables: {
    /** The vars and secrets, parsed once (`withConfig`). */
    config: Config;
    requestId: string;
    /** Set by the `gatewayKey()` middleware. */
    caller: Caller;
    /** The isolate's verified keys (`withAccessCache`). */
    accessCache: AccessCache;
    /**
     * Fields a handler adds to its request's log line (never secrets: the logger redacts by name
     * anyway).
     */
    logFields: object;
  };
}
