// The test Worker's bindings (vitest.config.ts), as docs/sandbox.md shows them.
declare namespace Cloudflare {
  interface Env {
    SANDBOX: Fetcher;
  }
}
