/**
 * @module
 * `Tenant`: one per tenant (`idFromName("demo:acme")`). Everything secret or stateful about the
 * tenant lives here and only here. The class is thin: it holds the modules of `tenant/`
 * (registration, gateway keys, token keeper, order settings, order desk, payout desk, …), each
 * with its own tables, and hands out one face per kind of caller (`forKey`, `forRun`,
 * `forOperator`, …), whose methods are the object's API. One alarm, set to the earliest due time
 * of the modules' stored work, registered once (`tenant/stored-work.ts`). Storage layout:
 * docs/storage.md.
 */
import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../kernel/config";
import { directoryStub } from "../kernel/stubs";
import type { Source } from "../orders/order";
import type { Outcome } from "../kernel/outcome";
import { AssistantGrants } from "../assistants/tenant/assistant-grants";
import { CallLogFace } from "../request-log/call-log-face";
import { CodeIds } from "../v2/tenant/code-ids";
import { Enrolment } from "./enrolment";
import { GatewayKeys } from "./gateway-keys";
import { grantAccess, type GrantHolderFace } from "./grant-face";
import { IdempotencyKeys } from "../v2/tenant/idempotency-keys";
import { grantKey, type KeyHolderFace } from "./key-face";
import { KnownIds } from "../orders/tenant/known-ids";
import { OperatorFace } from "./operator-face";
import { OrderBook } from "../orders/tenant/order-book";
import { OrderDesk, unverified, type WebhookIntake } from "../orders/tenant/order-desk";
import { OrderSettings } from "../orders/tenant/order-settings";
import { PaymentRefs } from "../ledger/payment-refs";
import { PayoutDesk } from "../payouts/tenant/payout-desk";
import { ownerOf, type TenantParts } from "./parts";
import { ReferenceCache } from "../v2/tenant/reference-cache";
import { RequestLog } from "../request-log/tenant-rows";
import { ShopPins } from "../orders/tenant/shop-pins";
import { StripeKeys } from "../payouts/tenant/stripe-key";
import { WebhookSetup } from "../orders/tenant/webhook-setup";
import { Registration } from "./registration";
import { grantRun, type RunHolderFace } from "./run-face";
import { migrate } from "./schema";
import { Sealer } from "./sealer";
import { TokenKeeper } from "../upstream/tenant/token-keeper";
import { ToolCalls } from "../assistants/tenant/tool-calls";
import { WriteConfirmations } from "../assistants/tenant/write-confirmations";
import { tokenSource } from "../upstream/tenant/token-source";
import { WatcherFace } from "../events/watcher/watcher-face";
import { purges, StoredWorks } from "./stored-work";

/**
 * Why faces, and what they do and do not stop. Any public member of a Durable Object is reachable
 * over RPC by whoever holds a stub (TypeScript's `private` and an interface are only types), so
 * telling callers apart by interface alone would leave every method open to every caller. Here the
 * object's public members are only the faces, the request log's append-only face (`forCallLog`,
 * see `request-log/call-log-face.ts`), the webhook intake (which verifies its own signature),
 * `invalidate` (the token is its own credential) and `alarm`. A face is an `RpcTarget`
 * the object hands out itself, holding its modules in `#private` fields:
 * - `forKey(k)` checks the gateway key once, in one place (`grantKey`), and only then hands out
 *   the face whose methods act; a bad key gets a face whose every method answers `unauthorized`
 *   (the same 401 problem as before, no exception, nothing of the key or a stack). No method a key
 *   holder reaches can skip the check or forget it, and none can reach another face's methods.
 * - `forGrant(g)` does the same for an assistant's OAuth grant (`tenant/grant-face.ts`): a grant
 *   opens only what an MCP tool call needs, and only while its row is live under the current
 *   registration, so a revoked grant is refused at its next call.
 * - `forRun(r)` hands an order run its face only while `r` is the current registration, so a run
 *   of a removed (or re-registered) tenant gets no token and touches nothing.
 * - `forOperator()` checks nothing and cannot: the object has no operator credential to check, and
 *   code that holds the namespace binding can always ask for this face. The Worker's admin-token
 *   and console-session checks are the authority there (only routes behind them call
 *   `asOperator`); the face keeps register, key rotation and removal out of the other two.
 * - `forWatcher()` is the tenant's watcher's (issue 30): unchecked like the operator's, and only a
 *   token for the books it names, and which books those are (`events/watcher/watcher-face.ts`).
 * A face answers for the moment it was handed out, so callers take one per call: Workers RPC
 * pipelines the call on the face's promise with the call that hands it out
 * (`stub.forKey(k).orderRun(…)`), so that costs no round trip, and a key retired or a tenant
 * removed is refused at the next call, as when each method checked for itself.
 */
