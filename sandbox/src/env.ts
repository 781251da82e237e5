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
