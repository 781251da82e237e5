/**
 * @module The tenant's access token: issued once for all concurrent callers, renewed ahead of
 * expiry (`upstream/token-timing.ts`), dropped on a 401 only if it is still the current one.
 */
import type { Sealed } from "../../kernel/crypto";
import { fail, ok, type Failure, type Outcome } from "../../kernel/outcome";
import { renewalPlan, renewalStart, type TokenRecord } from "../token-timing";
import { readTokenState, writeTokenState } from "./token-state";

/** Back-off after a failed token request: 1 s doubling to at most this, ms. */
const MAX_BACKOFF_MS = 30_000;
/** `lastUsedAt` is stored at most this often, ms: the renewal alarm needs minutes. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** After a failed renewal while the old token still serves, the alarm waits at least this, ms. */
const RENEW_RETRY_MS = 1_000;

export type Access = { token: string; expiresAt: number };
export type IssuedToken = { accessToken: string; expiresIn: number };

export interface TokenSource {
  /** `unprocessable`: the API refused the tenant's client key. */
  request(): Promise<Outcome<IssuedToken>>;
  seal(token: string): Promise<Sealed | null>;
  open(sealed: Sealed): Promise<string | null>;
}

/** Who hears of the connection's changes (`upstream/tenant/connection.ts`). */
export interface ConnectionWatch {
  lost(reason: string, now: number): void;
  restored(now: number): void;
}

export class TokenKeeper {
  #token: TokenRecord | null = null;
  #sealed: Sealed | null = null;
  #rejectedReason: string | null = null;
  #failures = 0;
  #backoffUntil = 0;
  #lastError: string | null = null;
  #issued = 0;
  /** Callers that had to wait for a token request (the renewal alarm keeps this at zero). */
  #waits = 0;
  #lastUsedAt = 0;
  #lastUsedStoredAt = 0;
  #renewAt = 0;
  #inflight: Promise<Outcome<Access>> | null = null;
  /** Bumped by every operator change: a request started before one applies nothing. */
  #generation = 0;

  constructor(
    private readonly sql: SqlStorage,
    private readonly now: () => number,
    private readonly source: TokenSource,
    /** Called after the token changed: the object re-arms its alarm. */
    private readonly changed: () => Promise<void>,
    /** Told when the API first refuses the client key, and when a key works again after. */
    private readonly connection: ConnectionWatch = { lost: () => {}, restored: () => {} },
  ) {}

  async load(): Promise<void> {
    const s = readTokenState(this.sql);
    if (!s) return;
    [this.#rejectedReason, this.#failures, this.#backoffUntil, this.#lastError] = [
      s.rejected_reason,
      s.failures,
      s.backoff_until,
      s.last_error,
    ];
    this.#issued = s.tokens_issued;
    this.#lastUsedAt = this.#lastUsedStoredAt = s.last_used_at;
    const token = s.sealed && (await this.source.open(s.sealed));
    if (token && s.issued_at !== null && s.expires_at !== null) {
      this.#token = { token, issuedAt: s.issued_at, expiresAt: s.expires_at };
      this.#sealed = s.sealed;
      this.#renewAt = renewalPlan(this.#token, this.now(), this.#lastUsedAt).alarmAt;
    }
  }

