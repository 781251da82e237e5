/**
 * @module
 * `SandboxPlatform`: one per environment, standing in for the API's gateway (APIM) and its token
 * server. It owns the environment's clients (client keys only as salted hashes), the access tokens
 * (only as hashes), the rate limit of the environment's one subscription key, the settings and
 * injected faults, and the traffic counters. Every token and v2 call passes through one method
 * here, so the limit is exact: this object handles one event at a time.
 */
import { DurableObject } from "cloudflare:workers";
import { applicationsOf, keysOf, type ApplicationKeys, type Environment } from "../env";
import { randomToken, saltedHash, randomHex, sameSecret } from "../lib/crypto";
import { evaluatePrivileges, PRIVILEGES, SUBSCRIPTIONS } from "../lib/privileges";
import { ArrivalWindow } from "../lib/rate-window";
import { matchFault, Settings, type Fault, type SettingsPatch } from "../lib/settings";
import {
  ONBOARDING_TABLE,
  OnboardingBook,
  PAGE_LIFETIME_MS,
  TOKEN_LIFETIME_MS,
  type OnboardedClient,
  type OnboardingDecided,
  type OnboardingDecision,
  type OnboardingView,
} from "./onboarding-book";

const SCHEMA_VERSION = "3";
/**
 * The integration a client key belongs to when none is named (the one `POST /_sandbox/clients`
 * creates).
 */
export const DEFAULT_INTEGRATION = "default";
/**
 * Expired token rows are kept this long (ms) before they are purged, so "expired" stays
 * distinguishable from "unknown".
 */
const EXPIRED_TOKEN_RETENTION_MS = 3_600_000;

/** Why a call was turned away before it reached a resource. */
export type Rejection =
  | { kind: "fault-error"; status: number }
  | { kind: "fault-drop" }
  /** A v2 call handled, then its answer dropped; anywhere else a plain drop. */
  | { kind: "fault-lose-answer" }
  | { kind: "subscription"; reason: "missing" | "invalid" }
  | { kind: "throttled"; retryAfterSeconds: number }
  | { kind: "token"; reason: "missing" | "invalid" | "expired" }
  | {
      kind: "oauth";
      error: "invalid_request" | "invalid_client" | "unsupported_grant_type";
      description: string;
    };

/** What the gate decided about one v2 call. */
export type Admission = { latencyMs: number } & (
  | {
      ok: true;
      clientId: string;
      integration: string;
      privileges: string[];
      /** Handle the call, then drop its answer (a `drop` fault with `afterHandling`). */
      loseAnswer: boolean;
    }
  | { ok: false; rejection: Rejection }
);

/** What the token endpoint decided. */
export type TokenResult = { latencyMs: number } & (
  { ok: true; accessToken: string; expiresIn: number } | { ok: false; rejection: Rejection }
);

/**
 * When a call reached the sandbox's Worker (epoch ms, its `Date.now()` on arrival): what the rate
 * limit counts, as the API's front layer counts a call when it arrives (`lib/rate-window.ts`).
 */
export interface Arrival {
  arrivedAt: number;
  /**
   * When the caller says it sent the call (`x-ledgergate-sent-at`, the local gateway's clock), or
   * null: logged beside a 429, so a second's calls squeezed in transit are told from ones sent
   * too close together.
   */
  sentAt?: number | null;
}

/** The admitted calls a 429's log line compares with: a second's worth and a little more. */
const SENT_KEPT = 12;

/** A token request as the Worker parsed it; the platform decides everything else. */
export interface TokenRequest extends Arrival {
  subscriptionKey: string | null;
  path: string;
  isForm: boolean;
  grantType: string | null;
  credentials: { applicationKey: string; clientKey: string } | null;
}

/** A new client as `POST /_sandbox/clients` describes it. */
export interface NewClient {
  name: string;
  /** The company's organization number, which onboarding offers clients by; none when omitted. */
  organizationNumber?: string | undefined;
  privileges?: string[] | undefined;
  subscriptions?: string[] | undefined;
}

interface ClientRow extends Record<string, SqlStorageValue> {
  id: string;
  name: string;
  org_no: string | null;
  privileges: string;
  subscriptions: string;
}

