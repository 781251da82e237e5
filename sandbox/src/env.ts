/**
 * @module
 * The sandbox Worker's bindings. Keys are plain vars: they are the sandbox's own, safe to commit,
 * and the gateway's local configuration names the same values.
 */
import type { SandboxClient } from "./durable/client";
import type { SandboxPlatform } from "./durable/platform";

export interface SandboxEnv {
  /**
   * One `SandboxPlatform` per environment (`demo`, `production`): keys, clients, tokens, rate
   * limit.
   */
  PLATFORM: DurableObjectNamespace<SandboxPlatform>;
  /** One `SandboxClient` per environment and client: that client's accounting data. */
  CLIENTS: DurableObjectNamespace<SandboxClient>;
  DEMO_APPLICATION_KEY: string;
  DEMO_SUBSCRIPTION_KEY: string;
  PRODUCTION_APPLICATION_KEY: string;
  PRODUCTION_SUBSCRIPTION_KEY: string;
  /** "true" serves `/_sandbox/*`; anything else answers 404 there. */
  SANDBOX_CONTROL?: string;
  /**
   * Origin of the onboarding approval page in TemporaryUrls (`http://127.0.0.1:8788` under `npm
   * start`), for when the caller reaches the sandbox at an address a browser cannot (a service
   * binding); the request's own origin when unset.
   */
  SANDBOX_PUBLIC_URL?: string;
  /** "true" lets plain HTTP through on any host (loopback is always let through). */
  SANDBOX_ALLOW_PLAIN_HTTP?: string;
}

/** The two environments of the API; nothing crosses between them. */
export const ENVIRONMENTS = ["demo", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** The application and subscription key the sandbox accepts for `environment`. */
export function keysOf(
  env: SandboxEnv,
  environment: Environment,
): { applicationKey: string; subscriptionKey: string } {
  return environment === "demo"
    ? { applicationKey: env.DEMO_APPLICATION_KEY, subscriptionKey: env.DEMO_SUBSCRIPTION_KEY }
    : {
        applicationKey: env.PRODUCTION_APPLICATION_KEY,
        subscriptionKey: env.PRODUCTION_SUBSCRIPTION_KEY,
      };
}
