/**
 * @module
 * `Directory`: one for the whole gateway, the list of registered tenant names, so operators can
 * list tenants. It holds names only; everything else about a tenant is in its own `Tenant` object.
 * It also keeps the single-use `state` of each onboarding (`onboarding/directory-states.ts`): there
 * is no tenant yet to keep it, and one object for the gateway makes "used once" exact. And the one
 * index that spans tenants: which tenant holds which webhook secret (hashed) on which shop
 * (`orders/directory-shop-claims.ts`). And OAuth dynamic client registration, which anyone may call
 * and which stores a record each time: its caps, and the never-approved registrations, whose client
 * records its one alarm deletes at their end (`assistants/oauth/directory-registrations.ts`).
 */
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import type { Bindings, Environment } from "../kernel/config";
import { OAuthRegistrations, type Admission } from "../assistants/oauth/directory-registrations";
import { OnboardingStates, type TakenState } from "../onboarding/directory-states";
import { ShopClaims, type ClaimAnswer, type ShopClaim } from "../orders/directory-shop-claims";
import { migrate } from "./directory-schema";

const NameRow = z.object({ name: z.string() });

/**
 * Client records deleted per sweep: KV operations per invocation are capped (1,000), and a sweep
 * with more due arms the alarm again at once.
 */
const SWEEP_BATCH = 50;

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
   * when another tenant holds that secret on that shop (`orders/directory-shop-claims.ts`).
   */
  claimShop(claim: ShopClaim): ClaimAnswer {
    return this.#claims.claim(claim);
  }

  /**
   * A row for one OAuth client registration from `address` (the SHA-256 of its address key, or
   * null), or which pace refuses it (`assistants/oauth/directory-registrations.ts`). When the
   * never-approved registrations are at their cap, the oldest one's client record is deleted before
   * this answers.
   */
  async admitRegistration(address: string | null): Promise<Admission> {
    const admission = this.#registrations.take(Date.now(), address);
    await (admission.ok && admission.evicted ? this.#sweep() : this.#arm());
    return admission;
  }

  /** Names the client the authorization server stored for row `id` (its 201's `client_id`). */
  async recordRegistration(id: number, clientId: string): Promise<void> {
    if (this.#registrations.record(id, clientId, Date.now())) await this.#sweep();
  }

  /** Gives back the row of a registration the authorization server refused. */
  async releaseRegistration(id: number): Promise<void> {
    this.#registrations.giveBack(id);
    await this.#arm();
  }

  /**
   * Marks `clientId`'s registration used, as a person approves a grant for it: from now on only
   * the library's lifetime applies. False when the registration has ended (its record is deleted).
   */
  async useRegistration(clientId: string): Promise<boolean> {
    const used = this.#registrations.use(clientId, Date.now());
    await this.#arm();
    return used;
  }

  /** Deletes the records of never-approved registrations at their end. Safe to run twice. */
  override async alarm(): Promise<void> {
    await this.#sweep();
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

  /**
   * Deletes the client records of due registrations (`client:<id>`: a never-approved client holds
   * no grant, so its record is all there is; the library's `deleteClient` would also list every
   * grant in KV to find none), then their rows, then arms the alarm. The rows stay until their
   * records are gone, so a sweep cut short, or two at once, deletes them again: both are harmless.
   */
  async #sweep(): Promise<void> {
    const due = this.#registrations.due(Date.now(), SWEEP_BATCH);
    await Promise.all(
      due.flatMap((r) =>
        r.client_id === null ? [] : [this.env.OAUTH_KV.delete(`client:${r.client_id}`)],
      ),
    );
    this.#registrations.forget(due.map((r) => r.id));
    await this.#arm();
  }

  /** One alarm, at the end of the next never-approved registration. */
  async #arm(): Promise<void> {
    const at = this.#registrations.dueAt();
    await (at === null ? this.ctx.storage.deleteAlarm() : this.ctx.storage.setAlarm(at));
  }

  /** All tenant names, sorted. */
  list(): string[] {
    return this.ctx.storage.sql
      .exec("SELECT name FROM tenants ORDER BY name")
      .toArray()
      .map((r) => NameRow.parse(r).name);
  }
}
