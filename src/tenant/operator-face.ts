/**
 * @module
 * The tenant object's face for the operator (admin API, console, onboarding). It takes no
 * credential: the Worker's admin token or console session is the authority. The tenant's lifecycle
 * is written here; each capability's section is composed on below. See docs/design/faces.md.
 */
import { RpcTarget } from "cloudflare:workers";
import { AssistantsSection } from "../assistants/tenant/operator-section";
import { fail, ok, type Outcome } from "../kernel/outcome";
import { OrdersSection } from "../orders/tenant/operator-section";
import { PayoutsSection } from "../payouts/tenant/operator-section";
import { RequestLogSection } from "../request-log/operator-section";
import { SearchSection } from "../search/operator-section";
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

type LifecycleParts = Pick<
  TenantParts,
  | "registration"
  | "keys"
  | "tokens"
  | "connection"
  | "log"
  | "desk"
  | "payouts"
  | "storage"
  | "wipe"
>;

export const SECTIONS = [
  OrdersSection,
  PayoutsSection,
  ReferencesSection,
  RequestLogSection,
  AssistantsSection,
  SearchSection,
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
    Sectioned<AssistantsSection>,
    Sectioned<SearchSection> {}

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

  register(input: Registering): Promise<Outcome<{ gatewayKey: string }>> {
    return this.#enrolment.register(input);
  }

  /** The current registration's id, for offboarding (`onboarding/offboard.ts`). */
  registrationId(): Outcome<string> {
    const r = this.#parts.registration.get();
    return r ? ok(r.registrationId) : fail("not-found", NO_TENANT);
  }

  /**
   * A new gateway key; the others keep working for `graceSeconds`. A grace that is not a whole
   * number ≥ 0 is refused: a NaN retirement would be kept by SQLite as NULL, "never".
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

  replaceClientKey(clientKey: string): Promise<Outcome<{ cleared: ClearedRecords }>> {
    return this.#enrolment.replace(clientKey);
  }

  /**
   * Removes the tenant: runs terminated, every table emptied in one transaction, the alarm deleted.
   * A run that escapes termination finds its registration gone at its next step.
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
      connection: p.connection.view(),
      counters: { ...t.counters, keyChecks: p.keys.checks },
      callCounters: storedCounters(p.log.counters()),
      gatewayKeys: p.keys.list(Date.now()),
      storageBytes: p.storage.sql.databaseSize,
    };
  }
}

addSections(OperatorFace, SECTIONS, (face) => {
  const state = STATE.get(face);
  if (!state) throw new TypeError("not an operator's face");
  return state;
});

function storedCounters(c: CallCounters) {
  return { ...c, since: new Date(c.since).toISOString() };
}
