import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { buildSync } from "esbuild";
import { readdirSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { SANDBOX_BUNDLE_OPTIONS } from "./scripts/sandbox-bundle.ts";
import { readSandboxConfig } from "./scripts/sandbox-config.ts";

// Projects: lib (pure modules), sandbox (the sandbox Worker on its own) and gateway and corpus (the
// gateway with the sandbox attached as an auxiliary Worker), all inside workerd; contract and
// browser in Node. Auxiliary Workers must be plain JavaScript, so the sandbox is bundled once here
// (the same bundle the package ships); its settings come from its own wrangler.toml, so nothing is
// written twice.
const SANDBOX_BUNDLE = ".build/sandbox/index.js";
/**
 * 32 bytes, base64: the "old" sealing key of the rotation test
 * (test/tenant/secrets.test.ts).
 */
export const TEST_PREVIOUS_SECRETS_KEY = btoa("ledgergate-previous-test-key-32b");
buildSync({ ...SANDBOX_BUNDLE_OPTIONS, outfile: SANDBOX_BUNDLE });
const sandboxConfig = readSandboxConfig();
// Only what the sandbox declares; the rest of wrangler's output is source options for unbundled
// code.
const sandbox = {
  name: sandboxConfig.name,
  modules: true,
  scriptPath: SANDBOX_BUNDLE,
  compatibilityDate: sandboxConfig.compatibilityDate,
  compatibilityFlags: sandboxConfig.compatibilityFlags,
  bindings: { ...sandboxConfig.vars, SANDBOX_CONTROL: "true" },
  durableObjects: sandboxConfig.durableObjects,
};
/**
 * The contract project's stand-ins for workerd-only modules (shared with
 * scripts/generate-client.mjs).
 */
const RUNTIME_STANDINS = "./test/contract/runtime-standins.ts";

/**
 * The gateway's logs in tests: warnings and errors only; the info line of every request is noise.
 */
const TEST_LOG_LEVEL = "warn";
/**
 * Webhook retries in tests: three waits, so a delivery has four attempts (docs/events.md); the
 * tests drive each attempt themselves (test/helpers/events.ts), never waiting for the delays.
 */
const TEST_EVENT_RETRY_SCHEDULE = "1s 2s 3s";
/**
 * How long a batch of one tenant's order runs waits for companions: long, so a batch closes when
 * every run on the way has joined, never on a loaded machine's clock.
 */
const TEST_ORDER_BATCH_WAIT_MS = "30000";

/**
 * The watcher's shortest cycle in tests, s: an hour, so no watcher polls on its own timer while a
 * file runs (its polls would add events and calls to other tests' counts); the watcher's tests run
 * each cycle themselves with `runDurableObjectAlarm`.
 */
const TEST_WATCHER_CYCLE_SECONDS = "3600";

/**
 * Runtime lines that a passing run prints by design. workerd reports as an "uncaught exception"
 * every error a Workflow step throws, although the engine catches it and retries the step or fails
 * the run, and the error the sandbox throws to drop a connection; the tests inject exactly those
 * failures and assert what follows. The plugin writes workerd's lines to this process's stdout or
 * stderr itself and passes no log handler through from the config, so they are dropped here, by
 * exact pattern. Any other runtime line still shows, and vitest reports a failing test either way.
 */
const EXPECTED_RUNTIME_LINES = [
  // The sandbox's injected faults: an answer whose detail ends "(injected fault)" failing a step,
  // and a connection the sandbox drops on purpose by throwing.
  /^uncaught exception; [^\n]*(\(injected fault\)|connection dropped by an injected sandbox fault)/,
  // The same drop as a run's shared voucher meets it, and a voucher line in a locked period
  // (test/orders/workflow/shared-calls.flow.test.ts), each failing its step on purpose.
  /^uncaught exception; [^\n]*RunError: POST \/Vouchers\/BankJournals: The connection to the accounting API failed/,
  /^uncaught exception; [^\n]*Posting the settlement answered 400: [^\n]*is in a locked period/,
  // A `Prefer: pages=all` walk that fails mid-stream errors the caller's body on purpose
  // (test/v2/shaping/all-pages.test.ts), so a cut-off list never looks complete; workerd reports
  // it.
  /^uncaught exception; [^\n]*jsg\.Error: pages=all aborted at page \d+:/,
  // The step error the Workflows' tests (`*.flow.test.ts`) mock to model a crash, as thrown and as
  // wrapped by the run.
  /^uncaught exception; source = Uncaught \(in promise\); stack = \w*Error: worker crashed$/m,
  // The engine stopping a run after a NonRetryableError (how a run fails for good), or because the
  // run was terminated (test/tenant/lifecycle.flow.test.ts removes a tenant mid-run).
  /^uncaught exception; exception = \S+: failed: broken\.outputGateBroken; jsg\.Error: Aborting engine: (A step threw a NonRetryableError|User called terminate)/,
];
/**
 * The native frames workerd prints after some of those: addresses in its binary, nothing to read.
 */
const RUNTIME_BINARY_FRAME = /^stack:( \S*workerd@[0-9a-f]+)+\s*$/;
const QUIETED = Symbol.for("ledgergate.quietExpectedRuntimeLines");

/**
 * Drops `EXPECTED_RUNTIME_LINES` (and the binary frames right after one) from this process's
 * output. Both streams: the plugin sends workerd's lines to stdout or stderr by their level.
 */
function quietExpectedRuntimeLines(): void {
  for (const stream of [process.stdout, process.stderr] as (typeof process.stdout & {
    [QUIETED]?: true;
  })[]) {
    if (stream[QUIETED]) continue;
    stream[QUIETED] = true;
    const write = stream.write;
    let droppedLast = false;
    stream.write = function quietWrite(
      this: typeof stream,
      chunk: unknown,
      ...rest: unknown[]
    ): boolean {
      const text = typeof chunk === "string" ? chunk : "";
      droppedLast =
        EXPECTED_RUNTIME_LINES.some((line) => line.test(text)) ||
        (droppedLast && RUNTIME_BINARY_FRAME.test(text));
      if (!droppedLast) return Reflect.apply(write, this, [chunk, ...rest]) as boolean;
      // A dropped write still "completes", so a caller waiting on its callback is not left hanging.
      const done = rest.at(-1);
      if (typeof done === "function") process.nextTick(done);
      return true;
    } as typeof stream.write;
  }
}
quietExpectedRuntimeLines();

/**
 * A project of the gateway's integration tests, with the sandbox beside it. One file at a time: the
 * files share the sandbox, and with it the rate limit they measure. There are two such projects,
 * which `npm test` runs in two vitest processes side by side (scripts/test.mjs), each with its own
 * runtime, sandbox and storage: vitest itself would run them one after the other.
 */
function gatewayProject(name: string, include: string, exclude: string[] = []) {
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        // A previous sealing key, so the tests can prove records sealed under it still open.
        miniflare: {
          bindings: {
            SECRETS_KEY_PREVIOUS: TEST_PREVIOUS_SECRETS_KEY,
            LOG_LEVEL: TEST_LOG_LEVEL,
            EVENT_RETRY_SCHEDULE: TEST_EVENT_RETRY_SCHEDULE,
            ORDER_BATCH_WAIT_MS: TEST_ORDER_BATCH_WAIT_MS,
            WATCHER_CYCLE_SECONDS: TEST_WATCHER_CYCLE_SECONDS,
          },
          workers: [sandbox],
        },
      }),
    ],
    test: { name, include: [include], exclude, fileParallelism: false, testTimeout: 60_000 },
  };
}

