// @ts-check
import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/**
 * What each capability's folder offers the others, as values (paths under `src/<folder>/`, no
 * ending). Keep ARCHITECTURE.md's "What a capability publishes" the same.
 */
const PUBLISHED = {
  assistants: ["console/tool-calls"],
  events: ["announce", "keys", "invoice-events", "run-events", "connection-events"],
  onboarding: [],
  orders: ["order", "runs", "run-view", "adapters/payload", "adapters/standard-schema"],
  payouts: ["rules", "stripe/events"],
  search: [],
  "request-log": ["record", "upstream", "tenant-rows"],
  v2: [
    "call",
    "passthrough",
    "openapi/summary",
    "shaping/idempotency",
    "shaping/write-body",
    "shaping/reference-cache",
    "tenant/idempotency-keys",
  ],
};

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/.wrangler/**", "**/.build/**", "dist/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ["**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "error",
    },
  },
  // The boundary between the two Workers: the sandbox imports only the shared folder (catalog, v2
  // schemas, byte helpers), the gateway never imports the sandbox, and shared code imports neither.
  {
    files: ["sandbox/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/src/**", "!**/sandbox/src/**"],
              message:
                "The sandbox may import only from shared/ (the catalog, v2 schemas and byte helpers).",
            },
          ],
        },
      ],
    },
  },
  // Inside the sandbox the engine (store, calls, ledger) sits below the resources, routes and
  // Durable Objects that use it; what it needs from above moves down (engine/chart.ts). The same
  // rule's options replace the block above for these files, so its pattern is repeated.
  {
    files: ["sandbox/src/engine/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/src/**", "!**/sandbox/src/**"],
              message:
                "The sandbox may import only from shared/ (the catalog, v2 schemas and byte helpers).",
            },
            {
              group: ["../resources/**", "../routes/**", "../durable/**", "../app", "../index"],
              message:
                "The sandbox's engine does not import from the layers above it: move what it needs into engine/ or lib/.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/sandbox/**"], message: "The gateway never imports the sandbox." },
          ],
        },
      ],
    },
  },
  {
    files: ["shared/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/src/**", "**/sandbox/**"],
              message: "shared/ stands alone: both Workers import it, it imports neither.",
            },
          ],
        },
      ],
    },
  },
  // Capabilities over the kernel: a capability's folder imports the kernel (src/kernel/), upstream,
  // the tenant's faces (src/tenant/), the shared src/ledger/, and of another capability only what that
  // one publishes (`PUBLISHED`, the same list as ARCHITECTURE.md's). Type-only imports are free:
  // they are erased, and the Tenant wires one capability's modules into another's by type.
  ...Object.keys(PUBLISHED).map((folder) => ({
    files: [`src/${folder}/**/*.{ts,tsx}`],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: Object.entries(PUBLISHED)
            .filter(([other]) => other !== folder)
            .map(([other, published]) => ({
              // From inside src/<folder>/, another capability is always reached by `../`.
              regex: `^(\\.\\./)+${other}/(?!(${published.join("|")})$)`,
              allowTypeImports: true,
              message: `${other} is another capability: import only what it publishes (${published.join(", ") || "nothing"}), or move what both need to src/ledger/ or the kernel.`,
            })),
        },
      ],
    },
  })),
  // No import cycles in either Worker or the shared folder: a cycle makes a module's exports
  // undefined while the other half of the cycle is still evaluating (an order-of-import bug that
  // shows only at run time), and it blurs which layer depends on which. Type-only imports
  // (`import type`, or every specifier marked `type`) are erased at build time and are skipped.
  {
    files: ["src/**/*.{ts,tsx}", "shared/**/*.ts", "sandbox/src/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [
        createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".json"] }),
      ],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    // Packages are never part of our cycles; not reading them keeps the rule fast.
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    files: ["scripts/**/*.mjs", "bench/**/*.mjs", ".ci/**"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        fetch: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        performance: "readonly",
        AbortSignal: "readonly",
        Response: "readonly",
        Request: "readonly",
        Headers: "readonly",
        crypto: "readonly",
        TextEncoder: "readonly",
        Buffer: "readonly",
        btoa: "readonly",
      },
    },
  },
);
