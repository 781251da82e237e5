/**
 * @module
 * `ledgergate/sandbox`: what an integrator's miniflare or `@cloudflare/vitest-plugin` setup needs
 * to attach the sandbox as a Worker of its own. The sandbox itself ships as one ready bundle next
 * to this module (`worker.js`, esbuild of `sandbox/src/index.ts`); its compatibility settings, vars
 * and Durable Objects are read from `sandbox/wrangler.toml` when the package is built
 * (scripts/build.mjs) and injected here, so there is no second copy of them to drift.
 *
 * This module runs in Node (a vitest or miniflare config); `sandboxClient` (./sandbox-client.ts),
 * re-exported here so one import serves both sides, runs in the test inside the Workers runtime.
 */
import { fileURLToPath } from "node:url";

/** What scripts/build.mjs reads from sandbox/wrangler.toml. */
interface BuiltSandboxConfig {
  name: string;
  compatibilityDate: string;
  compatibilityFlags: string[];
  vars: Record<string, string>;
  durableObjects: Record<
    "PLATFORM" | "CLIENTS" | "STRIPE" | "VIPPS",
    { className: string; useSQLite: boolean }
  >;
}

// Replaced with a JSON literal by esbuild's `define` at build time; never read from the source
// tree.
declare const __LEDGERGATE_SANDBOX_CONFIG__: BuiltSandboxConfig;
const built = __LEDGERGATE_SANDBOX_CONFIG__;

/**
 * The Worker's name in `sandbox/wrangler.toml`, and the default `name` of {@link sandboxWorker}.
 */
export const SANDBOX_WORKER_NAME: string = built.name;

/** `compatibility_date` of `sandbox/wrangler.toml`. */
export const SANDBOX_COMPATIBILITY_DATE: string = built.compatibilityDate;

/** `compatibility_flags` of `sandbox/wrangler.toml` (empty today). */
export const SANDBOX_COMPATIBILITY_FLAGS: readonly string[] = Object.freeze([
  ...built.compatibilityFlags,
]);

/**
 * The sandbox's Durable Object bindings and the class names the bundle exports for them:
 * `{ PLATFORM: "SandboxPlatform", CLIENTS: "SandboxClient", STRIPE: "SandboxStripe", VIPPS:
 * "SandboxVipps" }` (the last two, the stand-ins of Stripe's and Vipps MobilePay's APIs). All use SQLite storage.
 */
export const SANDBOX_DURABLE_OBJECTS: Readonly<
  Record<"PLATFORM" | "CLIENTS" | "STRIPE" | "VIPPS", string>
> = Object.freeze({
  PLATFORM: built.durableObjects.PLATFORM.className,
  CLIENTS: built.durableObjects.CLIENTS.className,
  STRIPE: built.durableObjects.STRIPE.className,
  VIPPS: built.durableObjects.VIPPS.className,
});

/**
 * The sandbox's default bindings: the `[vars]` of `sandbox/wrangler.toml` (its own application and
 * subscription keys per environment, safe to commit) plus `SANDBOX_CONTROL: "true"`, which serves
 * the control API under `/_sandbox/` (a test needs it to create clients; a plain deploy leaves it
 * off).
 */
export const SANDBOX_BINDINGS: Readonly<Record<string, string>> = Object.freeze({
  ...built.vars,
  SANDBOX_CONTROL: "true",
});

/** Absolute path of the bundled sandbox Worker (ES module) inside the installed package. */
export const SANDBOX_SCRIPT_PATH: string = fileURLToPath(new URL("./worker.js", import.meta.url));

/** Options of {@link sandboxWorker}. */
export interface SandboxWorkerOptions {
  /**
   * The Worker's name, which your service bindings point at. Default: {@link SANDBOX_WORKER_NAME}.
   */
  name?: string;
  /**
   * Bindings added to (or replacing) {@link SANDBOX_BINDINGS}, e.g. `{ SANDBOX_CONTROL: "false" }`.
   */
  bindings?: Record<string, string>;
}

/** A miniflare Worker definition of the sandbox, as `miniflare.workers` takes it. */
export interface SandboxWorkerDefinition {
  name: string;
  modules: true;
  scriptPath: string;
  compatibilityDate: string;
  compatibilityFlags: string[];
  bindings: Record<string, string>;
  durableObjects: Record<string, { className: string; useSQLite: boolean }>;
}

/**
 * The sandbox as a miniflare Worker: put it in `miniflare.workers` of `cloudflareTest(...)` (or of
 * `new Miniflare({ workers })`) and bind your Worker to it by name.
 *
 * @param options - another name, or bindings over the defaults
 * @returns a fresh object each call, safe to change
 * @see SANDBOX_BINDINGS for what is bound by default
 * @example
 * cloudflareTest({ miniflare: { serviceBindings: { ACCOUNTING_API: "ledgergate-sandbox" }, workers:
 * [sandboxWorker()] } })
 */
export function sandboxWorker(options: SandboxWorkerOptions = {}): SandboxWorkerDefinition {
  return {
    name: options.name ?? SANDBOX_WORKER_NAME,
    modules: true,
    scriptPath: SANDBOX_SCRIPT_PATH,
    compatibilityDate: SANDBOX_COMPATIBILITY_DATE,
    compatibilityFlags: [...SANDBOX_COMPATIBILITY_FLAGS],
    bindings: { ...SANDBOX_BINDINGS, ...options.bindings },
    durableObjects: {
      PLATFORM: { ...built.durableObjects.PLATFORM },
      CLIENTS: { ...built.durableObjects.CLIENTS },
      STRIPE: { ...built.durableObjects.STRIPE },
      VIPPS: { ...built.durableObjects.VIPPS },
    },
  };
}

export {
  sandboxClient,
  type SandboxBinding,
  type SandboxClient,
  type SandboxClientOptions,
} from "./sandbox-client.js";
