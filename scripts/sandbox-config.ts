/**
 * @module
 * The sandbox Worker's settings as wrangler reads them from sandbox/wrangler.toml, read here once
 * for the repository's own tests (vitest.config.ts attaches the bundle of scripts/sandbox-bundle.ts
 * as an auxiliary Worker) and for the package (scripts/build.mjs injects them into
 * `ledgergate/sandbox`): the toml stays the one place they are written. Plain TypeScript that Node
 * 24 runs as is (type stripping), imported by both.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";

/** What the sandbox's wrangler.toml sets, in Miniflare's terms. */
export interface SandboxConfig {
  /** The Worker's name, which the gateway's service binding names. */
  name: string;
  compatibilityDate: string | undefined;
  compatibilityFlags: string[];
  /** `[vars]`: the sandbox's own keys. */
  vars: Record<string, string>;
  /** Durable Object bindings, binding name to class. */
  durableObjects: Record<string, { className: string; useSQLite: boolean }>;
}

/**
 * Reads sandbox/wrangler.toml with wrangler's own reader, so the settings are what `wrangler dev`
 * uses.
 *
 * @returns the sandbox's name, compatibility settings, vars and Durable Object bindings.
 * @example
 * const { name, vars } = readSandboxConfig();
 */
export function readSandboxConfig(): SandboxConfig {
  const config = unstable_readConfig({
    config: join(dirname(fileURLToPath(import.meta.url)), "..", "sandbox", "wrangler.toml"),
  });
  // wrangler types these options loosely; these are the fields the sandbox's wrangler.toml sets.
  const workerOptions = unstable_getMiniflareWorkerOptions(config).workerOptions as {
    compatibilityDate?: string;
    compatibilityFlags?: string[];
    bindings?: Record<string, string>;
    durableObjects?: Record<string, { className: string; useSQLite?: boolean }>;
  };
  if (!config.name)
    throw new Error(
      "sandbox/wrangler.toml sets no name; the gateway's service binding and the tests need it",
    );
  return {
    name: config.name,
    compatibilityDate: workerOptions.compatibilityDate,
    compatibilityFlags: workerOptions.compatibilityFlags ?? [],
    vars: workerOptions.bindings ?? {},
    durableObjects: Object.fromEntries(
      Object.entries(workerOptions.durableObjects ?? {}).map(([binding, d]) => [
        binding,
        { className: d.className, useSQLite: d.useSQLite === true },
      ]),
    ),
  };
}