  async access(): Promise<Outcome<Access>> {
    const now = this.now();
    this.#lastUsedAt = now;
    // Stored too, so the renewal alarm still knows the tenant is busy after an eviction.
    if (now - this.#lastUsedStoredAt > LAST_USED_RESOLUTION_MS) this.#persist();
    const t = this.#token;
    if (t) {
      const plan = renewalPlan(t, now, now);
      if (plan.usable) {
        // Inside the renewal window: keep serving this token while one renewal runs for everyone.
        if (plan.renewNow && this.#mayRequest(now)) void this.#issue();
        return ok({ token: t.token, expiresAt: t.expiresAt });
      }
    }
    if (this.#rejectedReason !== null) return this.#rejected(this.#rejectedReason);
    if (this.#backoffUntil > now && !this.#inflight) {
      return fail(
        "unavailable",
        `The token endpoint failed (${this.#lastError}); retrying after a back-off.`,
        Math.ceil((this.#backoffUntil - now) / 1000),
      );
    }
    this.#waits++;
    return this.#issue();
  }

  /** Until when a copy of `token` may be served: its renewal window's start; 0 if not current. */
  servesUntil(token: string): number {
    return this.#token?.token === token ? renewalStart(this.#token) : 0;
  }

  /** Keeps a token a registration got while checking the client key (an operator change). */
  async adopt(issued: IssuedToken): Promise<Outcome<Access>> {
    this.#generation++;
    this.#healthy();
    return this.#keep(issued);
  }

  /** Drops `token` after a 401, only if still current: an old token's 401 must not drop the new. */
  invalidate(token: string): void {
    if (this.#token?.token !== token) return;
    this.#token = this.#sealed = null;
    this.#persist();
  }

  /** The alarm's part: renews a token in its window while the tenant is in use; safe twice. */
  async renew(): Promise<void> {
    const t = this.#token;
    if (!t) return;
    const plan = renewalPlan(t, this.now(), this.#lastUsedAt);
    if (plan.renewNow && plan.inUse && this.#mayRequest(this.now())) await this.#issue();
  }

  /** When the alarm should next call `renew`; null: nothing due (an idle tenant's token lapses). */
  dueAt(): number | null {
    const t = this.#token;
    if (!t) return null;
    const now = this.now();
    const plan = renewalPlan(t, now, this.#lastUsedAt);
    if (!plan.renewNow) return this.#renewAt;
    // A renewal failed: try again after the back-off, unless the key was refused (only a new
    // client key mends that).
    return plan.inUse && plan.usable && this.#rejectedReason === null
      ? Math.max(this.#backoffUntil, now + RENEW_RETRY_MS)
      : null;
  }

  /** For operators: never the token itself. */
  view() {
    const now = this.now();
    const state =
      this.#rejectedReason !== null
        ? { state: "rejected" as const, reason: this.#rejectedReason }
        : this.#token && this.#token.expiresAt > now
          ? { state: "valid" as const, expiresAt: new Date(this.#token.expiresAt).toISOString() }
          : { state: "none" as const };
    return {
      token: state,
      lastError: this.#lastError,
      counters: { tokensIssued: this.#issued, tokenWaits: this.#waits },
    };
  }

  /** Forgets everything (the tenant is removed); a request in flight applies nothing. */
  clear(): void {
    this.#generation++;
    this.sql.exec("DELETE FROM token_state");
    this.#token = this.#sealed = null;
    this.#rejectedReason = this.#lastError = null;
    this.#failures =
      this.#backoffUntil =
      this.#issued =
      this.#waits =
      this.#lastUsedAt =
      this.#lastUsedStoredAt =
        0;
  }

  /**
   * Single-flight: every caller awaits the request in flight. Input gates do not give this (an
   * outbound fetch opens the gate), so the promise is held explicitly.
   */
  #issue(): Promise<Outcome<Access>> {
    this.#inflight ??= this.#requestAndKeep()
      // A failed RPC to the governor or a storage error: a transient failure, backed off like one.
      .catch(() =>
        this.#failed({
          reason: "unavailable",
          detail: "internal failure while requesting a token",
        }),
      )
      .finally(() => {
        this.#inflight = null;
      });
    return this.#inflight;
  }

  async #requestAndKeep(): Promise<Outcome<Access>> {
    const generation = this.#generation;
    const got = await this.source.request();
    if (generation !== this.#generation)
      return fail("unavailable", "The tenant changed while a token was requested; try again.", 1);
    if (got.ok) {
      this.#healthy();
      return this.#keep(got.value);
    }
    const e = got.error;
    if (e.reason === "unprocessable" && this.#rejectedReason === null)
      this.connection.lost(e.detail, this.now());
    const failure: Outcome<Access> =
      e.reason === "unprocessable"
        ? ((this.#rejectedReason = this.#lastError = e.detail), this.#rejected(e.detail))
        : this.#failed(e);
    this.#persist();
    // The old token still serves while it lasts: a failed renewal is not yet the callers' problem.
    const t = this.#token;
    return t && renewalPlan(t, this.now(), this.#lastUsedAt).usable
      ? ok({ token: t.token, expiresAt: t.expiresAt })
      : failure;
  }

  #failed(e: Failure): Outcome<Access> {
    this.#failures++;
    const now = this.now();
    this.#backoffUntil = now + Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (this.#failures - 1));
    this.#lastError = e.detail;
    return fail(
      e.reason === "misconfigured" ? "misconfigured" : "unavailable",
      e.detail,
      Math.ceil((this.#backoffUntil - now) / 1000),
    );
  }

  #mayRequest(now: number): boolean {
    return !this.#inflight && this.#backoffUntil <= now && this.#rejectedReason === null;
  }

  #healthy(): void {
    if (this.#rejectedReason !== null) this.connection.restored(this.now());
    this.#rejectedReason = this.#lastError = null;
    this.#failures = this.#backoffUntil = 0;
  }

  #rejected(reason: string): Outcome<Access> {
    return fail(
      "rejected",
      `The API refused this tenant's client key (${reason}). Replace it: PUT /admin/tenants/{environment}/{client}/client-key.`,
    );
  }

  async #keep(issued: IssuedToken): Promise<Outcome<Access>> {
    const sealed = await this.source.seal(issued.accessToken);
    if (!sealed) return fail("misconfigured", "SECRETS_KEY is not configured.");
    // Expiry from our own receive time, not the server's clock: that absorbs clock skew.
    const issuedAt = this.now();
    this.#token = {
      token: issued.accessToken,
      issuedAt,
      expiresAt: issuedAt + issued.expiresIn * 1000,
    };
    this.#sealed = sealed;
    this.#renewAt = renewalPlan(this.#token, issuedAt, this.#lastUsedAt).alarmAt;
    this.#issued++;
    this.#persist();
    await this.changed();
    return ok({ token: this.#token.token, expiresAt: this.#token.expiresAt });
  }

  #persist(): void {
    this.#lastUsedStoredAt = this.#lastUsedAt;
    writeTokenState(this.sql, {
      sealed: this.#sealed,
      issued_at: this.#token?.issuedAt ?? null,
      expires_at: this.#token?.expiresAt ?? null,
      rejected_reason: this.#rejectedReason,
      failures: this.#failures,
      backoff_until: this.#backoffUntil,
      last_error: this.#lastError,
      tokens_issued: this.#issued,
      last_used_at: this.#lastUsedAt,
    });
  }
}
