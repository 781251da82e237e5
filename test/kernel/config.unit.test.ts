import { describe, expect, it } from "vitest";
import {
  API_LIMIT_PER_SECOND,
  DEFAULT_PAGES_ALL_MAX_ROWS,
  DEFAULT_WATCHER_BUDGET_SHARE,
  readConfig,
} from "../../src/kernel/config";

const DEMO = {
  DEMO_API_BASE_URL: "https://api.test/Demo/v2",
  DEMO_AUTH_URL: "https://api.test/Demo/OAuth/Token",
  DEMO_APPLICATION_KEY: "app-key",
  DEMO_SUBSCRIPTION_KEY: "sub-key",
};

describe("config: read once", () => {
  it("parses a bindings object once, and another object afresh", () => {
    const env = { RATE_LIMIT_PER_SECOND: "5" };
    expect(readConfig(env)).toBe(readConfig(env));
    expect(readConfig({ ...env, RATE_LIMIT_PER_SECOND: "7" }).rateLimitPerSecond).toBe(7);
  });

  it("an environment with nothing configured is a value, with defaults and no environment", () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      version: "dev",
      logLevel: "info",
      rateLimitPerSecond: API_LIMIT_PER_SECOND,
      ratePacingMargin: undefined,
      pagesAllMaxRows: DEFAULT_PAGES_ALL_MAX_ROWS,
      adminToken: undefined,
      secretsKey: undefined,
      committedSecretsInUse: [],
    });
    expect(config.environments.demo).toEqual({
      ok: false,
      missing: [
        "DEMO_API_BASE_URL",
        "DEMO_AUTH_URL",
        "DEMO_APPLICATION_KEY",
        "DEMO_SUBSCRIPTION_KEY",
      ],
      detail:
        "The demo environment is not configured (missing or invalid: DEMO_API_BASE_URL, DEMO_AUTH_URL, DEMO_APPLICATION_KEY, DEMO_SUBSCRIPTION_KEY).",
    });
  });

  it("misspelt tuning vars fall back to their defaults; empty secrets count as unset", () => {
    const config = readConfig({
      LOG_LEVEL: " WARN ",
      RATE_LIMIT_PER_SECOND: "ten",
      RATE_PACING_MARGIN: "1",
      PAGES_ALL_MAX_ROWS: "0",
      ADMIN_TOKEN: "",
    });
    expect(config.logLevel).toBe("warn");
    expect(config.rateLimitPerSecond).toBe(API_LIMIT_PER_SECOND);
    expect(config.ratePacingMargin).toBeUndefined();
    expect(config.pagesAllMaxRows).toBe(DEFAULT_PAGES_ALL_MAX_ROWS);
    expect(config.adminToken).toBeUndefined();
    expect(readConfig({ LOG_LEVEL: "verbose" }).logLevel).toBe("info");
    expect(readConfig({ RATE_PACING_MARGIN: "0.1" }).ratePacingMargin).toBe(0.1);
  });

  it("WATCHER_BUDGET_SHARE: 0.2 when unset, as set within 0–0.5, the default when unreadable or out of range", () => {
    expect(readConfig({}).watcherBudgetShare).toBe(DEFAULT_WATCHER_BUDGET_SHARE);
    expect(DEFAULT_WATCHER_BUDGET_SHARE).toBe(0.2);
    expect(readConfig({ WATCHER_BUDGET_SHARE: "0.3" }).watcherBudgetShare).toBe(0.3);
    expect(readConfig({ WATCHER_BUDGET_SHARE: "0" }).watcherBudgetShare).toBe(0);
    expect(readConfig({ WATCHER_BUDGET_SHARE: "0.5" }).watcherBudgetShare).toBe(0.5);
    for (const bad of ["0.6", "-0.1", "a fifth", ""])
      expect(readConfig({ WATCHER_BUDGET_SHARE: bad }).watcherBudgetShare).toBe(
        DEFAULT_WATCHER_BUDGET_SHARE,
      );
  });

  it("REQUEST_LOG: calls when unset, as set when readable, counters (store less) when not", () => {
    expect(readConfig({}).requestLog).toBe("calls");
    expect(readConfig({ REQUEST_LOG: " OFF " }).requestLog).toBe("off");
    expect(readConfig({ REQUEST_LOG: "counters" }).requestLog).toBe("counters");
    expect(readConfig({ REQUEST_LOG: "calls" }).requestLog).toBe("calls");
    expect(readConfig({ REQUEST_LOG: "no" }).requestLog).toBe("counters");
    expect(readConfig({ REQUEST_LOG: "" }).requestLog).toBe("counters");
  });

  it("an environment is usable with its four settings, and names only what is wrong", () => {
    expect(readConfig(DEMO).environments.demo).toEqual({
      ok: true,
      config: {
        apiBaseUrl: DEMO.DEMO_API_BASE_URL,
        authUrl: DEMO.DEMO_AUTH_URL,
        applicationKey: "app-key",
        subscriptionKey: "sub-key",
      },
    });
    const plain = readConfig({ ...DEMO, DEMO_AUTH_URL: "http://api.test/token" });
    expect(plain.environments.demo).toMatchObject({ ok: false, missing: ["DEMO_AUTH_URL"] });
    expect(JSON.stringify(plain.environments)).not.toContain("sub-key");
  });

  it("committed development secrets are named outside local development only", () => {
    const committed = {
      ADMIN_TOKEN: "local-admin-token",
      SECRETS_KEY: "bGVkZ2VyZ2F0ZS1sb2NhbC1kZXZlbG9wbWVudC1rZXk=",
    };
    expect(readConfig(committed).committedSecretsInUse).toEqual(["ADMIN_TOKEN", "SECRETS_KEY"]);
    const sandbox = {
      fetch: () => Promise.resolve(new Response()),
      connect: () => {
        throw new Error("unused");
      },
    } satisfies Fetcher;
    expect(readConfig({ ...committed, SANDBOX: sandbox }).committedSecretsInUse).toEqual([]);
  });
});
