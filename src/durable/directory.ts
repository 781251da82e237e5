/**
 * @module
 * `Directory`: one for the whole gateway, the list of registered tenant names, so operators can
 * list tenants. It holds names only; everything else about a tenant is in its own `Tenant` object.
 * It also keeps the single-use `state` of each onboarding (`directory/onboarding-states.ts`): there
 * is no tenant yet to keep it, and one object for the gateway makes "used once" exact. And the one
 * index that spans tenants: which tenant holds which webhook secret (hashed) on which shop
 * (`directory/shop-claims.ts`). And the caps of OAuth dynamic client registration, which anyone
 * may call and which stores a record each time (`directory/oauth-registrations.ts`).
 */
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import type { Bindings, Environment } from "../lib/config";
import { OAuthRegistrations, type Admission } from "./directory/oauth-registrations";
import { OnboardingStates, type TakenState } from "./directory/onboarding-states";
import { ShopClaims, type ClaimAnswer, type ShopClaim } from "./directory/shop-claims";
import { migrate } from "./directory/schema";

const NameRow = z.object({ name: z.string() });

export class Directory extends DurableObject<Bindings> {
  readonly #states: OnboardingStates;
  readonly #claims: ShopClaims;
  readonly #registrations: OAuthRegistrations;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    // Throws when a step fails (rolled back): every call then fails until a wake migrates.
    migrate(ctx.storage);
    this.#states = new OnboardingStates(ctx.storage.sql);
    this.#claims = new ShopClaims(ctx.storage.sql);
    this.#registrations = new OAuthRegistrations(ctx.storage.sql);
  }

  /** Adds a tenant name. */
  add(name: string): void {
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO tenants (name) VALUES (?)", name);
  }

  /** Removes a tenant name, and its shop claims. */
  remove(name: string): void {
    this.ctx.storage.sql.exec("DELETE FROM tenants WHERE name = ?", name);
    this.#claims.release(name);
  }

  /**
   * A tenant's webhook secret (its SHA-256) on a shop, for one source; refused, naming the holder,
   * when another tenant holds that secret on that shop (`directory/shop-claims.ts`).
   */
  claimShop(claim: ShopClaim): ClaimAnswer {
    return this.#claims.claim(claim);
  }

  /**
   * A slot for one OAuth client registration whose record lives `lifetimeMs`, or why not
   * (`directory/oauth-registrations.ts`: the pace and the number are capped gateway-wide).
   */
  admitRegistration(lifetimeMs: number): Admission {
    return this.#registrations.take(Date.now(), lifetimeMs);
  }

  /** Gives back the slot of a registration the authorization server refused. */
  releaseRegistration(id: number): void {
    this.#registrations.giveBack(id);
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
