/**
 * @module
 * Hono typing shared by the sandbox's routers, and the stubs of its two Durable Objects.
 */
import type { Environment } from "./env";

/** Hono environment of the sandbox: bindings, and what the gate learned about the caller. */
export interface SandboxApp {
  Bindings: SandboxEnv;
  Variables: {
    environment: Environment;
    clientId: string;
    integration: string;
    privileges: string[];
  };
}

/** The platform object of an environment. */
export function platformOf(env: SandboxEnv, environment: Environment) {
  return env.PLATFORM.get(env.PLATFORM.idFromName(environment));
}

/** The data object of one client in one environment. */
export function clientOf(env: SandboxEnv, environment: Environment, clientId: string) {
  return env.CLIENTS.get(env.CLIENTS.idFromName(`${environment}:${clientId}`));
}