export class SandboxPlatform extends DurableObject<SandboxEnv> {
  #settings: Settings;
  readonly #onboardings: OnboardingBook;
  /**
   * Arrival stamps of the calls admitted lately (`lib/rate-window.ts`), one window per
   * application's subscription key, as the API counts.
   */
  readonly #windows = new Map<string, ArrivalWindow>();
  /** Per subscription key, the latest admitted calls' arrival and sending stamps, oldest first. */
  readonly #sent = new Map<string, { at: number; sent: number | null }[]>();

  constructor(ctx: DurableObjectState, env: SandboxEnv) {
    super(ctx, env);
    this.#migrate();
    this.#settings = this.#loadSettings();
    this.#onboardings = new OnboardingBook(ctx.storage.sql);
  }

  /** Runs the gateway's checks for one v2 call: faults, subscription key, rate limit, token. */
  async admit(
    environment: Environment,
    call: Arrival & { subscriptionKey: string | null; bearer: string | null; path: string },
  ): Promise<Admission> {
    const latencyMs = this.#settings.latencyMs;
    this.#count("requests");
    const early = this.#gate(environment, "api", call);
    const loseAnswer = early?.kind === "fault-lose-answer";
    if (early && !loseAnswer) return { ok: false, rejection: early, latencyMs };
    const refuse = (reason: "missing" | "invalid" | "expired"): Admission => {
      this.#count("rejectedToken");
      return { ok: false, rejection: { kind: "token", reason }, latencyMs };
    };
    if (!call.bearer) return refuse("missing");
    const row = this.ctx.storage.sql
      .exec<{ client_id: string; integration: string; expires_at: number }>(
        "SELECT client_id, integration, expires_at FROM tokens WHERE hash = ?",
        await saltedHash("token:", call.bearer),
      )
      .toArray()[0];
    if (!row) return refuse("invalid");
    if (row.expires_at <= Date.now()) return refuse("expired");
    const client = this.#client(row.client_id);
    if (!client) return refuse("invalid");
    const { valid } = evaluatePrivileges(
      environment,
      JSON.parse(client.privileges),
      JSON.parse(client.subscriptions),
    );
    return {
      ok: true,
      clientId: row.client_id,
      integration: row.integration,
      privileges: valid,
      latencyMs,
      loseAnswer,
    };
  }

