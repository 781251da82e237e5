/**
 * The directory's layout as numbered steps (`src/tenant/directory-schema.ts`): an object written
 * under the text version row "3", with `console_revoked` made outside it as that build did, is
 * recognised and brought to the last step with its rows intact; an object at step 6 keeps its
 * registrations' rows, counted as used (they name no client to delete).
 */
import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DIRECTORY_MIGRATIONS } from "../../src/tenant/directory-schema";

const DIRECTORY = env.DIRECTORY;
const CURRENT = String(DIRECTORY_MIGRATIONS.at(-1)?.version);

const userTables = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .toArray()
    .map((r) => r.name);

describe("directory schema: the numbered steps", () => {
  it("opens an object written under version '3' with the new code: names, states and revoked sessions kept, the version current", async () => {
    // Not the gateway's directory ("tenants"): a name of this test's own.
    const stub = DIRECTORY.get(DIRECTORY.idFromName(`test:directory-schema-${Date.now()}`));
    const until = Date.now() + 3_600_000;
    await runInDurableObject(stub, (_i, state) => {
      const sql = state.storage.sql;
      for (const t of userTables(sql)) sql.exec(`DROP TABLE ${t}`);
      // Layout 3 as that build wrote it, with the table it made outside the version row.
      DIRECTORY_MIGRATIONS.find((s) => s.version === 3)?.up(sql);
      sql.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      sql.exec("INSERT INTO meta (key, value) VALUES ('schema', '3')");
      sql.exec("CREATE TABLE console_revoked (id TEXT PRIMARY KEY, until INTEGER NOT NULL)");
      sql.exec("INSERT INTO tenants (name) VALUES ('demo:acme')");
      sql.exec("INSERT INTO console_revoked (id, until) VALUES ('s1', ?)", until);
      sql.exec(
        "INSERT INTO onboarding_states (hash, environment, expires_at) VALUES ('h1', 'demo', ?)",
        until,
      );
    });
    await evictDurableObject(stub);
    expect(await stub.list()).toEqual(["demo:acme"]);
    expect(await stub.sessionRevoked("s1")).toBe(true);
    expect(await stub.takeOnboardingState("h1")).toEqual({ ok: true, environment: "demo" });
    await runInDurableObject(stub, (_i, state) => {
      const sql = state.storage.sql;
      expect(sql.exec("SELECT value FROM meta WHERE key = 'schema'").one()).toEqual({
        value: CURRENT,
      });
      expect(userTables(sql)).toEqual([
        "console_revoked",
        "meta",
        "oauth_registrations",
        "onboarding_states",
        "shop_claims",
        "tenants",
      ]);
    });
  });

  it("brings step 6's oauth_registrations to step 7: rows kept, counted as used, never deleted with a client", async () => {
    const stub = DIRECTORY.get(DIRECTORY.idFromName(`test:directory-schema-6-${Date.now()}`));
    const at = Date.now() - 1000;
    await runInDurableObject(stub, (_i, state) => {
      const sql = state.storage.sql;
      for (const t of userTables(sql)) sql.exec(`DROP TABLE ${t}`);
      sql.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      for (const step of DIRECTORY_MIGRATIONS.filter((s) => s.version <= 6)) step.up(sql);
      sql.exec("INSERT INTO meta (key, value) VALUES ('schema', '6')");
      sql.exec(
        "INSERT INTO oauth_registrations (at, expires_at) VALUES (?, ?)",
        at,
        at + 30 * 86_400_000,
      );
    });
    await evictDurableObject(stub);
    // The row from before counts for the pace but not as an unused registration: nothing is due.
    expect(await stub.useRegistration("any-client")).toBe(true);
    await runInDurableObject(stub, (_i, state) => {
      const sql = state.storage.sql;
      expect(sql.exec("SELECT value FROM meta WHERE key = 'schema'").one()).toEqual({
        value: CURRENT,
      });
      expect(
        sql.exec("SELECT at, client_id, address, used_at FROM oauth_registrations").toArray(),
      ).toEqual([{ at, client_id: null, address: null, used_at: at }]);
      expect(
        sql
          .exec(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'oauth_registrations' ORDER BY name",
          )
          .toArray()
          .map((r) => r.name),
      ).toEqual([
        "oauth_registrations_address",
        "oauth_registrations_client",
        "oauth_registrations_expiry",
      ]);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });

  it("a new object has every table at the last step", async () => {
    const stub = DIRECTORY.get(DIRECTORY.idFromName(`test:directory-schema-new-${Date.now()}`));
    await runInDurableObject(stub, (_i, state) => {
      const sql = state.storage.sql;
      expect(userTables(sql)).toEqual([
        "console_revoked",
        "meta",
        "oauth_registrations",
        "onboarding_states",
        "shop_claims",
        "tenants",
      ]);
      expect(sql.exec("SELECT value FROM meta WHERE key = 'schema'").one()).toEqual({
        value: CURRENT,
      });
    });
  });
});
