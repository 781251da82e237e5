/**
 * @module
 * The sandbox's environments and its keys. Its bindings are `SandboxEnv`, generated from
 * wrangler.toml (worker-configuration.d.ts, `npm run generate:env`) with the optional vars of
 * optional-bindings.d.ts. Keys are plain vars: they are the sandbox's own, safe to commit, and the
 * gateway's local configuration names the same values.
 */

/** The two environments of the API; nothing crosses between them. */
export const ENVIRONMENTS = ["demo", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** An application's keys: the one it signs token requests with, and the one its calls carry. */
export interface ApplicationKeys {
  applicationKey: string;
  subscriptionKey: string;
}

/** The application and subscription key of ledgergate's integration in `environment`. */
export function keysOf(env: SandboxEnv, environment: Environment): ApplicationKeys {
  return environment === "demo"
    ? { applicationKey: env.DEMO_APPLICATION_KEY, subscriptionKey: env.DEMO_SUBSCRIPTION_KEY }
    : {
        applicationKey: env.PRODUCTION_APPLICATION_KEY,
        subscriptionKey: env.PRODUCTION_SUBSCRIPTION_KEY,
      };
}

/**
 * The keys of another vendor's integration in `environment`: the same clients' books, its own
 * subscription key and so its own rate limit, as the API counts per subscription key.
 */
export function otherKeysOf(env: SandboxEnv, environment: Environment): ApplicationKeys {
  return environment === "demo"
    ? {
        applicationKey: env.DEMO_OTHER_APPLICATION_KEY,
        subscriptionKey: env.DEMO_OTHER_SUBSCRIPTION_KEY,
      }
    : {
        applicationKey: env.PRODUCTION_OTHER_APPLICATION_KEY,
        subscriptionKey: env.PRODUCTION_OTHER_SUBSCRIPTION_KEY,
      };
}

/** Every application the sandbox accepts in `environment`: ledgergate's, then the other one. */
export function applicationsOf(env: SandboxEnv, environment: Environment): ApplicationKeys[] {
  return [keysOf(env, environment), otherKeysOf(env, environment)];
}
