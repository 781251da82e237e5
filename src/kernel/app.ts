/** @module Hono typing of the gateway: its bindings and the per-request context variables. */
import type { Bindings, Config, Environment } from "./config";
import type { Scope } from "../assistants/mcp/principal";
import type { TenantName } from "./stubs";
import type { AccessCache } from "../upstream/access-cache";

/** Who a gateway key claims to be; the tenant's object authenticates the key on each call. */
export interface Caller {
  key: string;
  tenant: TenantName;
  environment: Environment;
}

/** Whom an OAuth grant acts for, from the token's sealed props; the object checks it per call. */
export interface GrantCaller {
  grant: string;
  tenant: TenantName;
  environment: Environment;
}

export type Holder = Caller | GrantCaller;

export interface McpAuth {
  holder: Holder;
  /** For the audit: `key:<hash prefix>` or `grant:<grant id>`. */
  principalId: string;
  /** A grant's scope (the endpoint narrows it further); null for a gateway key, which holds all. */
  granted: Scope | null;
}

export interface GatewayApp {
  Bindings: Bindings;
  Variables: {
    config: Config;
    requestId: string;
    caller: Caller;
    mcpAuth: McpAuth;
    accessCache: AccessCache;
    /** Fields a handler adds to its request's log line (redacted by name anyway). */
    logFields: object;
  };
}
