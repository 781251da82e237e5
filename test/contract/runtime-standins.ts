/**
 * @module
 * Stand-ins for the modules that exist only inside workerd (`cloudflare:workers`,
 * `cloudflare:workflows`) and for the docs page's script (a text module, wrangler `rules`), so that
 * the gateway's modules (the app, its route declarations, the OpenAPI builders) load in Node. One
 * set for both of its users: the contract tests get it through the aliases in vitest.config.ts, and
 * scripts/generate-client.mjs resolves the same specifiers to this file when esbuild bundles the
 * documents. Both only build the OpenAPI documents and never run a Durable Object, a Workflow or a
 * request, so each stand-in is just enough to be imported and extended.
 */

/**
 * The runtime's `Cloudflare.compatibilityFlags`, with the flag the gateway's wrangler.toml sets:
 * the OAuth library (`@cloudflare/workers-oauth-provider`, which imports `cloudflare:workers` and so
 * loads after this module) reads it when it loads, and warns in Node where there is none.
 */
(globalThis as { Cloudflare?: unknown }).Cloudflare ??= {
  compatibilityFlags: { global_fetch_strictly_public: true },
};

/** What `cloudflare:workers`' entrypoint classes keep: their context and bindings. */
class Entrypoint {
  ctx: unknown;
  env: unknown;
  constructor(ctx: unknown, env: unknown) {
    this.ctx = ctx;
    this.env = env;
  }
}

/** `cloudflare:workers`' base class of Durable Objects. */
export class DurableObject extends Entrypoint {}

/** `cloudflare:workers`' base class of Workflows. */
export class WorkflowEntrypoint extends Entrypoint {}

/** `cloudflare:workers`' base class of RPC entrypoints. */
export class WorkerEntrypoint extends Entrypoint {}

/** `cloudflare:workers`' base class of RPC objects. */
// Empty on purpose: nothing here is ever passed over RPC.
// eslint-disable-next-line @typescript-eslint/no-extraneous-class
export class RpcTarget {}

/** `cloudflare:workers`' bindings and exports: empty, nothing here reads a binding. */
export const env: Record<string, unknown> = {};
export const exports: Record<string, unknown> = {};

/** `cloudflare:workflows`' error that fails a run for good. */
export class NonRetryableError extends Error {}

/** Text modules (wrangler `rules`, here the docs page's script): empty, no page is served. */
export default "";
