/**
 * @module
 * Who an MCP session acts for: a tenant, a scope and an id for the audit, made at the door from a
 * gateway key or an OAuth grant (`assistants/mcp-key.ts`). The tool layer never sees a credential.
 */
import { z } from "zod";
import type { Environment } from "../../kernel/config";
import type { TenantName } from "../../kernel/stubs";
import type { OperationClass } from "./operation-class";

/** What a session may do: `read`, `draft` (also writes of the `draft` class), `write` (all). */
export const Scope = z.enum(["read", "draft", "write"]);
export type Scope = z.output<typeof Scope>;

/** An authenticated principal: never a credential, only what it was found to be. */
export interface Principal {
  tenant: TenantName;
  environment: Environment;
  scope: Scope;
  /** `key:` and the first 8 hex of a key's SHA-256 (tells keys apart), or `grant:<id>`. */
  id: string;
  /** The endpoint's scope: a grant needing more, up to this, gets `403 insufficient_scope`. */
  ceiling: Scope;
}

const ALLOWED: Record<Scope, ReadonlySet<OperationClass>> = {
  read: new Set(["read"]),
  draft: new Set(["read", "draft"]),
  write: new Set(["read", "draft", "write"]),
};

/**
 * The narrower of two scopes: what a grant of one may do on an endpoint of another.
 * @example narrower("write", "draft") // "draft"
 */
export function narrower(a: Scope, b: Scope): Scope {
  return Scope.options.indexOf(a) <= Scope.options.indexOf(b) ? a : b;
}

/**
 * Whether `scope` may perform an operation of class `cls`.
 * @example allows("draft", "write") // false
 */
export function allows(scope: Scope, cls: OperationClass): boolean {
  return ALLOWED[scope].has(cls);
}

/** The MCP endpoints and the scope each allows: narrowing is the key holder's own choice. */
export const ENDPOINT_SCOPES = {
  "/mcp": "write",
  "/mcp/draft": "draft",
  "/mcp/readonly": "read",
} as const satisfies Record<string, Scope>;
export type McpEndpoint = keyof typeof ENDPOINT_SCOPES;
