// The test Worker's bindings (vitest.config.ts).
declare namespace Cloudflare {
  interface Env {
    ACCOUNTING_API: Fetcher;
  }
}
