/**
 * @module
 * Who an MCP session acts for: an authenticated principal (a tenant, a scope, and an id for the
 * audit), as the tool layer sees it. The tool layer never sees a credential: a gateway key is
 * checked and turned into a principal at the door (`assistants/mcp-key.ts`), and an OAuth grant of
 * one tenant and one scope (`assistants/oauth/`) becomes the same principal there. What the key or
 * grant opens of the tenant's object is the tools' `AssistantPort` (`port.ts`, `holder-port.ts`),
 * built beside it.
 */
import { z } from "zod";
import type { Environment } from "../../kernel/config";
import type { TenantName } from "../../kernel/stubs";
import type { OperationClass } from "./operation-class";

/**
 * What a session may do: `read` (reads only; the write tools are not listed), `draft` (also
 * prepare and confirm writes of the `draft` class), `write` (every write, still through prepare
 * and confirm).
 */
export const Scope = z.enum(["read", "draft", "write"]);
export type Scope = z.output<typeof Scope>;

/** An authenticated principal: never a credential, only what it was found to be. */
export interface Principal {
  tenant: TenantName;
  environment: Environment;
  scope: Scope;
  /**
   * For the audit and the request log: `key:` and the first 8 hex of a gateway key's SHA-256 (not
   * enough to find the key, enough to tell keys apart); `grant:` and an OAuth grant's id.
   */
  id: string;
  /**
   * The endpoint's scope: the most a session here could have. A key's scope is its endpoint's, so
   * it never falls short of it; a grant's may (the person picked less), and a tool call that needs
   * more than the grant but no more than this is answered `403 insufficient_scope`, so the client
   * can ask the person again (step-up).
   */
  ceiling: Scope;
}

/** The classes each scope allows: each scope is the one before it and more. */
const ALLOWED: Record<Scope, ReadonlySet<OperationClass>> = {
  read: new Set(["read"]),
  draft: new Set(["read", "draft"]),
  write: new Set(["read", "draft", "write"]),
};

/**
 * The narrower of two scopes (each is the one before it and more): what a grant of one scope may
 * do on an endpoint of another.
 *
 * @example narrower("write", "draft") // "draft"
 */
export function narrower(a: Scope, b: Scope): Scope {
  return Scope.options.indexOf(a) <= Scope.options.indexOf(b) ? a : b;
}

/**
 * Whether `scope` may perform an operation of class `cls`.
 *
 * @example allows("draft", "write") // false
 */
export function allows(scope: Scope, cls: OperationClass): boolean {
  return ALLOWED[scope].has(cls);
}

/**
 * The MCP endpoints a gateway key may use, and the scope each gives it: the whole key on `/mcp`, a
 * key narrowed to drafts on `/mcp/draft`, to reads on `/mcp/readonly`. Narrowing is the key
 * holder's own choice (it holds the key's full power anyway), so a person can hand an assistant a
 * connection that cannot send or post.
 */
export const ENDPOINT_SCOPES = {
  "/mcp": "write",
  "/mcp/draft": "draft",
  "/mcp/readonly": "read",
} as const satisfies Record<string, Scope>;
export type McpEndpoint = keyof typeof ENDPOINT_SCOPES;
