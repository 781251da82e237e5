/**
 * @module
 * `Tenant`: one per tenant (`idFromName("demo:acme")`). Everything secret or stateful about the
 * tenant lives here and only here. The class is thin: its public methods are the object's whole RPC
 * API, and each hands over to one module of `durable/tenant/` (registration, gateway keys, token
 * keeper, order settings, order desk), each with its own tables. One alarm, set to the earliest due
 * time of the modules' stored work. Storage layout: docs/storage.md.
 */
import { DurableObject } from "cloudflare:workers";
import type { Bindings, Environment } from "../lib/config";
import type { OrderMapping, OrderMappingInput } from "../lib/orders/mapping";
import type { Source } from "../lib/orders/order";
import type { Known, KnownAsk, Learned, OrderRunPort, RunInput } from "../lib/orders/port";
import type { OrderRunView } from "../lib/orders/run-view";
import type { RunPatch, RunState } from "../lib/orders/runs";
import { fail, ok, type Outcome } from "../lib/outcome";
import type { CodeId, CodeKey } from "../lib/shaping/code-refs";
import type { StoredAnswer } from "../lib/shaping/stored-answer";
import { cacheMs, type KeyAccess } from "../lib/upstream/access-cache";
import { issueToken } from "../lib/upstream/token";
import { CodeIds } from "./tenant/code-ids";
import { GatewayKeys, type MatchedKey } from "./tenant/gateway-keys";
import { IdempotencyKeys, type Claim, type Finish } from "./tenant/idempotency-keys";
import { KnownIds } from "./tenant/known-ids";
import { OrderDesk, unverified, type WebhookIntake } from "./tenant/order-desk";
import { OrderSettings, type SecretOptions } from "./tenant/order-settings";
import { ReferenceCache, type ReferenceRead } from "./tenant/reference-cache";
import { nameOf, Registration, type TenantRecord } from "./tenant/registration";
import { migrate } from "./tenant/schema";
import { Sealer } from "./tenant/sealer";
import { TokenKeeper, type Access, type IssuedToken } from "./tenant/token-keeper";
import { tokenSource } from "./tenant/token-source";

const NO_TENANT = "No such tenant.";
const BAD_KEY = "The gateway key is not valid.";
const GONE =
  "The tenant's registration this run was started under is gone (the tenant was removed): the run stops without calling the API.";
const ownerOf = (r: TenantRecord) => ({ tenant: nameOf(r), registration: r.registrationId });

export class Tenant extends DurableObject<Bindings> implements OrderRunPort {
  readonly #sealer: Sealer;
  readonly #registration: Registration;
  readonly #keys: GatewayKeys;
  readonly #tokens: TokenKeeper;
  readonly #settings: OrderSettings;
  readonly #desk: OrderDesk;
  readonly #known: KnownIds;
  readonly #codeIds: CodeIds;
  readonly #idempotency: IdempotencyKeys;
  readonly #references: ReferenceCache;
  /**
   * A registration checking its key: the token request opens the input gate, so a second one must
   * be turned away here.
   */
  #registering = false;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    // Throws when a step fails (rolled back): every call then fails until a wake migrates.
    migrate(ctx.storage);
    this.#sealer = new Sealer(env);
    this.#registration = new Registration(sql);
    this.#keys = new GatewayKeys(sql);
    this.#settings = new OrderSettings(sql, this.#sealer);
    this.#desk = new OrderDesk(sql, env, this.#settings);
    this.#known = new KnownIds(sql, this.#settings);
    this.#codeIds = new CodeIds(sql);
    this.#idempotency = new IdempotencyKeys(sql);
    this.#references = new ReferenceCache(sql);
    this.#tokens = new TokenKeeper(
      sql,
      Date.now,
      tokenSource(() => this.env, this.#registration, this.#sealer),
      () => this.#arm(),
    );
    void ctx.blockConcurrencyWhile(() => this.#tokens.load());
  }

