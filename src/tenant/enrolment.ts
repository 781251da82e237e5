/**
 * @module
 * Taking on a client key, at registration or replacement: checked with a token request first
 * (nothing stored on refusal), then sealed, and what was remembered of the old books dropped and
 * counted. See docs/design/faces.md.
 */
import type { Bindings, Environment } from "../kernel/config";
import { fail, ok, type Outcome } from "../kernel/outcome";
import { issueToken } from "../upstream/token";
import { NO_TENANT, type TenantParts } from "./parts";
import { nameOf, type TenantRecord } from "./registration";
import type { Sealer } from "./sealer";
import type { IssuedToken } from "../upstream/tenant/token-keeper";

export interface Registering {
  environment: Environment;
  client: string;
  name: string;
  clientKey: string;
}

/** What adopting a client key dropped of the old books, as counts of records. */
export interface ClearedRecords {
  knownCustomers: number;
  knownProducts: number;
  codeIds: number;
  idempotencyRecords: number;
  referenceCache: number;
  settlementIds: number;
  loggedCalls: number;
  toolCalls: number;
  writeConfirmations: number;
}

/** One tenant object's enrolment: it lives as long as the object, so its guard spans all faces. */
export class Enrolment {
  /** The token request opens the input gate: a second registration is turned away here. */
  #registering = false;

  constructor(
    private readonly parts: TenantParts,
    private readonly sealer: Sealer,
    private readonly env: () => Bindings,
  ) {}

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

  async replace(clientKey: string): Promise<Outcome<{ cleared: ClearedRecords }>> {
    const registration = this.parts.registration;
    const before = registration.get();
    if (!before) return fail("not-found", NO_TENANT);
    const checked = await this.#check(before.environment, before.client, clientKey);
    if (!checked.ok) return checked;
    // The token request opened the input gate: a removal or another replacement may come first.
    if (registration.get() !== before)
      return fail(
        "conflict",
        "The tenant changed while its new client key was checked; try again.",
      );
    return this.#adopt(before, clientKey, checked.value);
  }

  /** Makes a checked client key the tenant's own, sealed, and keeps the token that checked it. */
  async #adopt(
    record: Pick<TenantRecord, "registrationId" | "environment" | "client" | "name" | "createdAt">,
    clientKey: string,
    token: IssuedToken,
  ): Promise<Outcome<{ cleared: ClearedRecords }>> {
    const sealed = await this.sealer.seal(clientKey, nameOf(record));
    if (!sealed) return fail("misconfigured", "SECRETS_KEY is not configured.");
    const { registrationId, environment, client, name, createdAt } = record;
    const p = this.parts;
    // A new key may open another company's books, where remembered ids are other records. No
    // await from here to the save: all or nothing.
    const known = p.known.clear();
    const cleared: ClearedRecords = {
      knownCustomers: known.customers,
      knownProducts: known.products,
      codeIds: p.codeIds.clear(),
      idempotencyRecords: p.idempotency.clear(),
      referenceCache: p.references.clear(),
      settlementIds: p.settings.clearSettlementIds(),
      // Failed calls' bodies hold the old company's personal data.
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
      // The new key may open another company: its client is read again when a bundle needs it.
      clientKeyId: crypto.randomUUID(),
      apiClient: null,
    });
    const kept = await p.tokens.adopt(token);
    return kept.ok ? ok({ cleared }) : kept;
  }

  /**
   * A token request with a client key that is not (yet) the tenant's. A refusal names the
   * environment: a key made for the other one is the likeliest mistake, and the API cannot say so.
   */
  async #check(environment: Environment, client: string, clientKey: string) {
    const checked = await issueToken(
      this.env(),
      environment,
      nameOf({ environment, client }),
      clientKey,
    );
    if (checked.ok || checked.error.reason !== "unprocessable") return checked;
    const other = environment === "demo" ? "production" : "demo";
    return fail(
      "unprocessable",
      `${checked.error.detail} Is it a ${environment} client's key? A key of a ${other} client is refused in ${environment}; register it with "environment": "${other}" instead.`,
    );
  }
}
