/**
 * @module
 * `Directory`: one for the whole gateway, keeping what spans tenants or precedes them: the tenant
 * names, onboarding's single-use states (one object makes "used once" exact), shop claims,
 * signed-out console sessions, and the caps of OAuth client registration, whose unapproved records
 * its alarm deletes (`assistants/oauth/directory-registrations.ts`).
 */
import { DurableObject } from "cloudflare:workers";
import { z } from "zod";
import type { Bindings, Environment } from "../kernel/config";
import { OAuthRegistrations, type Admission } from "../assistants/oauth/directory-registrations";
import { OnboardingStates, type TakenState } from "../onboarding/directory-states";
import { ShopClaims, type ClaimAnswer, type ShopClaim } from "../orders/directory-shop-claims";
import { migrate } from "./directory-schema";

const NameRow = z.object({ name: z.string() });

/** Client records deleted per sweep: KV operations per invocation are capped (1,000). */
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

  add(name: string): void {
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO tenants (name) VALUES (?)", name);
  }

  /** Removes a tenant name, and its shop claims. */
  remove(name: string): void {
    this.ctx.storage.sql.exec("DELETE FROM tenants WHERE name = ?", name);
    this.#claims.release(name);
  }

  /** Claims a webhook secret's SHA-256 on a shop, unless another tenant holds it there. */
  claimShop(claim: ShopClaim): ClaimAnswer {
    return this.#claims.claim(claim);
  }

  /** A row for one OAuth client registration from `address`, or which pace refuses it. */
  async admitRegistration(address: string | null): Promise<Admission> {
    const admission = this.#registrations.take(Date.now(), address);
    await (admission.ok && admission.evicted ? this.#sweep() : this.#arm());
    return admission;
  }

  /** Names the client the authorization server stored for row `id` (its 201's `client_id`). */
  async recordRegistration(id: number, clientId: string): Promise<void> {
    if (this.#registrations.record(id, clientId, Date.now())) await this.#sweep();
  }

  async releaseRegistration(id: number): Promise<void> {
    this.#registrations.giveBack(id);
    await this.#arm();
  }

  /** Marks `clientId`'s registration used (approved); false when it has already ended. */
  async useRegistration(clientId: string): Promise<boolean> {
    const used = this.#registrations.use(clientId, Date.now());
    await this.#arm();
    return used;
  }

  /** Deletes the records of never-approved registrations at their end. Safe to run twice. */
  override async alarm(): Promise<void> {
    await this.#sweep();
  }

  addOnboardingState(hash: string, environment: Environment, expiresAt: number): void {
    this.#states.add(hash, environment, expiresAt, Date.now());
  }

  /** Uses an onboarding's state up: its environment the first time, why not otherwise. */
  takeOnboardingState(hash: string): TakenState {
    return this.#states.take(hash, Date.now());
  }

  /** Ends a console session; kept until `until` (epoch ms), when no cookie of it is valid. */
  revokeSession(id: string, until: number): void {
    const sql = this.ctx.storage.sql;
    sql.exec("DELETE FROM console_revoked WHERE until <= ?", Date.now());
    sql.exec("INSERT OR REPLACE INTO console_revoked (id, until) VALUES (?, ?)", id, until);
  }

  sessionRevoked(id: string): boolean {
    return (
      this.ctx.storage.sql
        .exec("SELECT 1 FROM console_revoked WHERE id = ? AND until > ?", id, Date.now())
        .toArray().length > 0
    );
  }

  /**
   * Deletes the client records of due registrations, then their rows. `client:<id>` directly: an
   * unapproved client has no grant, and `deleteClient` would list every grant to find none. A sweep
   * cut short, or two at once, deletes again: harmless.
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

  async #arm(): Promise<void> {
    const at = this.#registrations.dueAt();
    await (at === null ? this.ctx.storage.deleteAlarm() : this.ctx.storage.setAlarm(at));
  }

  list(): string[] {
    return this.ctx.storage.sql
      .exec("SELECT name FROM tenants ORDER BY name")
      .toArray()
      .map((r) => NameRow.parse(r).name);
  }
}
