/**
 * @module
 * `Directory`: one for the whole gateway, the list of registered tenant names, so operators can
 * list tenants. It holds names only; everything else about a tenant is in its own `Tenant` object.
 * It also keeps the single-use `state` of each onboarding (`directory/onboarding-states.ts`): there
 * is no tenant yet to keep it, and one object for the gateway makes "used once" exact.
 */
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import type { Bindings, Environment } from "../lib/config";
import {
  ONBOARDING_STATES_TABLE,
  OnboardingStates,
  type TakenState,
} from "./directory/onboarding-states";

/** Bumped when the table changes. */
const SCHEMA_VERSION = "3";

const NameRow = z.object({ name: z.string() });

export class Directory extends DurableObject<Bindings> {
  readonly #states: OnboardingStates;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    this.#states = new OnboardingStates(sql);
    sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    // Console sessions signed out before they lapse (`lib/console/session.ts`); made outside the
    // versioned schema so adding it migrates nothing.
    sql.exec(
      "CREATE TABLE IF NOT EXISTS console_revoked (id TEXT PRIMARY KEY, until INTEGER NOT NULL)",
    );
    if (
      sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'").toArray()[0]
        ?.value === SCHEMA_VERSION
    )
      return;
    sql.exec("CREATE TABLE IF NOT EXISTS tenants (name TEXT PRIMARY KEY)");
    sql.exec(ONBOARDING_STATES_TABLE);
    sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", SCHEMA_VERSION);
  }

  /** Adds a tenant name. */
  add(name: string): void {
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO tenants (name) VALUES (?)", name);
  }

  /** Removes a tenant name. */
  remove(name: string): void {
    this.ctx.storage.sql.exec("DELETE FROM tenants WHERE name = ?", name);
  }

  /** Remembers an onboarding's state (its SHA-256) until `expiresAt`, epoch ms. */
  addOnboardingState(hash: string, environment: Environment, expiresAt: number): void {
    this.#states.add(hash, environment, expiresAt, Date.now());
  }

  /**
   * Uses an onboarding's state up; its environment the first time before it expires, why not
   * otherwise.
   */
  takeOnboardingState(hash: string): TakenState {
    return this.#states.take(hash, Date.now());
  }

  /**
   * Ends a console session before it lapses; kept until `until` (epoch ms), when no cookie of it
   * can be valid any more.
   */
  revokeSession(id: string, until: number): void {
    const sql = this.ctx.storage.sql;
    sql.exec("DELETE FROM console_revoked WHERE until <= ?", Date.now());
    sql.exec("INSERT OR REPLACE INTO console_revoked (id, until) VALUES (?, ?)", id, until);
  }

  /** Whether a console session was signed out. */
  sessionRevoked(id: string): boolean {
    return (
      this.ctx.storage.sql
        .exec("SELECT 1 FROM console_revoked WHERE id = ? AND until > ?", id, Date.now())
        .toArray().length > 0
    );
  }

  /** All tenant names, sorted. */
  list(): string[] {
    return this.ctx.storage.sql
      .exec("SELECT name FROM tenants ORDER BY name")
      .toArray()
      .map((r) => NameRow.parse(r).name);
  }
}