  /** The token endpoint: client credentials in, a bearer token of this environment out. */
  async issueToken(environment: Environment, req: TokenRequest): Promise<TokenResult> {
    const latencyMs = this.#settings.latencyMs;
    this.#count("requests");
    this.#count("tokenRequests");
    const early = this.#gate(environment, "token", req);
    if (early) return { ok: false, rejection: early, latencyMs };
    const refuse = (
      error: "invalid_request" | "invalid_client" | "unsupported_grant_type",
      description: string,
    ): TokenResult => ({
      ok: false,
      rejection: { kind: "oauth", error, description },
      latencyMs,
    });
    if (!req.isForm)
      return refuse(
        "invalid_request",
        "The request must be sent as application/x-www-form-urlencoded.",
      );
    if (req.grantType === null)
      return refuse("invalid_request", "The grant_type parameter is missing.");
    if (req.grantType !== "client_credentials")
      return refuse(
        "unsupported_grant_type",
        `The grant type '${req.grantType}' is not supported.`,
      );
    const application = this.#application(environment, req.subscriptionKey);
    const holder =
      req.credentials && application && (await this.#verifyClientKey(application, req.credentials));
    if (!holder) {
      return refuse(
        "invalid_client",
        "Client integration not found. Please ensure the provided keys are matching the desired environment.",
      );
    }
    this.ctx.storage.sql.exec(
      "INSERT INTO token_counts (client_id, value) VALUES (?, 1) ON CONFLICT(client_id) DO UPDATE SET value = value + 1",
      holder.clientId,
    );
    const accessToken = randomToken();
    const now = Date.now();
    this.ctx.storage.sql.exec(
      "DELETE FROM tokens WHERE expires_at < ?",
      now - EXPIRED_TOKEN_RETENTION_MS,
    );
    this.ctx.storage.sql.exec(
      "INSERT INTO tokens (hash, client_id, integration, expires_at) VALUES (?, ?, ?, ?)",
      await saltedHash("token:", accessToken),
      holder.clientId,
      holder.integration,
      now + this.#settings.tokenLifetimeSeconds * 1000,
    );
    this.#count("tokensIssued");
    return { ok: true, accessToken, expiresIn: this.#settings.tokenLifetimeSeconds, latencyMs };
  }

  /**
   * Registers a client with a new integration instance; its key is returned here and never again.
   */
  async createClient(
    environment: Environment,
    input: NewClient,
  ): Promise<{ clientId: string; clientKey: string }> {
    const clientId = this.#insertClient(environment, input);
    return { clientId, clientKey: await this.#newClientKey(clientId, DEFAULT_INTEGRATION) };
  }

  /**
   * Adds an integration (another application, in the real API) to an existing client with a client
   * key of its own, or re-adds one that was removed: a new key, the old one stays dead. Records an
   * integration creates are its own: the API limits some reads and writes to them. With no name,
   * the integration `createClient` made.
   */
  async addIntegration(
    clientId: string,
    integration = DEFAULT_INTEGRATION,
  ): Promise<
    { ok: true; clientKey: string } | { ok: false; reason: "not-found" | "already-active" }
  > {
    if (!this.#client(clientId)) return { ok: false, reason: "not-found" };
    const active = this.ctx.storage.sql
      .exec(
        "SELECT 1 FROM client_keys WHERE client_id = ? AND integration = ? AND active = 1",
        clientId,
        integration,
      )
      .toArray();
    // Only one active instance of the application key per client: the real API refuses a second.
    if (active.length > 0) return { ok: false, reason: "already-active" };
    return { ok: true, clientKey: await this.#newClientKey(clientId, integration) };
  }

  /**
   * `DELETE /Offboarding/RemoveIntegration`: the client key stops working for new tokens at once;
   * tokens already issued keep working until they expire, as the real API documents.
   */
  removeIntegration(clientId: string, integration: string): void {
    this.ctx.storage.sql.exec(
      "UPDATE client_keys SET active = 0, removed_at = ? WHERE client_id = ? AND integration = ? AND active = 1",
      Date.now(),
      clientId,
      integration,
    );
  }

  /**
   * Changes what a client granted the integration (the control API's, as a client administrator
   * would in the real product): each list given replaces the one before. False: no such client.
   */
  setPrivileges(
    clientId: string,
    change: { privileges?: string[] | undefined; subscriptions?: string[] | undefined },
  ): boolean {
    const client = this.#client(clientId);
    if (!client) return false;
    this.ctx.storage.sql.exec(
      "UPDATE clients SET privileges = ?, subscriptions = ? WHERE id = ?",
      change.privileges ? JSON.stringify(change.privileges) : client.privileges,
      change.subscriptions ? JSON.stringify(change.subscriptions) : client.subscriptions,
      clientId,
    );
    return true;
  }

  /** `ClientIntegrationInformationDto` for a client, or null when it does not exist. */
  integrationInformation(environment: Environment, clientId: string) {
    const client = this.#client(clientId);
    if (!client) return null;
    const subscriptions: string[] = JSON.parse(client.subscriptions);
    const { valid, invalid } = evaluatePrivileges(
      environment,
      JSON.parse(client.privileges),
      subscriptions,
    );
    return {
      ActiveClientSubscriptions: subscriptions,
      ClientId: client.id,
      ClientName: client.name,
      InvalidPrivileges: invalid,
      ValidPrivileges: valid,
    };
  }

  /**
   * The gate of the calls the spec marks anonymous (Onboarding): faults, subscription key and rate
   * limit, but no token.
   */
  admitAnonymous(
    environment: Environment,
    call: Arrival & { subscriptionKey: string | null; path: string },
  ): { latencyMs: number } & ({ ok: true } | { ok: false; rejection: Rejection }) {
    const latencyMs = this.#settings.latencyMs;
    this.#count("requests");
    const early = this.#gate(environment, "api", call);
    return early ? { ok: false, rejection: early, latencyMs } : { ok: true, latencyMs };
  }

  /**
   * `POST /Onboarding/Initiate`: opens a session whose approval page is `{pageBase}/{page id}`.
   * The application key must be this environment's: the real API onboards a known application only.
   */
  async initiateOnboarding(
    environment: Environment,
    input: { applicationKey: string; redirectUri: string; orgNo: string | null; pageBase: string },
  ): Promise<
    | { ok: true; temporaryUrl: string; validUntil: string }
    | { ok: false; field: string; message: string }
  > {
    if (!sameSecret(input.applicationKey, keysOf(this.env, environment).applicationKey)) {
      return {
        ok: false,
        field: "ApplicationKey",
        message: `The ApplicationKey is not an application of the ${environment} environment.`,
      };
    }
    // Hex, not base64url: the sandbox routes on the lowercased path, so the id must survive it.
    const pageId = randomHex(32);
    const now = Date.now();
    const validUntil = now + PAGE_LIFETIME_MS;
    this.#onboardings.open(
      await saltedHash("onboarding-page:", pageId),
      { redirectUri: input.redirectUri, orgNo: input.orgNo, validUntil },
      now,
    );
    return {
      ok: true,
      temporaryUrl: `${input.pageBase}/${pageId}`,
      validUntil: new Date(validUntil).toISOString(),
    };
  }

  /** What the approval page shows: the clients offered, or why the page can no longer be used. */
  async onboardingView(pageId: string): Promise<OnboardingView> {
    const s = this.#onboardings.session(await saltedHash("onboarding-page:", pageId));
    if (!s) return { state: "unknown" };
    if (s.status !== "pending") return { state: "done" };
    if (s.validUntil <= Date.now()) return { state: "expired" };
    return {
      state: "pending",
      orgNo: s.orgNo,
      validUntil: new Date(s.validUntil).toISOString(),
      clients: this.#offered(s.orgNo),
    };
  }

  /**
   * The user's answer on the approval page: where to send the browser (the RedirectUri with
   * `token`, or with `error=access_denied`), or why not. The RedirectUri's own query parameters are
   * kept: the API ignores them when it checks the address, so integrations carry their state there.
   */
  async decideOnboarding(
    environment: Environment,
    pageId: string,
    d: OnboardingDecision,
  ): Promise<OnboardingDecided> {
    const pageHash = await saltedHash("onboarding-page:", pageId);
    const token = randomToken();
    const tokenHash = await saltedHash("onboarding-token:", token);
    // Synchronous from here: no other event runs between the check of the session and its update.
    const s = this.#onboardings.session(pageHash);
    if (!s) return { ok: false, reason: "unknown" };
    if (s.status !== "pending") return { ok: false, reason: "done" };
    const now = Date.now();
    if (s.validUntil <= now) return { ok: false, reason: "expired" };
    const back = new URL(s.redirectUri);
    if (!d.approve) {
      this.#onboardings.decline(pageHash);
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user declined to connect the integration.");
      return { ok: true, location: back.toString() };
    }
    const offered = this.#offered(s.orgNo);
    const invalid = (message: string): OnboardingDecided => ({
      ok: false,
      reason: "invalid",
      message,
    });
    if (!d.clientIds.every((id) => offered.some((c) => c.id === id)))
      return invalid("A company that was not offered was picked.");
    const picked = [...new Set(d.clientIds)];
    if (d.newCompany) {
      const orgNo = d.newCompany.organizationNumber;
      if (s.orgNo !== null && orgNo !== s.orgNo)
        return invalid(
          `The integration asked for the company with organization number ${s.orgNo}.`,
        );
      const taken =
        this.ctx.storage.sql.exec("SELECT 1 FROM clients WHERE org_no = ?", orgNo).toArray()
          .length > 0;
      if (taken)
        return invalid(
          `A company with organization number ${orgNo} exists already; pick it in the list instead.`,
        );
      picked.push(
        this.#insertClient(environment, { name: d.newCompany.name, organizationNumber: orgNo }),
      );
    }
    if (picked.length === 0) return invalid("Pick at least one company, or create one.");
    this.#onboardings.approve(pageHash, picked, tokenHash, now + TOKEN_LIFETIME_MS);
    back.searchParams.set("token", token);
    return { ok: true, location: back.toString() };
  }

  /**
   * `POST /Onboarding/Finalize`: one new client key per approved client, once; null when the token
   * is unknown, used or expired. The integration becomes active on those clients: a key it held
   * for one of them before stops working (one active instance of an application per client).
   */
  async finalizeOnboarding(token: string): Promise<OnboardedClient[] | null> {
    const s = this.#onboardings.claim(await saltedHash("onboarding-token:", token), Date.now());
    if (!s) return null;
    const onboarded: OnboardedClient[] = [];
    for (const id of s.clientIds) {
      const c = this.#client(id);
      if (!c) continue;
      this.removeIntegration(id, DEFAULT_INTEGRATION);
      onboarded.push({
        ClientKey: await this.#newClientKey(id, DEFAULT_INTEGRATION),
        ClientName: c.name,
        ClientOrganizationNumber: c.org_no,
      });
    }
    return onboarded;
  }

  /** Revokes issued tokens (all, or one client's): the next call with them is answered 401. */
  revokeTokens(clientId?: string): number {
    const cursor = clientId
      ? this.ctx.storage.sql.exec("DELETE FROM tokens WHERE client_id = ?", clientId)
      : this.ctx.storage.sql.exec("DELETE FROM tokens");
    return cursor.rowsWritten;
  }

  /** Applies a partial settings update and returns the whole settings document. */
  updateSettings(patch: Omit<SettingsPatch, "environment">): Settings {
    this.#settings = Settings.parse({ ...this.#settings, ...patch });
    this.#saveSettings();
    if (patch.rateLimitPerSecond !== undefined || patch.fixedWindowMs !== undefined)
      this.#windows.clear();
    return this.#settings;
  }

  /**
   * Moves the rate limit's clock `ms` ahead: the calls it counts are taken as `ms` older, as if
   * that much time had passed. For tests that move the gateway's clock ahead (a faked `Date`)
   * instead of waiting: the gateway's governor then counts its own grants as older too, and the two
   * windows must agree on what the last second holds (see test/helpers/clock.ts). Tokens and
   * onboarding pages keep real time.
   */
  skipRateWindow(ms: number): void {
    for (const w of this.#windows.values()) w.skip(ms);
  }

  /** The current settings document. */
  settings(): Settings {
    return this.#settings;
  }

  /** Traffic counters since the last reset. */
  stats() {
    const counters = Object.fromEntries(
      this.ctx.storage.sql
        .exec<{ name: string; value: number }>("SELECT name, value FROM counters")
        .toArray()
        .map((r) => [r.name, r.value]),
    );
    const byClient = Object.fromEntries(
      this.ctx.storage.sql
        .exec<{ client_id: string; value: number }>("SELECT client_id, value FROM token_counts")
        .toArray()
        .map((r) => [r.client_id, r.value]),
    );
    const n = (k: string): number => counters[k] ?? 0;
    return {
      requests: n("requests"),
      throttled: n("throttled"),
      /** Of `throttled`, the 429s a `throttle` fault answered, not the rate limit. */
      throttledInjected: n("throttledInjected"),
      tokenRequests: { total: n("tokenRequests"), byClient },
      tokensIssued: n("tokensIssued"),
      rejected: {
        subscription: n("rejectedSubscription"),
        token: n("rejectedToken"),
        faults: n("faults"),
      },
    };
  }

  /**
   * Forgets everything: clients, keys, tokens, counters, settings. Returns the ids of the clients
   * that were removed.
   */
  reset(): string[] {
    const ids = this.ctx.storage.sql
      .exec<{ id: string }>("SELECT id FROM clients")
      .toArray()
      .map((r) => r.id);
    for (const table of [
      "clients",
      "client_keys",
      "tokens",
      "counters",
      "token_counts",
      "settings",
      "onboardings",
    ]) {
      this.ctx.storage.sql.exec(`DELETE FROM ${table}`);
    }
    this.#settings = Settings.parse({});
    this.#windows.clear();
    this.#sent.clear();
    return ids;
  }

  #gate(
    environment: Environment,
    target: "token" | "api",
    {
      subscriptionKey,
      path,
      arrivedAt,
      sentAt = null,
    }: Arrival & { subscriptionKey: string | null; path: string },
  ): Rejection | null {
    const fault = this.#takeFault(target, path);
    if (fault) {
      this.#count("faults");
      if (fault.kind === "drop")
        return { kind: fault.afterHandling ? "fault-lose-answer" : "fault-drop" };
      if (fault.kind === "error") return { kind: "fault-error", status: fault.status };
      this.#count("throttled");
      this.#count("throttledInjected");
      return { kind: "throttled", retryAfterSeconds: fault.retryAfterSeconds };
    }
    const application = this.#application(environment, subscriptionKey);
    if (!application) {
      this.#count("rejectedSubscription");
      return { kind: "subscription", reason: subscriptionKey ? "invalid" : "missing" };
    }
    let window = this.#windows.get(application.subscriptionKey);
    if (!window) this.#windows.set(application.subscriptionKey, (window = new ArrivalWindow()));
    const now = Date.now();
    const retryAfterSeconds = window.take(arrivedAt, now, {
      perSecond: this.#settings.rateLimitPerSecond,
      fixedWindowMs: this.#settings.fixedWindowMs,
    });
    if (retryAfterSeconds > 0) {
      this.#count("throttled");
      // The rate limit's own 429 (not a fault's): what filled the second, for a bench's reader.
      // The sandbox's one log line; the Workers runtime ships console output to its logs.
      // eslint-disable-next-line no-console
      console.warn(
        JSON.stringify({
          event: "sandbox-rate-limited",
          environment,
          path,
          at: new Date(now).toISOString(),
          decidedAfterMs: now - arrivedAt,
          admittedMsBefore: window.before(Math.min(arrivedAt, now)),
          // The same calls by when their sender sent them: wider apart than they arrived when
          // the squeeze happened in transit (a loaded machine), not in the sender's pace.
          sentMsBefore:
            sentAt === null
              ? null
              : (this.#sent.get(application.subscriptionKey) ?? [])
                  .filter((x) => x.at > arrivedAt - 1000 && x.sent !== null)
                  .map((x) => sentAt - (x.sent ?? 0)),
        }),
      );
      return { kind: "throttled", retryAfterSeconds };
    }
    const sent = this.#sent.get(application.subscriptionKey) ?? [];
    sent.push({ at: arrivedAt, sent: sentAt });
    this.#sent.set(application.subscriptionKey, sent.slice(-SENT_KEPT));
    return null;
  }

  /** The application of `environment` whose subscription key `subscriptionKey` is; null: none. */
  #application(environment: Environment, subscriptionKey: string | null): ApplicationKeys | null {
    if (!subscriptionKey) return null;
    return (
      applicationsOf(this.env, environment).find((a) =>
        sameSecret(subscriptionKey, a.subscriptionKey),
      ) ?? null
    );
  }

  #takeFault(target: "token" | "api", path: string): Fault | null {
    const i = matchFault(this.#settings.faults, target, path);
    const fault = this.#settings.faults[i];
    if (!fault) return null;
    if (fault.count !== undefined) {
      const faults = [...this.#settings.faults];
      if (fault.count > 1) faults[i] = { ...fault, count: fault.count - 1 };
      else faults.splice(i, 1);
      this.#settings = { ...this.#settings, faults };
      this.#saveSettings();
    }
    return fault;
  }

  /**
   * The client and integration of `creds`, signed by `application` (the one whose subscription key
   * the request carries); null when they do not match.
   */
  async #verifyClientKey(
    application: ApplicationKeys,
    creds: { applicationKey: string; clientKey: string },
  ): Promise<{ clientId: string; integration: string } | null> {
    if (!sameSecret(creds.applicationKey, application.applicationKey)) return null;
    const row = this.ctx.storage.sql
      .exec<{ client_id: string; integration: string; salt: string; hash: string; active: number }>(
        "SELECT client_id, integration, salt, hash, active FROM client_keys WHERE lookup = ?",
        await saltedHash("lookup:", creds.clientKey),
      )
      .toArray()[0];
    if (!row || row.active !== 1) return null;
    return sameSecret(await saltedHash(row.salt, creds.clientKey), row.hash)
      ? { clientId: row.client_id, integration: row.integration }
      : null;
  }

  /**
   * Client keys are stored as a salted hash, found through a separate lookup hash. The lookup
   * cannot be salted (it must be computed from the presented key alone), so it only indexes;
   * the salted hash is what verifies.
   */
  async #newClientKey(clientId: string, integration: string): Promise<string> {
    const clientKey = crypto.randomUUID();
    const salt = randomHex(16);
    this.ctx.storage.sql.exec(
      "INSERT INTO client_keys (lookup, client_id, integration, salt, hash, active, created_at) VALUES (?, ?, ?, ?, ?, 1, ?)",
      await saltedHash("lookup:", clientKey),
      clientId,
      integration,
      salt,
      await saltedHash(salt, clientKey),
      Date.now(),
    );
    return clientKey;
  }

  /**
   * The clients an onboarding offers: all of the environment's, or those with the organization
   * number asked for.
   */
  #offered(orgNo: string | null): { id: string; name: string; orgNo: string | null }[] {
    return this.ctx.storage.sql
      .exec<{ id: string; name: string; org_no: string | null }>(
        "SELECT id, name, org_no FROM clients ORDER BY created_at, name",
      )
      .toArray()
      .filter((r) => orgNo === null || r.org_no === orgNo)
      .map((r) => ({ id: r.id, name: r.name, orgNo: r.org_no }));
  }

  /** A new client with no integration yet. */
  #insertClient(environment: Environment, input: NewClient): string {
    const clientId = crypto.randomUUID();
    const privileges = input.privileges ?? [...PRIVILEGES.keys()];
    const subscriptions =
      input.subscriptions ?? (environment === "demo" ? [...SUBSCRIPTIONS] : ["Accounting"]);
    this.ctx.storage.sql.exec(
      "INSERT INTO clients (id, name, org_no, privileges, subscriptions, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      clientId,
      input.name,
      input.organizationNumber ?? null,
      JSON.stringify(privileges),
      JSON.stringify(subscriptions),
      Date.now(),
    );
    return clientId;
  }

  #client(clientId: string): ClientRow | null {
    return (
      this.ctx.storage.sql
        .exec<ClientRow>(
          "SELECT id, name, org_no, privileges, subscriptions FROM clients WHERE id = ?",
          clientId,
        )
        .toArray()[0] ?? null
    );
  }

