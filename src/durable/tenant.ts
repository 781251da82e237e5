/**
 * @module
 * `Tenant`: one per tenant (`idFromName("demo:acme")`). Everything secret or stateful about the
 * tenant lives here and only here: the sealed client key, the hashes of its gateway keys, and its
 * access token with the expiry. Token issuance is serialized here (see `#issue`).
 * Storage layout: docs/storage.md.
 */
import { DurableObject } from "cloudflare:workers";
import { environmentConfig, type Bindings, type Environment } from "../lib/config";
import { open, seal, sha256Hex, timingSafeEqual, type Sealed } from "../lib/crypto";
import { secretsKeys } from "../lib/secrets";
import { newGatewayKey, tenantName } from "../lib/tenant";
import { requestToken } from "../lib/upstream/token";
import { renewalPlan, type TokenRecord } from "../lib/token-timing";
import type { OrderMapping, OrderMappingInput } from "../lib/orders/mapping";
import type { Source } from "../lib/orders/order";
import type { OrderRun, OrderRunView, RunState } from "../lib/orders/runs";
import { OrderDesk, type RunPatch, type WebhookAnswer } from "./order-desk";

/** Back-off after a failed token request: 1 s doubling to at most this, ms (copied from mature clients' 30 s cooldown). */
const MAX_BACKOFF_MS = 30_000;
/** How long a token request may wait for a rate permit, ms. */
const TOKEN_PERMIT_WAIT_MS = 10_000;
/** When a run's Workflow instance could not be created, the alarm tries again after this, ms. */
const START_RETRY_MS = 5_000;

interface TenantRecord {
  environment: Environment;
  client: string;
  name: string;
  createdAt: string;
  clientKey: Sealed;
}
interface GatewayKeyRecord {
  hash: string;
  createdAt: string;
  /** When an old key stops working after a rotation; null for the current key. */
  retiresAt: number | null;
}
interface Health {
  rejectedReason: string | null;
  failures: number;
  backoffUntil: number;
  lastError: string | null;
}
interface StoredToken {
  sealed: Sealed;
  issuedAt: number;
  expiresAt: number;
}

/** What a caller gets for its gateway key: a token, or why not. */
export type Access =
  | { ok: true; token: string; expiresAt: number }
  | { ok: false; problem: "unauthorized" | "rejected" | "unavailable" | "misconfigured"; detail: string; retryAfterSeconds?: number };

/** The outcome of a write by the operator. */
export type AdminOutcome<T> = { ok: true; value: T } | { ok: false; problem: "conflict" | "not-found" | "unprocessable" | "unavailable" | "misconfigured"; detail: string };

const HEALTHY: Health = { rejectedReason: null, failures: 0, backoffUntil: 0, lastError: null };

/** The answer while the API refuses the tenant's client key: fail fast, and say how to mend it. */
function rejected(reason: string): Access {
  return { ok: false, problem: "rejected", detail: `The API refused this tenant's client key (${reason}). Replace it: PUT /admin/tenants/{environment}/{client}/client-key.` };
}

export class Tenant extends DurableObject<Bindings> {
  #record: TenantRecord | null = null;
  #keys: GatewayKeyRecord[] = [];
  #health: Health = HEALTHY;
  #token: TokenRecord | null = null;
  #tokensIssued = 0;
  /** Callers that had to wait for a token request (the renewal alarm exists to keep this at zero). */
  #tokenWaits = 0;
  #lastUsedAt = 0;
  /** The token request in flight, shared by every caller that needs a token meanwhile. */
  #inflight: Promise<Access> | null = null;
  /** A registration checking its key: the token request opens the input gate, so a second one must be turned away here. */
  #registering = false;
  /**
   * Bumped by every operator change (register, replace, remove). A token request that started
   * before one applies nothing when it comes back: its answer is about credentials that are gone.
   */
  #generation = 0;
  /** When `lastUsedAt` was last written to storage (it is kept at minute resolution there). */
  #lastUsedStoredAt = 0;
  /** Webhooks, order mapping and the order book. */
  readonly #desk: OrderDesk;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.#desk = new OrderDesk(ctx.storage, env, () => this.#record && tenantName(this.#record.environment, this.#record.client));
    void ctx.blockConcurrencyWhile(() => this.#load()).catch(() => undefined);
  }