/**
 * The folders of test/ that mirror src/ (and shared/): a file's ending chooses its project. A pure
 * module's test is `*.unit.test.ts`, a Workflow's `*.flow.test.ts`, and any other test there talks
 * to the gateway with the sandbox beside it. The rest of test/ is one folder per project.
 */
const MIRROR = `test/{${[
  ...readdirSync("src", { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name),
  "shared",
].join(",")}}`;

export default defineConfig({
  test: {
    // A passing test prints nothing; a failing one still shows everything it logged.
    silent: "passed-only",
    projects: [
      {
        // Pure modules (`*.unit.test.ts`: order adapters, money): the Workers runtime, no bindings
        // needed.
        plugins: [cloudflareTest({ miniflare: { compatibilityDate: "2026-11-01" } })],
        test: { name: "unit", include: [`${MIRROR}/**/*.unit.test.ts`] },
      },
      {
        // Node, not workerd: the OpenAPI validator reads its meta-schemas from disk and compiles
        // them to code, which workerd forbids. It validates the documents built by the gateway's
        // own functions; the runtime modules and text modules they import are stubbed, nothing here
        // runs a request.
        test: {
          name: "contract",
          include: ["test/contract/**/*.test.ts", "test/scripts/**/*.test.ts"],
          environment: "node",
          // The OAuth library imports `cloudflare:workers` itself: inlined, so the alias below
          // reaches its import too (Node's loader cannot load that scheme).
          server: { deps: { inline: ["@cloudflare/workers-oauth-provider"] } },
        },
        resolve: {
          alias: {
            "cloudflare:workers": RUNTIME_STANDINS,
            "cloudflare:workflows": RUNTIME_STANDINS,
            "@scalar/api-reference/browser/standalone.js": RUNTIME_STANDINS,
          },
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./sandbox/wrangler.toml" },
            miniflare: { bindings: { SANDBOX_CONTROL: "true" } },
          }),
        ],
        // A guard against a hang, not a measure: a test walking the whole catalog takes seconds
        // on a busy machine, and the default 5 s failed one under load.
        test: { name: "sandbox", include: ["test/sandbox/**/*.test.ts"], testTimeout: 60_000 },
      },
      gatewayProject("gateway", `${MIRROR}/**/*.test.ts`, [
        "**/*.unit.test.ts",
        "**/*.flow.test.ts",
      ]),
      gatewayProject("gateway-flows", `${MIRROR}/**/*.flow.test.ts`),
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            // The order corpus proves amounts, not throughput (npm run bench measures that at 10
            // req/s): both sides lift the rate limit so 144 orders run in seconds.
            miniflare: {
              bindings: {
                RATE_LIMIT_PER_SECOND: "200",
                LOG_LEVEL: TEST_LOG_LEVEL,
                EVENT_RETRY_SCHEDULE: TEST_EVENT_RETRY_SCHEDULE,
                ORDER_BATCH_WAIT_MS: TEST_ORDER_BATCH_WAIT_MS,
                WATCHER_CYCLE_SECONDS: TEST_WATCHER_CYCLE_SECONDS,
              },
              workers: [sandbox],
            },
          }),
        ],
        test: { name: "corpus", include: ["test/corpus/**/*.test.ts"], testTimeout: 180_000 },
      },
      {
        // Node: the operator console in real Chromium (playwright-core driving the system's
        // Chromium) against both Workers under `wrangler dev` on free ports with fresh state
        // (test/browser/). Its own tsconfig (Node's types), checked by `npm run typecheck`.
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          environment: "node",
          testTimeout: 240_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
