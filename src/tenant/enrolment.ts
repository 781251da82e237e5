/**
 * @module
 * Taking on a client key: at registration, and when the operator replaces it. Either way the key
 * is checked first by asking for a token with it, and nothing is stored on refusal; once adopted,
 * it is sealed, and what the tenant remembered of the old books is dropped (and counted, so the
 * operator's answer says what went).
 */
import type { Bindings, Environment } from "../kernel/config";
import { fail, ok, type Outcome } from "../kernel/outcome";
import { issueToken } from "../upstream/token";
import { NO_TENANT, type TenantParts } from "./parts";
import { nameOf, type TenantRecord } from "./registration";
import type { Sealer } from "./sealer";
import type { IssuedToken } from "../upstream/tenant/token-keeper";

/** What registering a tenant takes. */
export interface Registering {
  environment: Environment;
  client: string;
  name: string;
  clientKey: string;
}

/**
 * What adopting a client key dropped of the old books, as counts of records: each is an id, an
 * answer or a cached list that may mean another record (or none) in the new key's books.
 */
export interface ClearedRecords {
  knownCustomers: number;
  knownProducts: number;
  codeIds: number;
  idempotencyRecords: number;
  referenceCache: number;
  settlementIds: number;
  /** Calls of the request log (their failed bodies and the API's errors are the old books'). */
  loggedCalls: number;
  /** An assistant's tool calls (the MCP server's audit) against the old books. */
  toolCalls: number;
  /** Writes an assistant prepared against the old books: confirming one now would write there. */
  writeConfirmations: number;
}

/** One tenant object's enrolment: it lives as long as the object, so its guard spans all faces. */
export class Enrolment {
  /**
   * A registration checking its key: the token request opens the input gate, so a second one must
   * be turned away here.
   */
  #registering = false;

  constructor(
    private readonly parts: TenantParts,
    private readonly sealer: Sealer,
    private readonly env: () => Bindings,
  ) {}

  /** Registers the tenant and issues its first gateway key. */
  async register(input: Registering): Promise<Outcome<{ gatewayKey: string }>> {
    const { registration, keys } = this.parts;
    if (registration.get() || this.#registering)
      return fail(
        "conflict",
        `Tenant ${nameOf(input)} is already registered. Replace its client key with PUT …/client-key.`,
      );
    this.#registering = true;
    try {
      const checked = await this.#check(input.environment, input.client, input.clientKey);
      if (!checked.ok) return checked;
      const gatewayKey = await keys.issue(input.environment, input.client, Date.now());
      const adopted = await this.#adopt(
        { ...input, registrationId: crypto.randomUUID(), createdAt: new Date().toISOString() },
        input.clientKey,
        checked.value,
      );
      return adopted.ok ? ok({ gatewayKey }) : adopted;
    } finally {
      this.#registering = false;
    }
  }

  /**
   * Replaces the client key (after the client re-activated the integration); answers what was
   * dropped of the old books.
   */
  async replace(clientKey: string): Promise<Outcome<{ cleared: ClearedRecords }>> {
    const registration = this.parts.registration;
    const before = registration.get();
    if (!before) return fail("not-found", NO_TENANT);
    const checked = await this.#check(before.environment, before.client, clientKey);
    if (!checked.ok) return checked;
    // The token request opened the input gate: a removal or another replacement may have come
    // first.
    if (registration.get() !== before)
      return fail(
        "conflict",
        "The tenant changed while its new client key was checked; try again.",
      );
    return this.#adopt(before, clientKey, checked.value);
  }

  /**
   * Makes a checked client key the tenant's own, sealed, and keeps the token that checked it;
   * answers what it dropped of the books the previous key opened.
   */
  async #adopt(
    record: Pick<TenantRecord, "registrationId" | "environment" | "client" | "name" | "createdAt">,
    clientKey: string,
    token: IssuedToken,
  ): Promise<Outcome<{ cleared: ClearedRecords }>> {
    const sealed = await this.sealer.seal(clientKey, nameOf(record));
    if (!sealed) return fail("misconfigured", "SECRETS_KEY is not configured.");
    const { registrationId, environment, client, name, createdAt } = record;
    const p = this.parts;
    // A new client key may open another company's books, where remembered ids are other records:
    // customers, products, codes, and the settlement account's id and VatId (a voucher naming the
    // old ones is refused, so every later settlement would fail for good). Kept answers, cached
    // reference data and the request log are of the old books too. No await from here to the save:
    // all or nothing.
    const known = p.known.clear();
    const cleared: ClearedRecords = {
      knownCustomers: known.customers,
      knownProducts: known.products,
      codeIds: p.codeIds.clear(),
      idempotencyRecords: p.idempotency.clear(),
      referenceCache: p.references.clear(),
      settlementIds: p.settings.clearSettlementIds(),
      // A failed call's request body and the API's error name the old company's customers: its
      // personal data, which the new key's holder must not read on the requests page.
      loggedCalls: p.log.clearCalls(),
      toolCalls: p.toolCalls.clear(),
      writeConfirmations: p.confirmations.clear(),
    };
    p.registration.save({
      registrationId,
      environment,
      client,
      name,
      createdAt,
      clientKey: sealed,
      // A new id for the new key, and the API's name of the old key's client forgotten: the new key
      // may open another company, read again when a support bundle needs it.
      clientKeyId: crypto.randomUUID(),
      apiClient: null,
    });
    const kept = await p.tokens.adopt(token);
    return kept.ok ? ok({ cleared }) : kept;
  }

  /**
   * A token request with a client key that is not (yet) the tenant's: refusals are `unprocessable`.
   */
  #check(environment: Environment, client: string, clientKey: string) {
    return issueToken(this.env(), environment, nameOf({ environment, client }), clientKey);
  }
}
