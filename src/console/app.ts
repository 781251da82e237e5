/**
 * @module
 * Hono typing of the console's routers: the gateway's, plus the verified session of the request.
 */
import type { GatewayApp } from "../kernel/app";
import type { Session } from "./session";

/** What the session guard leaves for the handlers. */
export interface ConsoleSession {
  session: Session;
  /** The key sessions and CSRF tokens are signed with (derived from `ADMIN_TOKEN`). */
  key: CryptoKey;
  /** The session's CSRF token, for the pages' forms. */
  csrf: string;
}

/** Hono environment of the console's routers. */
export interface ConsoleApp {
  Bindings: GatewayApp["Bindings"];
  Variables: GatewayApp["Variables"] & { console: ConsoleSession };
}
