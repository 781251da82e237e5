/**
 * @module
 * The tenant object's face for the operator: the admin API, the console and onboarding. It takes no
 * credential, because the object cannot check one: the Worker's admin token or console session is
 * the authority, checked before any of these methods is reached (see `Tenant.forOperator`). The
 * tenant's own lifecycle (registration, gateway keys, client key, removal) is written here; each
 * capability's methods are its section, in its own folder, composed onto this face below.
 */
import { RpcTarget } from "cloudflare:workers";
import { AssistantsSection } from "../assistants/tenant/operator-section";
import { fail, ok, type Outcome } from "../kernel/outcome";
import { OrdersSection } from "../orders/tenant/operator-section";
import { PayoutsSection } from "../payouts/tenant/operator-section";
import { RequestLogSection } from "../request-log/operator-section";
import type { CallCounters } from "../request-log/tenant-rows";
import { ReferencesSection } from "../v2/tenant/operator-section";
import type { ClearedRecords, Enrolment, Registering } from "./enrolment";
import {
  addSections,
  type SectionClass,
  type Sectioned,
  type SectionState,
} from "./operator-sections";
import { NO_TENANT, ownerOf, type TenantParts } from "./parts";
import { nameOf } from "./registration";

/** What the face's own methods, the tenant's lifecycle, read of the tenant. */
type LifecycleParts = Pick<
  TenantParts,
  "registration" | "keys" | "tokens" | "log" | "desk" | "payouts" | "storage" | "wipe"
>;

/** The capabilities' sections of the face, in the order their methods are added. */
export const SECTIONS = [
  OrdersSection,
  PayoutsSection,
  ReferencesSection,
  RequestLogSection,
  AssistantsSection,
] as const satisfies readonly SectionClass[];

/** Each face's sections; kept off the instance, where nothing of it can be reached over RPC. */
const STATE = new WeakMap<object, SectionState>();

// The sections' methods, as `addSections` adds them to the prototype below.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface OperatorFace
  extends
    Sectioned<OrdersSection>,
    Sectioned<PayoutsSection>,
    Sectioned<ReferencesSection>,
    Sectioned<RequestLogSection>,
    Sectioned<AssistantsSection> {}

/** The operator's face of one tenant object. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class OperatorFace extends RpcTarget {
  readonly #parts: LifecycleParts;
  readonly #enrolment: Enrolment;

  constructor(parts: TenantParts, enrolment: Enrolment) {
    super();
    this.#parts = parts;
    this.#enrolment = enrolment;
    // A section holds nothing but its slice of the modules: one is made for each call.
    STATE.set(this, { record: () => parts.registration.get(), of: (S) => new S(parts) });
  }

  /**
   * Registers the tenant, checking the client key by asking for a token first. Nothing is stored
   * on refusal.
   */
  register(input: Registering): Promise<Outcome<{ gatewayKey: string }>> {
    return this.#enrolment.register(input);
  }

  /**
   * The current registration's id, for an operator action that calls the API as this tenant
   * (offboarding: `onboarding/offboard.ts`).
   */
  registrationId(): Outcome<string> {
    const r = this.#parts.registration.get();
    return r ? ok(r.registrationId) : fail("not-found", NO_TENANT);
  }

  /**
   * A new gateway key; the others keep working for `graceSeconds`. A grace that is not a whole
   * number ≥ 0 is refused before anything is stored: it would make the old keys' retirement NaN,
   * which SQLite keeps as NULL, "never".
   */
  async rotateGatewayKey(
    graceSeconds: number,
  ): Promise<Outcome<{ gatewayKey: string; previousKeysRetireAt: string }>> {
    if (!Number.isSafeInteger(graceSeconds) || graceSeconds < 0)
      return fail("bad-request", "graceSeconds must be a whole number of seconds, 0 or more.");
    const r = this.#parts.registration.get();
    if (!r) return fail("not-found", NO_TENANT);
    const now = Date.now();
    const retiresAt = now + graceSeconds * 1000;
    const gatewayKey = await this.#parts.keys.rotate(r.environment, r.client, now, retiresAt);
    return ok({ gatewayKey, previousKeysRetireAt: new Date(retiresAt).toISOString() });
  }

  /**
   * Replaces the client key (after the client re-activated the integration); checked like at
   * registration. Answers what was dropped of the old books.
   */
  replaceClientKey(clientKey: string): Promise<Outcome<{ cleared: ClearedRecords }>> {
    return this.#enrolment.replace(clientKey);
  }

  /**
   * Removes the tenant: its running order runs are terminated, every table is emptied in one
   * transaction, and the alarm is deleted. A run that escapes termination finds its registration
   * gone at its next step and stops there.
   */
  async remove(): Promise<Outcome<null>> {
    const p = this.#parts;
    const r = p.registration.get();
    if (!r) return fail("not-found", NO_TENANT);
    const stopping = Promise.all([p.desk.stopAll(ownerOf(r)), p.payouts.stopAll(ownerOf(r))]);
    p.wipe();
    await stopping;
    await p.storage.deleteAlarm();
    return ok(null);
  }

  /** What an operator may see: never a secret, not even part of one. */
  describe() {
    const p = this.#parts;
    const r = p.registration.get();
    if (!r) return null;
    const t = p.tokens.view();
    return {
      tenant: nameOf(r),
      environment: r.environment,
      client: r.client,
      name: r.name,
      createdAt: r.createdAt,
      ...t,
      counters: { ...t.counters, keyChecks: p.keys.checks },
      callCounters: storedCounters(p.log.counters()),
      gatewayKeys: p.keys.list(Date.now()),
    };
  }
}

addSections(OperatorFace, SECTIONS, (face) => {
  const state = STATE.get(face);
  if (!state) throw new TypeError("not an operator's face");
  return state;
});

/** The stored counters as operators read them: `since` as an ISO time. */
function storedCounters(c: CallCounters) {
  return { ...c, since: new Date(c.since).toISOString() };
}
