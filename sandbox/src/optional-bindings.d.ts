/**
 * The sandbox's vars that sandbox/wrangler.toml does not set, so `wrangler types` cannot see them
 * (scripts/generate-env-types.mjs): `npm start` (scripts/dev.mjs) and the tests set them. Merged
 * into the generated `SandboxEnv` and into `Cloudflare.Env` (what `cloudflare:workers` exports).
 */
interface SandboxOptionalBindings {
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

// Declaration merging: an empty body that adds the interface above to the generated ones.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
interface SandboxEnv extends SandboxOptionalBindings {}

declare namespace Cloudflare {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Env extends SandboxOptionalBindings {}
}
