/**
 * The SQLite storage of a tenant object that was never registered (its constructor has migrated
 * it), for the tests of the tenant's modules, under a name no other test uses.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";

const TENANT = env.TENANT;
let seq = 0;

/**
 * Runs `run` with a fresh tenant object's storage; `prefix` names the test file in the object's
 * name.
 */
export function withTenantSql<R>(
  prefix: string,
  run: (sql: SqlStorage) => R | Promise<R>,
): Promise<R> {
  const stub = TENANT.get(TENANT.idFromName(`test:${prefix}-${Date.now().toString(36)}-${seq++}`));
  return runInDurableObject(stub, (_i, state) => run(state.storage.sql));
}