  #count(name: string): void {
    this.ctx.storage.sql.exec(
      "INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1",
      name,
    );
  }

  #loadSettings(): Settings {
    const row = this.ctx.storage.sql
      .exec<{ value: string }>("SELECT value FROM settings WHERE key = 'settings'")
      .toArray()[0];
    return Settings.parse(row ? JSON.parse(row.value) : {});
  }

  #saveSettings(): void {
    this.ctx.storage.sql.exec(
      "INSERT INTO settings (key, value) VALUES ('settings', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      JSON.stringify(this.#settings),
    );
  }

  /** Creates the schema on every wake; cheap once the stored version matches. */
  #migrate(): void {
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    const version = sql
      .exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'")
      .toArray()[0]?.value;
    if (version === SCHEMA_VERSION) return;
    // Sandbox state is disposable: a new layout starts the environment afresh. Deliberately not the
    // gateway's numbered migrations (src/kernel/migrations.ts): nothing here is worth keeping.
    for (const t of [
      "clients",
      "client_keys",
      "tokens",
      "counters",
      "token_counts",
      "settings",
      "onboardings",
    ])
      sql.exec(`DROP TABLE IF EXISTS ${t}`);
    sql.exec(`CREATE TABLE IF NOT EXISTS clients (id TEXT PRIMARY KEY, name TEXT NOT NULL, org_no TEXT, privileges TEXT NOT NULL,
      subscriptions TEXT NOT NULL, created_at INTEGER NOT NULL)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS client_keys (lookup TEXT PRIMARY KEY, client_id TEXT NOT NULL, integration TEXT NOT NULL, salt TEXT NOT NULL,
      hash TEXT NOT NULL, active INTEGER NOT NULL, created_at INTEGER NOT NULL, removed_at INTEGER)`);
    sql.exec(
      "CREATE TABLE IF NOT EXISTS tokens (hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, integration TEXT NOT NULL, expires_at INTEGER NOT NULL)",
    );
    sql.exec("CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)");
    sql.exec(
      "CREATE TABLE IF NOT EXISTS token_counts (client_id TEXT PRIMARY KEY, value INTEGER NOT NULL)",
    );
    sql.exec("CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    sql.exec(ONBOARDING_TABLE);
    sql.exec(
      "INSERT INTO meta (key, value) VALUES ('schema', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      SCHEMA_VERSION,
    );
  }
}