export class Tenant extends DurableObject<Bindings> {
  readonly #sealer: Sealer;
  readonly #registration: Registration;
  readonly #keys: GatewayKeys;
  readonly #tokens: TokenKeeper;
  readonly #settings: OrderSettings;
  readonly #pins: ShopPins;
  readonly #desk: OrderDesk;
  readonly #payouts: PayoutDesk;
  readonly #stripeKeys: StripeKeys;
  readonly #paymentRefs: PaymentRefs;
  readonly #known: KnownIds;
  readonly #codeIds: CodeIds;
  readonly #idempotency: IdempotencyKeys;
  readonly #references: ReferenceCache;
  readonly #log: RequestLog;
  readonly #confirmations: WriteConfirmations;
  readonly #toolCalls: ToolCalls;
  readonly #grants: AssistantGrants;
  /** The modules as the faces reach them. */
  readonly #parts: TenantParts;
  readonly #enrolment: Enrolment;
  /** Every module's stored work, and the one alarm over it. */
  readonly #work: StoredWorks;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    // Throws when a step fails (rolled back): every call then fails until a wake migrates.
    migrate(ctx.storage);
    this.#sealer = new Sealer(env);
    this.#registration = new Registration(sql);
    this.#keys = new GatewayKeys(sql);
    this.#settings = new OrderSettings(sql, this.#sealer);
    this.#pins = new ShopPins(sql);
    this.#paymentRefs = new PaymentRefs(sql);
    this.#stripeKeys = new StripeKeys(sql, this.#sealer);
    this.#payouts = new PayoutDesk(sql, env, this.#settings, new OrderBook(sql), this.#paymentRefs);
    this.#desk = new OrderDesk(
      sql,
      env,
      this.#settings,
      this.#pins,
      this.#payouts,
      this.#paymentRefs,
    );
    this.#known = new KnownIds(sql, this.#settings);
    this.#codeIds = new CodeIds(sql);
    this.#idempotency = new IdempotencyKeys(sql);
    this.#references = new ReferenceCache(sql);
    this.#log = new RequestLog(sql, () => Date.now());
    this.#confirmations = new WriteConfirmations(sql);
    this.#toolCalls = new ToolCalls(sql);
    this.#grants = new AssistantGrants(sql);
    this.#tokens = new TokenKeeper(
      sql,
      // Reads `Date` at each call, so a test's fake `Date` reaches the token's clock too.
      () => Date.now(),
      tokenSource(() => this.env, this.#registration, this.#sealer),
      () => this.#arm(),
    );
    // Registered once: the alarm runs them in this order (purges first, so a run started next
    // and a token renewed last see the books as kept), and arms at the earliest of them.
    this.#work = new StoredWorks(ctx.storage).register(
      ...[
        this.#desk.book,
        this.#payouts.book,
        this.#paymentRefs,
        this.#settings,
        this.#idempotency,
        this.#references,
        this.#log,
        this.#confirmations,
        this.#toolCalls,
        this.#grants,
      ].map(purges),
      { dueAt: () => this.#desk.dueAt(), runDue: (_, owner) => this.#desk.startPending(owner) },
      {
        dueAt: () => this.#payouts.dueAt(),
        runDue: (_, owner) => this.#payouts.startPending(owner),
      },
      { dueAt: () => this.#tokens.dueAt(), runDue: () => this.#tokens.renew() },
    );
    void ctx.blockConcurrencyWhile(() => this.#tokens.load());
    // The one index across tenants (a secret's SHA-256 on a shop) is the directory's.
    const webhooks = new WebhookSetup(this.#settings, this.#pins, {
      claim: (claim) => directoryStub(this.env).claimShop(claim),
    });
    // Every module that keeps rows: the tenant's removal empties them together.
    const kept = [
      this.#desk.book,
      this.#payouts.book,
      this.#paymentRefs,
      this.#stripeKeys,
      this.#settings,
      this.#pins,
      this.#known,
      this.#codeIds,
      this.#idempotency,
      this.#references,
      this.#log,
      this.#toolCalls,
      this.#confirmations,
      this.#grants,
      this.#tokens,
      this.#keys,
      this.#registration,
    ];
    this.#parts = {
      storage: ctx.storage,
      registration: this.#registration,
      keys: this.#keys,
      tokens: this.#tokens,
      settings: this.#settings,
      pins: this.#pins,
      webhooks,
      desk: this.#desk,
      payouts: this.#payouts,
      stripeKeys: this.#stripeKeys,
      paymentRefs: this.#paymentRefs,
      known: this.#known,
      codeIds: this.#codeIds,
      idempotency: this.#idempotency,
      references: this.#references,
      log: this.#log,
      confirmations: this.#confirmations,
      toolCalls: this.#toolCalls,
      grants: this.#grants,
      wipe: () => ctx.storage.transactionSync(() => kept.forEach((m) => m.clear())),
      arm: () => this.#arm(),
    };
    this.#enrolment = new Enrolment(this.#parts, this.#sealer, () => this.env);
  }

  /**
   * The face for the holder of `gatewayKey`, after the one check of the key; a face that refuses
   * every call when it does not check out. Pipeline the call on it: `stub.forKey(k).access()`.
   */
  forKey(gatewayKey: string): Promise<KeyHolderFace> {
    return grantKey(this.#parts, gatewayKey);
  }

  /**
   * The face for the holder of the OAuth grant `grantId` (an assistant's connection), after the
   * one check of the grant: live, under the current registration. Pipeline the call on it:
   * `stub.forGrant(g).use()`.
   */
  forGrant(grantId: string): GrantHolderFace {
    return grantAccess(this.#parts, grantId);
  }

  /**
   * The face for an order run started under `registration`: acting while that is the current
   * registration, inert once it is gone.
   */
  forRun(registration: string): RunHolderFace {
    return grantRun(this.#parts, registration);
  }

  /**
   * The operator's face. Unchecked here: only routes behind the admin token or the console's
   * session (and onboarding's single-use state) ask for it; see the note above the class.
   */
  forOperator(): OperatorFace {
    return new OperatorFace(this.#parts, this.#enrolment);
  }

  /**
   * The watcher's face: which books the tenant has, and a token for a poll of them. Unchecked, like
   * the operator's; see `events/watcher/watcher-face.ts` for why that gives nothing away.
   */
  forWatcher(): WatcherFace {
    return new WatcherFace(this.#parts);
  }

  /**
   * The face that appends to the tenant's request log: unchecked, append only, bounded; see
   * `request-log/call-log-face.ts` for why it is not behind the key.
   */
  forCallLog(): CallLogFace {
    return new CallLogFace(
      this.#log,
      this.#toolCalls,
      () => this.#arm(),
      () => this.#registration.get() !== null,
    );
  }

  /**
   * Drops `token` after the API answered 401 to it, if it is still the current one. Not on a face:
   * the token is its own credential (only a caller that was handed it can name it, and naming a
   * token that is no longer current does nothing), and checking a key here too would cost the
   * access cache's saving on every retry after a 401.
   */
  invalidate(token: string): void {
    this.#tokens.invalidate(token);
  }

  /**
   * A webhook for this tenant: verified with its secret, recorded, its run started. Not on a face:
   * the shop's signature is its credential, and it is checked inside (`OrderDesk.receive`).
   */
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

  /**
   * Runs the stored work that is due (`stored-work.ts`): purges what outlived its retention, starts
   * runs still waiting for their Workflow instance, renews the token ahead of expiry. Safe to run
   * twice.
   */
  override async alarm(): Promise<void> {
    const r = this.#registration.get();
    if (!r) return;
    await this.#work.runDue(Date.now(), ownerOf(r));
  }

  /** Arms the one alarm at the earliest due time of the registered work. */
  #arm(): Promise<void> {
    return this.#work.arm();
  }
}