  /** Registers the tenant, checking the client key by asking for a token first. Nothing is stored on refusal. */
  async register(input: { environment: Environment; client: string; name: string; clientKey: string }): Promise<AdminOutcome<{ gatewayKey: string }>> {
    if (this.#record || this.#registering) return { ok: false, problem: "conflict", detail: `Tenant ${tenantName(input.environment, input.client)} is already registered. Replace its client key with PUT …/client-key.` };
    this.#registering = true;
    try {
      return await this.#register(input);
    } finally {
      this.#registering = false;
    }
  }

  async #register(input: { environment: Environment; client: string; name: string; clientKey: string }): Promise<AdminOutcome<{ gatewayKey: string }>> {
    const checked = await this.#checkClientKey(input.environment, input.client, input.clientKey);
    if (!checked.ok) return checked;
    const gatewayKey = newGatewayKey(input.environment, input.client);
    const createdAt = new Date().toISOString();
    this.#keys = [{ hash: await sha256Hex(gatewayKey), createdAt, retiresAt: null }];
    const adopted = await this.#adopt({ environment: input.environment, client: input.client, name: input.name, createdAt }, input.clientKey, checked.value);
    return adopted.ok ? { ok: true, value: { gatewayKey } } : adopted;
  }

  /** Authenticates a gateway key and hands out a token for its call. */
  async access(gatewayKey: string): Promise<Access> {
    if (!(await this.#authentic(gatewayKey))) return { ok: false, problem: "unauthorized", detail: "The gateway key is not valid." };
    return this.#accessNow();
  }

  /**
   * A token for an order run. The run was started by this object itself after it verified a
   * webhook's signature with this tenant's secret, so the run holds no gateway key.
   */
  async accessForRun(): Promise<Access> {
    if (!this.#record) return { ok: false, problem: "unauthorized", detail: "No such tenant." };
    return this.#accessNow();
  }

  async #accessNow(): Promise<Access> {
    this.#lastUsedAt = Date.now();
    if (this.#lastUsedAt - this.#lastUsedStoredAt > 60_000) {
      // Kept in storage too, so the renewal alarm still knows the tenant is busy after an eviction.
      this.#lastUsedStoredAt = this.#lastUsedAt;
      await this.ctx.storage.put("lastUsedAt", this.#lastUsedAt);
    }
    return this.#currentToken();
  }

  /**
   * Drops `token` after the API answered 401 to it, and only if it is still the current one: a slow
   * caller's 401 for an old token must not throw away the newer token others already use.
   */
  async invalidate(token: string): Promise<void> {
    if (this.#token?.token !== token) return;
    this.#token = null;
    await this.ctx.storage.delete("token");
  }

  /** A new gateway key; the others keep working for `graceSeconds`. */
  async rotateGatewayKey(graceSeconds: number): Promise<AdminOutcome<{ gatewayKey: string; previousKeysRetireAt: string }>> {
    if (!this.#record) return { ok: false, problem: "not-found", detail: "No such tenant." };
    const now = Date.now();
    const retiresAt = now + graceSeconds * 1000;
    const gatewayKey = newGatewayKey(this.#record.environment, this.#record.client);
    this.#keys = [
      { hash: await sha256Hex(gatewayKey), createdAt: new Date(now).toISOString(), retiresAt: null },
      ...this.#keys.filter((k) => k.retiresAt === null || k.retiresAt > now).map((k) => ({ ...k, retiresAt: Math.min(k.retiresAt ?? retiresAt, retiresAt) })),
    ];
    await this.ctx.storage.put("gatewayKeys", this.#keys);
    return { ok: true, value: { gatewayKey, previousKeysRetireAt: new Date(retiresAt).toISOString() } };
  }

  /** Replaces the client key (after the client re-activated the integration); checked like at registration. */
  async replaceClientKey(clientKey: string): Promise<AdminOutcome<null>> {
    if (!this.#record) return { ok: false, problem: "not-found", detail: "No such tenant." };
    const generation = this.#generation;
    const checked = await this.#checkClientKey(this.#record.environment, this.#record.client, clientKey);
    if (!checked.ok) return checked;
    const record = this.#record;
    if (!record || generation !== this.#generation) return { ok: false, problem: "conflict", detail: "The tenant changed while its new client key was checked; try again." };
    return this.#adopt(record, clientKey, checked.value);
  }

  /**
   * Makes a checked client key the tenant's own: sealed into the record, health cleared, and the
   * token that checked it kept (it is as good as any, and saves a token request).
   */
  async #adopt(
    record: Omit<TenantRecord, "clientKey">,
    clientKey: string,
    token: { accessToken: string; expiresIn: number },
  ): Promise<AdminOutcome<null>> {
    const keys = await this.#secrets();
    if (!keys) return { ok: false, problem: "misconfigured", detail: "SECRETS_KEY is not configured." };
    this.#generation++;
    const { environment, client, name, createdAt } = record;
    this.#record = { environment, client, name, createdAt, clientKey: await seal(clientKey, keys[0], tenantName(environment, client)) };
    this.#health = HEALTHY;
    await this.ctx.storage.put({ tenant: this.#record, gatewayKeys: this.#keys, health: this.#health });
    await this.#keep(token.accessToken, token.expiresIn);
    return { ok: true, value: null };
  }

  /** Removes the tenant: its secrets, token and alarm are wiped. */
  async remove(): Promise<AdminOutcome<null>> {
    if (!this.#record) return { ok: false, problem: "not-found", detail: "No such tenant." };
    this.#generation++;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.#desk.book.reset();
    this.#record = null;
    this.#keys = [];
    this.#token = null;
    this.#health = HEALTHY;
    this.#tokensIssued = 0;
    return { ok: true, value: null };
  }

  /** What an operator may see: never a secret, not even part of one. */
  describe() {
    if (!this.#record) return null;
    const now = Date.now();
    const token =
      this.#health.rejectedReason !== null
        ? { state: "rejected" as const, reason: this.#health.rejectedReason }
        : this.#token && this.#token.expiresAt > now
          ? { state: "valid" as const, expiresAt: new Date(this.#token.expiresAt).toISOString() }
          : { state: "none" as const };
    return {
      tenant: tenantName(this.#record.environment, this.#record.client),
      environment: this.#record.environment,
      client: this.#record.client,
      name: this.#record.name,
      createdAt: this.#record.createdAt,
      token,
      lastError: this.#health.lastError,
      gatewayKeys: this.#keys.filter((k) => k.retiresAt === null || k.retiresAt > now).map((k) => ({ createdAt: k.createdAt, retiresAt: k.retiresAt && new Date(k.retiresAt).toISOString() })),
      counters: { tokensIssued: this.#tokensIssued, tokenWaits: this.#tokenWaits },
    };
  }

  /**
   * Renews the token ahead of expiry while the tenant is in use, so no caller waits on a token
   * request. Safe to run twice: a second run finds a fresh token and only re-arms the alarm.
   */
  override async alarm(): Promise<void> {
    if (this.#record && (await this.#desk.startPending())) await this.#arm();
    if (!this.#record || !this.#token) return;
    const plan = renewalPlan(this.#token, Date.now(), this.#lastUsedAt);
    if (!plan.renewNow) return this.#arm();
    // An idle tenant's token is left to lapse; the next call issues a fresh one.
    if (!plan.inUse) return;
    const renewed = await this.#issue();
    // A failed renewal while the old token still serves: try again after the back-off.
    if (!renewed.ok && this.#token && renewalPlan(this.#token, Date.now(), this.#lastUsedAt).usable) {
      await this.ctx.storage.setAlarm(Math.max(this.#health.backoffUntil, Date.now() + 1000));
    }
  }

  async #currentToken(): Promise<Access> {
    const now = Date.now();
    const t = this.#token;
    if (t) {
      const plan = renewalPlan(t, now, this.#lastUsedAt);
      if (plan.usable) {
        // Inside the renewal window: keep serving this token while one renewal runs for everyone.
        if (plan.renewNow && !this.#inflight && this.#health.backoffUntil <= now) void this.#issue().catch(() => undefined);
        return { ok: true, token: t.token, expiresAt: t.expiresAt };
      }
    }
    if (this.#health.rejectedReason !== null) return rejected(this.#health.rejectedReason);
    if (this.#health.backoffUntil > now && !this.#inflight) {
      return { ok: false, problem: "unavailable", detail: `The token endpoint failed (${this.#health.lastError}); retrying after a back-off.`, retryAfterSeconds: Math.ceil((this.#health.backoffUntil - now) / 1000) };
    }
    this.#tokenWaits++;
    return this.#issue();
  }

  /**
   * Single-flight issuance: every caller that needs a token while a request is in flight awaits the
   * same promise. Input gates alone do not give this (an outbound fetch opens the gate, and three
   * concurrent callers then issued three tokens when tried), so the promise is held explicitly.
   */
  #issue(): Promise<Access> {
    this.#inflight ??= this.#requestAndKeep()
      // A failed RPC to the governor or a storage error: a transient failure, backed off like one.
      .catch(() => this.#failed("internal failure while requesting a token"))
      .finally(() => {
        this.#inflight = null;
      });
    return this.#inflight;
  }

  async #requestAndKeep(): Promise<Access> {
    const generation = this.#generation;
    const record = this.#record;
    if (!record) return { ok: false, problem: "unauthorized", detail: "No such tenant." };
    const keys = await this.#secrets();
    const clientKey = keys && (await open(record.clientKey, keys, tenantName(record.environment, record.client)));
    if (!keys || clientKey === null) return { ok: false, problem: "misconfigured", detail: "The client key cannot be opened with the configured SECRETS_KEY." };
    if (record.clientKey.kid !== keys[0].kid) {
      // Rotation of SECRETS_KEY: re-seal under the current key the first time the record is opened.
      this.#record = { ...record, clientKey: await seal(clientKey, keys[0], tenantName(record.environment, record.client)) };
      await this.ctx.storage.put("tenant", this.#record);
    }
    const checked = await this.#checkClientKey(record.environment, record.client, clientKey);
    if (generation !== this.#generation || !this.#record) {
      return { ok: false, problem: "unavailable", detail: "The tenant changed while a token was requested; try again.", retryAfterSeconds: 1 };
    }
    if (!checked.ok) {
      const failure =
        checked.problem === "unprocessable"
          ? ((this.#health = { ...this.#health, rejectedReason: checked.detail, lastError: checked.detail }), rejected(checked.detail))
          : await this.#failed(checked.detail);
      await this.ctx.storage.put("health", this.#health);
      // The old token, while it lasts, still serves: a failed renewal is not yet the callers' problem.
      const t = this.#token;
      return t && renewalPlan(t, Date.now(), this.#lastUsedAt).usable ? { ok: true, token: t.token, expiresAt: t.expiresAt } : failure;
    }
    this.#health = HEALTHY;
    await this.ctx.storage.put("health", this.#health);
    return this.#keep(checked.value.accessToken, checked.value.expiresIn);
  }

  /** Records a transient token failure and backs off: 1 s, doubling, at most `MAX_BACKOFF_MS`. */
  async #failed(reason: string): Promise<Access> {
    const failures = this.#health.failures + 1;
    const backoffUntil = Date.now() + Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 1));
    this.#health = { ...this.#health, failures, lastError: reason, backoffUntil };
    return { ok: false, problem: "unavailable", detail: reason, retryAfterSeconds: Math.ceil((backoffUntil - Date.now()) / 1000) };
  }

  /** One token request through the environment's rate governor; refusals are "unprocessable". */
  async #checkClientKey(environment: Environment, client: string, clientKey: string): Promise<AdminOutcome<{ accessToken: string; expiresIn: number }>> {
    const config = environmentConfig(this.env, environment);
    if (!config.ok) return { ok: false, problem: "misconfigured", detail: config.detail };
    const governor = this.env.RATE_GOVERNOR.get(this.env.RATE_GOVERNOR.idFromName(environment));
    const permit = await governor.acquire(tenantName(environment, client), TOKEN_PERMIT_WAIT_MS);
    if (!permit.ok) return { ok: false, problem: "unavailable", detail: "The environment's rate limit leaves no room for a token request now." };
    const outcome = await requestToken(this.env, config.config, clientKey);
    if (outcome.ok) return { ok: true, value: outcome };
    if (outcome.kind === "throttled") {
      await governor.pause(outcome.retryAfterSeconds);
      return { ok: false, problem: "unavailable", detail: "The token endpoint answered 429." };
    }
    return { ok: false, problem: outcome.kind === "refused" ? "unprocessable" : "unavailable", detail: outcome.reason };
  }

  async #keep(accessToken: string, expiresIn: number): Promise<Access> {
    const keys = await this.#secrets();
    const record = this.#record;
    if (!keys || !record) return { ok: false, problem: "misconfigured", detail: "SECRETS_KEY is not configured." };
    // Expiry from our own receive time, not the server's clock: that absorbs clock skew.
    const issuedAt = Date.now();
    this.#token = { token: accessToken, issuedAt, expiresAt: issuedAt + expiresIn * 1000 };
    this.#tokensIssued++;
    const stored: StoredToken = { sealed: await seal(accessToken, keys[0], `token:${tenantName(record.environment, record.client)}`), issuedAt, expiresAt: this.#token.expiresAt };
    await this.ctx.storage.put({ token: stored, tokensIssued: this.#tokensIssued });
    await this.#arm();
    return { ok: true, token: accessToken, expiresAt: this.#token.expiresAt };
  }

  /** One alarm: at the renewal time of the current token (with jitter, see `renewalPlan`), or sooner while a run waits to start. */
  async #arm(): Promise<void> {
    const times = [this.#token ? renewalPlan(this.#token, Date.now(), this.#lastUsedAt).alarmAt : Infinity, this.#desk.startsWaiting ? Date.now() + START_RETRY_MS : Infinity];
    const at = Math.min(...times);
    if (at === Infinity) return this.ctx.storage.deleteAlarm();
    await this.ctx.storage.setAlarm(at);
  }

  // --- Orders: webhooks in, runs out. The runs call the methods below `runInput`. -------------

  /** Stores a source's webhook secret, sealed. */
  async setWebhookSecret(source: Source, secret: string): Promise<AdminOutcome<null>> {
    if (!this.#record) return { ok: false, problem: "not-found", detail: "No such tenant." };
    return (await this.#desk.setSecret(source, secret)) ? { ok: true, value: null } : { ok: false, problem: "misconfigured", detail: "SECRETS_KEY is not configured." };
  }

  async setOrderMapping(input: OrderMappingInput): Promise<AdminOutcome<OrderMapping>> {
    if (!this.#record) return { ok: false, problem: "not-found", detail: "No such tenant." };
    return { ok: true, value: await this.#desk.setMapping(input) };
  }

  async orderMapping(): Promise<AdminOutcome<OrderMapping>> {
    if (!this.#record) return { ok: false, problem: "not-found", detail: "No such tenant." };
    return { ok: true, value: await this.#desk.mapping() };
  }

  /** A webhook for this tenant: verified with its secret, recorded, its run started. */
  async receiveWebhook(source: Source, headers: [string, string][], body: Uint8Array): Promise<WebhookAnswer> {
    if (!this.#record) return { ok: false, status: 404, detail: "No such tenant." };
    const answer = await this.#desk.receive(source, new Headers(headers), body);
    if (this.#desk.startsWaiting) await this.#arm();
    return answer;
  }

  /** One order's run, for a caller holding this tenant's gateway key (null: no such order, or not authorized). */
  async orderRun(gatewayKey: string, source: Source, orderId: string): Promise<OrderRunView | null | "unauthorized"> {
    if (!(await this.#authentic(gatewayKey))) return "unauthorized";
    return this.#desk.view(source, orderId);
  }

  async orderRuns(gatewayKey: string, state: RunState | null, limit: number): Promise<OrderRunView[] | "unauthorized"> {
    if (!(await this.#authentic(gatewayKey))) return "unauthorized";
    return this.#desk.list(state, limit);
  }

  async retryOrder(gatewayKey: string, source: Source, orderId: string): Promise<OrderRunView | null | "nothing-failed" | "unauthorized"> {
    if (!(await this.#authentic(gatewayKey))) return "unauthorized";
    const run = await this.#desk.retry(source, orderId);
    if (this.#desk.startsWaiting) await this.#arm();
    return run;
  }

  /** What a run needs: the order's record and the mapping. */
  async runInput(source: Source, orderId: string): Promise<{ run: OrderRun; mapping: OrderMapping } | null> {
    const run = this.#desk.book.get(source, orderId);
    return run && { run, mapping: await this.#desk.mapping() };
  }

  /** What a run reports back. */
  async runReport(source: Source, orderId: string, refundId: string | null, patch: RunPatch): Promise<OrderRun | null> {
    return this.#desk.report(source, orderId, refundId, patch);
  }

  /** Ids looked up once per tenant and kept (a settlement account's id, the VatId of code 0). */
  async cached(key: string): Promise<unknown> {
    return (await this.ctx.storage.get(`cache:${key}`)) ?? null;
  }

  async cache(key: string, value: unknown): Promise<void> {
    await this.ctx.storage.put(`cache:${key}`, value);
  }

  async #authentic(gatewayKey: string): Promise<boolean> {
    if (!this.#record) return false;
    const hash = await sha256Hex(gatewayKey);
    const now = Date.now();
    let found = false;
    // Compare against every live key, without stopping early, so timing tells nothing.
    for (const k of this.#keys) if ((k.retiresAt === null || k.retiresAt > now) && timingSafeEqual(k.hash, hash)) found = true;
    return found;
  }

  async #secrets() {
    try {
      return await secretsKeys(this.env);
    } catch {
      return null;
    }
  }

  async #load(): Promise<void> {
    const got = await this.ctx.storage.get<unknown>(["tenant", "gatewayKeys", "health", "token", "tokensIssued", "lastUsedAt"]);
    this.#lastUsedAt = this.#lastUsedStoredAt = (got.get("lastUsedAt") as number | undefined) ?? 0;
    this.#record = (got.get("tenant") as TenantRecord | undefined) ?? null;
    this.#keys = (got.get("gatewayKeys") as GatewayKeyRecord[] | undefined) ?? [];
    this.#health = (got.get("health") as Health | undefined) ?? HEALTHY;
    this.#tokensIssued = (got.get("tokensIssued") as number | undefined) ?? 0;
    const stored = got.get("token") as StoredToken | undefined;
    const keys = stored && this.#record ? await this.#secrets() : null;
    const token = stored && keys && this.#record ? await open(stored.sealed, keys, `token:${tenantName(this.#record.environment, this.#record.client)}`) : null;
    this.#token = stored && token ? { token, issuedAt: stored.issuedAt, expiresAt: stored.expiresAt } : null;
  }
}
