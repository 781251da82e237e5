/**
 * @module
 * Hono typing of the gateway: its bindings and the per-request context variables.
 */
import type { Bindings, Config, Environment } from "./config";
import type { Scope } from "../assistants/mcp/principal";
import type { TenantName } from "./stubs";
import type { AccessCache } from "../upstream/access-cache";

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

/**
 * Who a request under an OAuth grant acts for (an assistant's MCP connection): the grant's id and
 * its tenant, read from the token's sealed props; the tenant's object checks the grant on each
 * call.
 */
export interface GrantCaller {
  /** The grant's id (`assistants/tenant/assistant-grants.ts`), never a credential. */
  grant: string;
  tenant: TenantName;
  environment: Environment;
}

/** Whatever authenticated a call to a tenant's state: a gateway key or an OAuth grant. */
export type Holder = Caller | GrantCaller;

/** What the MCP door (`assistants/mcp-key.ts`) found the request to be. */
export interface McpAuth {
  holder: Holder;
  /** The principal's id for the audit: `key:<hash prefix>` or `grant:<grant id>`. */
  principalId: string;
  /** A grant's scope (the endpoint narrows it further); null for a gateway key, which holds all. */
  granted: Scope | null;
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
    /** Set by the `mcpKey()` middleware. */
    mcpAuth: McpAuth;
    /** The isolate's verified keys (`withAccessCache`). */
    accessCache: AccessCache;
    /**
     * Fields a handler adds to its request's log line (never secrets: the logger redacts by name
     * anyway).
     */
    logFields: object;
  };
}
