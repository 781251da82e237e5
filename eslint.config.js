// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
