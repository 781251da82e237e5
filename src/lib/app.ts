/**
 * @module
 * Hono typing of the gateway: its bindings and the per-request context variables.
 */
import type { Bindings } from "./config";

/** Hono environment of every gateway router. */
export interface GatewayApp {
  Bindings: Bindings;
  Variables: { requestId: string };
}