  /**
   * Registers the tenant, checking the client key by asking for a token first. Nothing is stored on
   * refusal.
   */
  async register(input: {
    environment: Environment;
    client: string;
    name: string;
    clientKey: string;
  }): Promise<Outcome<{ gatewayKey: string }>> {
    if (this.#registration.get() || this.#registering)
      return fail(
        "conflict",
        `Tenant ${nameOf(input)} is already registered. Replace its client key with PUT …/client-key.`,
      );
    this.#registering = true;
    try {
      const checked = await this.#check(input.environment, input.client, input.clientKey);
      if (!checked.ok) return checked;
      const gatewayKey = await this.#keys.issue(input.environment, input.client, Date.now());
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
   * Authenticates a gateway key and hands out a token for its call, with how long an isolate may
   * serve a copy of it to this key without asking again (`cacheMs`: never past the key's retirement
   * or the token's renewal window; see `lib/upstream/access-cache.ts`).
   */
  async access(gatewayKey: string): Promise<Outcome<KeyAccess>> {
    const key = await this.#matchedKey(gatewayKey);
    if (!key) return fail("unauthorized", BAD_KEY);
    const a = await this.#tokens.access();
    return a.ok
      ? ok({
          ...a.value,
          cacheMs: cacheMs(Date.now(), {
            servesUntil: this.#tokens.servesUntil(a.value.token),
            retiresAt: key.retiresAt,
          }),
        })
      : a;
  }

  /**
   * A token for an order run. The run was started by this object itself after it verified a
   * webhook's signature with this tenant's secret, so the run holds no gateway key, only the
   * registration it was started under: once that is gone, no token.
   */
  async accessForRun(registration: string): Promise<Outcome<Access>> {
    return this.#registration.current(registration)
      ? this.#tokens.access()
      : fail("not-found", GONE);
  }

  /**
   * The current registration's id, for an operator action that calls the API as this tenant
   * (offboarding: `lib/onboarding/offboard.ts`).
   */
  registrationId(): Outcome<string> {
    const r = this.#registration.get();
    return r ? ok(r.registrationId) : fail("not-found", NO_TENANT);
  }

  /** Drops `token` after the API answered 401 to it, if it is still the current one. */
  invalidate(token: string): void {
    this.#tokens.invalidate(token);
  }

  /** A new gateway key; the others keep working for `graceSeconds`. */
  async rotateGatewayKey(
    graceSeconds: number,
  ): Promise<Outcome<{ gatewayKey: string; previousKeysRetireAt: string }>> {
    const r = this.#registration.get();
    if (!r) return fail("not-found", NO_TENANT);
    const now = Date.now();
    const retiresAt = now + graceSeconds * 1000;
    const gatewayKey = await this.#keys.rotate(r.environment, r.client, now, retiresAt);
    return ok({ gatewayKey, previousKeysRetireAt: new Date(retiresAt).toISOString() });
  }

  /**
   * Replaces the client key (after the client re-activated the integration); checked like at
   * registration.
   */
  async replaceClientKey(clientKey: string): Promise<Outcome<null>> {
    const before = this.#registration.get();
    if (!before) return fail("not-found", NO_TENANT);
    const checked = await this.#check(before.environment, before.client, clientKey);
    if (!checked.ok) return checked;
    // The token request opened the input gate: a removal or another replacement may have come
    // first.
    if (this.#registration.get() !== before)
      return fail(
        "conflict",
        "The tenant changed while its new client key was checked; try again.",
      );
    return this.#adopt(before, clientKey, checked.value);
  }

  /**
   * Removes the tenant: its running order runs are terminated, every table is emptied in one
   * transaction, and the alarm is deleted. A run that escapes termination finds its registration
   * gone at its next step and stops there.
   */
  async remove(): Promise<Outcome<null>> {
    const r = this.#registration.get();
    if (!r) return fail("not-found", NO_TENANT);
    const stopping = this.#desk.stopAll(ownerOf(r));
    this.ctx.storage.transactionSync(() => {
      this.#desk.book.clear();
      this.#settings.clear();
      this.#known.clear();
      this.#codeIds.clear();
      this.#idempotency.clear();
      this.#references.clear();
      this.#tokens.clear();
      this.#keys.clear();
      this.#registration.clear();
    });
    await stopping;
    await this.ctx.storage.deleteAlarm();
    return ok(null);
  }

  /** What an operator may see: never a secret, not even part of one. */
  describe() {
    const r = this.#registration.get();
    if (!r) return null;
    const t = this.#tokens.view();
    return {
      tenant: nameOf(r),
      environment: r.environment,
      client: r.client,
      name: r.name,
      createdAt: r.createdAt,
      ...t,
      counters: { ...t.counters, keyChecks: this.#keys.checks },
      gatewayKeys: this.#keys.list(Date.now()),
    };
  }

  /**
   * Purges what outlived its retention, starts runs still waiting for their Workflow instance, and
   * renews the token ahead of expiry. Safe to run twice.
   */
  override async alarm(): Promise<void> {
    const r = this.#registration.get();
    if (!r) return;
    for (const kept of [this.#desk.book, this.#settings, this.#idempotency, this.#references])
      kept.purge(Date.now());
    await this.#desk.startPending(ownerOf(r));
    await this.#tokens.renew();
    await this.#arm();
  }

  /**
   * Stores a source's webhook secret, sealed, and the shop it is pinned to; with `graceSeconds`, a
   * rotation (`OrderSettings.configure`).
   */
  async setWebhookSecret(
    source: Source,
    secret: string,
    opts: SecretOptions = {},
  ): Promise<Outcome<{ previousSecretRetiresAt: string | null }>> {
    const r = this.#registration.get();
    return r
      ? this.#settings.configure(nameOf(r), source, secret, opts, Date.now())
      : fail("not-found", NO_TENANT);
  }

  /** Stores the order mapping; answers it with the defaults filled in. */
  setOrderMapping(input: OrderMappingInput): Outcome<OrderMapping> {
    return this.#registration.get()
      ? ok(this.#settings.setMapping(input))
      : fail("not-found", NO_TENANT);
  }

  /** The order mapping, defaults filled in. */
  orderMapping(): Outcome<OrderMapping> {
    return this.#registration.get() ? ok(this.#settings.mapping()) : fail("not-found", NO_TENANT);
  }

  /** A webhook for this tenant: verified with its secret, recorded, its run started. */
  async receiveWebhook(
    source: Source,
    headers: [string, string][],
    body: Uint8Array,
  ): Promise<Outcome<WebhookIntake>> {
    const r = this.#registration.get();
    if (!r) return unverified(null, source, "no such tenant");
    const answer = await this.#desk.receive(
      ownerOf(r),
      source,
      new Headers(headers),
      body,
      Date.now(),
    );
    await this.#arm();
    return answer;
  }

  /** One order's run, for a caller holding this tenant's gateway key. */
  async orderRun(
    gatewayKey: string,
    source: Source,
    orderId: string,
  ): Promise<Outcome<OrderRunView>> {
    return (await this.#authentic(gatewayKey))
      ? this.#desk.view(source, orderId)
      : fail("unauthorized", BAD_KEY);
  }

  /** The tenant's runs, newest change first, optionally in one state. */
  async orderRuns(
    gatewayKey: string,
    state: RunState | null,
    limit: number,
  ): Promise<Outcome<OrderRunView[]>> {
    return (await this.#authentic(gatewayKey))
      ? ok(this.#desk.list(state, limit))
      : fail("unauthorized", BAD_KEY);
  }

  /** A new attempt for a failed order (or its failed refunds). */
  async retryOrder(
    gatewayKey: string,
    source: Source,
    orderId: string,
  ): Promise<Outcome<OrderRunView>> {
    const r = this.#registration.get();
    if (!r || !(await this.#authentic(gatewayKey))) return fail("unauthorized", BAD_KEY);
    const run = await this.#desk.retry(ownerOf(r), source, orderId);
    await this.#arm();
    return run;
  }

  /**
   * The tenant's runs for the operator console. No gateway key: the Worker has already checked the
   * operator's session, which is the authority here, as the admin API's token is for the other
   * operator methods.
   */
  operatorRuns(state: RunState | null, limit: number): Outcome<OrderRunView[]> {
    return this.#registration.get()
      ? ok(this.#desk.list(state, limit))
      : fail("not-found", NO_TENANT);
  }

  /** One order's run for the operator console (see `operatorRuns`). */
  operatorRun(source: Source, orderId: string): Outcome<OrderRunView> {
    return this.#registration.get()
      ? this.#desk.view(source, orderId)
      : fail("not-found", NO_TENANT);
  }

  /** A new attempt for a failed order, started by the operator (see `operatorRuns`). */
  async operatorRetry(source: Source, orderId: string): Promise<Outcome<OrderRunView>> {
    const r = this.#registration.get();
    if (!r) return fail("not-found", NO_TENANT);
    const run = await this.#desk.retry(ownerOf(r), source, orderId);
    await this.#arm();
    return run;
  }

  async runInput(registration: string, source: Source, orderId: string): Promise<RunInput | null> {
    const run = this.#registration.current(registration) && this.#desk.book.get(source, orderId);
    return run ? { run, mapping: this.#settings.mapping() } : null;
  }

  async runReport(
    registration: string,
    source: Source,
    orderId: string,
    refundId: string | null,
    patch: RunPatch,
  ): Promise<void> {
    const r = this.#registration.current(registration);
    if (r && (await this.#desk.report(ownerOf(r), source, orderId, refundId, patch)))
      await this.#arm();
  }

  async known(registration: string, ask: KnownAsk): Promise<Known> {
    return this.#registration.current(registration)
      ? this.#known.recall(registration, ask, Date.now())
      : { customer: null, products: [], settlement: null };
  }

  async learn(registration: string, learned: Learned): Promise<void> {
    if (this.#registration.current(registration))
      this.#known.learn(registration, learned, Date.now());
  }

  /**
   * Claims an idempotency key for a `/v2` write (`lib/shaping/idempotency.ts`): first, a replay, or
   * why not.
   */
  async idempotencyClaim(
    gatewayKey: string,
    ask: { keyHash: string; fingerprint: string; recheck: boolean; leaseUntil: number },
  ): Promise<Outcome<Claim>> {
    if (!(await this.#authentic(gatewayKey))) return fail("unauthorized", BAD_KEY);
    // Synchronous: no other claim runs between this one's read and its insert.
    const claim = this.#idempotency.claim(
      ask.keyHash,
      ask.fingerprint,
      ask.recheck,
      ask.leaseUntil,
      Date.now(),
    );
    if (claim.kind === "first") await this.#arm();
    return ok(claim);
  }

  /**
   * Ends a claim with the answer, an unknown outcome, or a release; false when the claim had lapsed
   * to another caller.
   */
  async idempotencyFinish(
    gatewayKey: string,
    ask: { keyHash: string; holder: string; how: Finish },
  ): Promise<Outcome<boolean>> {
    return (await this.#authentic(gatewayKey))
      ? ok(this.#idempotency.finish(ask.keyHash, ask.holder, ask.how))
      : fail("unauthorized", BAD_KEY);
  }

  /**
   * A cached reference answer, or the generation a fresh read will be kept under
   * (`lib/shaping/reference-cache.ts`).
   */
  async referenceRead(
    gatewayKey: string,
    ask: { key: string; resource: string; refresh: boolean },
  ): Promise<Outcome<ReferenceRead>> {
    return (await this.#authentic(gatewayKey))
      ? ok(this.#references.read(ask.key, ask.resource, ask.refresh, Date.now()))
      : fail("unauthorized", BAD_KEY);
  }

  /**
   * Keeps a reference answer read under `generation`, unless its resource was written since;
   * answers when it was kept and expires, or null.
   */
  async referenceKeep(
    gatewayKey: string,
    ask: { key: string; resource: string; generation: number; answer: StoredAnswer },
  ): Promise<Outcome<{ storedAt: number; expiresAt: number } | null>> {
    if (!(await this.#authentic(gatewayKey))) return fail("unauthorized", BAD_KEY);
    const kept = this.#references.keep(
      ask.key,
      ask.resource,
      ask.generation,
      ask.answer,
      Date.now(),
    );
    if (kept) await this.#arm();
    return ok(kept);
  }

  /** Forgets the cached answers of a resource a write went to. */
  async referenceForget(gatewayKey: string, resource: string): Promise<Outcome<null>> {
    if (!(await this.#authentic(gatewayKey))) return fail("unauthorized", BAD_KEY);
    this.#references.forget(resource);
    return ok(null);
  }

  /** The ids still trusted for codes a `/v2` write gave (`lib/shaping/code-refs.ts`). */
  async codeIds(gatewayKey: string, keys: CodeKey[]): Promise<Outcome<CodeId[]>> {
    return (await this.#authentic(gatewayKey))
      ? ok(this.#codeIds.recall(keys, Date.now()))
      : fail("unauthorized", BAD_KEY);
  }

  /** Remembers ids a lookup found for codes. */
  async rememberCodeIds(gatewayKey: string, found: CodeId[]): Promise<Outcome<null>> {
    if (!(await this.#authentic(gatewayKey))) return fail("unauthorized", BAD_KEY);
    this.#codeIds.remember(found, Date.now());
    return ok(null);
  }

  /** Forgets remembered ids the API refused a write with. */
  async forgetCodeIds(gatewayKey: string, keys: CodeKey[]): Promise<Outcome<null>> {
    if (!(await this.#authentic(gatewayKey))) return fail("unauthorized", BAD_KEY);
    this.#codeIds.forget(keys);
    return ok(null);
  }

  /** Forgets every remembered id of `kinds`: a write went to their list. */
  async forgetCodeKinds(gatewayKey: string, kinds: string[]): Promise<Outcome<null>> {
    if (!(await this.#authentic(gatewayKey))) return fail("unauthorized", BAD_KEY);
    this.#codeIds.forgetKinds(kinds);
    return ok(null);
  }

  /** Makes a checked client key the tenant's own, sealed, and keeps the token that checked it. */
  async #adopt(
    record: Omit<TenantRecord, "clientKey">,
    clientKey: string,
    token: IssuedToken,
  ): Promise<Outcome<null>> {
    const sealed = await this.#sealer.seal(clientKey, nameOf(record));
    if (!sealed) return fail("misconfigured", "SECRETS_KEY is not configured.");
    const { registrationId, environment, client, name, createdAt } = record;
    // A new client key may open another company's books, where remembered ids are other records.
    this.#known.clear();
    this.#codeIds.clear();
    // Kept answers and cached reference data are of the old books too.
    this.#idempotency.clear();
    this.#references.clear();
    this.#registration.save({
      registrationId,
      environment,
      client,
      name,
      createdAt,
      clientKey: sealed,
    });
    const kept = await this.#tokens.adopt(token);
    return kept.ok ? ok(null) : kept;
  }

  /**
   * A token request with a client key that is not (yet) the tenant's: refusals are `unprocessable`.
   */
  #check(environment: Environment, client: string, clientKey: string) {
    return issueToken(this.env, environment, nameOf({ environment, client }), clientKey);
  }

  async #authentic(gatewayKey: string): Promise<boolean> {
    return (await this.#matchedKey(gatewayKey)) !== null;
  }

  /**
   * The one check of a gateway key, for every method that takes one: the live key it matched (in
   * constant time, `GatewayKeys.check`), or null when it matches none or the tenant is not
   * registered. `access` needs the match itself: an isolate may not cache it past its retirement.
   */
  async #matchedKey(gatewayKey: string): Promise<MatchedKey | null> {
    return this.#registration.get() ? this.#keys.check(gatewayKey, Date.now()) : null;
  }

  /**
   * One alarm: the earliest due time of the modules' stored work (token renewal, run starts,
   * purges, a previous secret's retirement).
   */
  async #arm(): Promise<void> {
    const due = [
      this.#tokens.dueAt(),
      this.#desk.dueAt(),
      this.#desk.book.purgeDueAt(),
      this.#settings.dueAt(),
      this.#idempotency.dueAt(),
      this.#references.dueAt(),
    ].filter((t): t is number => t !== null);
    await (due.length === 0
      ? this.ctx.storage.deleteAlarm()
      : this.ctx.storage.setAlarm(Math.min(...due)));
  }
}
