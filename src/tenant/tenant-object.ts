/**
 * @module
 * `Tenant`: one per tenant (`idFromName("demo:acme")`), the only place its secrets and state live.
 * It holds the modules of `tenant/`, each with its own tables, and hands out one face per kind of
 * caller; see docs/design/faces.md. Storage layout: docs/storage.md.
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
import { SharedCalls } from "../orders/tenant/shared-calls";
import { StripeKeys } from "../payouts/tenant/stripe-key";
import { VippsDesk } from "../payouts/tenant/vipps-desk";
import { VippsKeyStore } from "../payouts/tenant/vipps-keys";
import { WebhookSetup } from "../orders/tenant/webhook-setup";
import { Registration } from "./registration";
import { grantRun, type RunHolderFace } from "./run-face";
import { migrate } from "./schema";
import { Sealer } from "./sealer";
import { TokenKeeper } from "../upstream/tenant/token-keeper";
import { Connection } from "../upstream/tenant/connection";
import { ToolCalls } from "../assistants/tenant/tool-calls";
import { WriteConfirmations } from "../assistants/tenant/write-confirmations";
import { tokenSource } from "../upstream/tenant/token-source";
import { WatcherFace } from "../events/watcher/watcher-face";
import { purges, StoredWorks } from "./stored-work";
import { Pulses } from "../kernel/stored-rows";

/**
 * Its public members are only the faces, `invalidate`, `receiveWebhook` and `alarm`: any of them is
 * reachable over RPC by whoever holds a stub (docs/design/faces.md).
 */
export class Tenant extends DurableObject<Bindings> {
  readonly #sealer: Sealer;
  readonly #registration: Registration;
  readonly #keys: GatewayKeys;
  readonly #tokens: TokenKeeper;
  readonly #connection: Connection;
  readonly #settings: OrderSettings;
  readonly #pins: ShopPins;
  readonly #desk: OrderDesk;
  readonly #payouts: PayoutDesk;
  readonly #stripeKeys: StripeKeys;
  readonly #vippsKeys: VippsKeyStore;
  readonly #vipps: VippsDesk;
  readonly #paymentRefs: PaymentRefs;
  readonly #known: KnownIds;
  readonly #codeIds: CodeIds;
  readonly #idempotency: IdempotencyKeys;
  readonly #references: ReferenceCache;
  readonly #log: RequestLog;
  readonly #confirmations: WriteConfirmations;
  readonly #toolCalls: ToolCalls;
  readonly #grants: AssistantGrants;
  readonly #parts: TenantParts;
  readonly #enrolment: Enrolment;
  readonly #work: StoredWorks;
  readonly #shared: SharedCalls;
  readonly #pulses: Pulses;

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
    this.#pulses = new Pulses();
    this.#payouts = new PayoutDesk(
      sql,
      env,
      this.#settings,
      new OrderBook(sql),
      this.#paymentRefs,
      this.#pulses,
    );
    this.#vippsKeys = new VippsKeyStore(sql, this.#sealer);
    this.#vipps = new VippsDesk(sql, env, this.#vippsKeys, this.#payouts, (fn) =>
      ctx.storage.transactionSync(fn),
    );
    this.#desk = new OrderDesk(
      sql,
      env,
      this.#settings,
      this.#pins,
      this.#payouts,
      this.#paymentRefs,
      this.#pulses,
    );
    this.#known = new KnownIds(sql, this.#settings);
    this.#shared = new SharedCalls(sql, env, this.#desk.book);
    this.#codeIds = new CodeIds(sql);
    this.#idempotency = new IdempotencyKeys(sql);
    this.#references = new ReferenceCache(sql);
    this.#log = new RequestLog(sql, () => Date.now());
    this.#confirmations = new WriteConfirmations(sql);
    this.#toolCalls = new ToolCalls(sql);
    this.#grants = new AssistantGrants(sql);
    this.#connection = new Connection(sql, () => this.env);
    this.#tokens = new TokenKeeper(
      sql,
      // Reads `Date` at each call, so a test's fake `Date` reaches the token's clock too.
      () => Date.now(),
      tokenSource(() => this.env, this.#registration, this.#sealer),
      () => this.#arm(),
      {
        // Written in the keeper's turn; the alarm (armed now) tells the events object.
        lost: (reason, now) => {
          this.#connection.lost(reason, now);
          this.ctx.waitUntil(this.#arm());
        },
        restored: (now) => {
          this.#connection.restored(now);
          this.ctx.waitUntil(this.#arm());
        },
      },
    );
    // Purges first: a run started next and a token renewed after see the books as kept.
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
        this.#shared,
      ].map(purges),
      { dueAt: () => this.#desk.dueAt(), runDue: (_, owner) => this.#desk.startPending(owner) },
      {
        dueAt: () => this.#desk.reviveDueAt(),
        runDue: (now, owner) => this.#desk.revive(owner, now),
      },
      {
        dueAt: () => this.#payouts.dueAt(),
        runDue: (_, owner) => this.#payouts.startPending(owner),
      },
      {
        dueAt: () => this.#payouts.reviveDueAt(),
        runDue: (now, owner) => this.#payouts.revive(owner, now),
      },
      { dueAt: () => this.#tokens.dueAt(), runDue: () => this.#tokens.renew() },
      // After the renewal, so a loss it finds is told in the same alarm.
      this.#connection,
      // Last: a read of Vipps's dates may take many calls to Vipps, and the token's renewal and the
      // runs must not wait behind it.
      this.#vipps,
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
      this.#vippsKeys,
      this.#vipps.book,
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
      this.#shared,
      this.#tokens,
      this.#connection,
      this.#keys,
      this.#registration,
    ];
    this.#parts = {
      storage: ctx.storage,
      registration: this.#registration,
      keys: this.#keys,
      tokens: this.#tokens,
      connection: this.#connection,
      settings: this.#settings,
      pins: this.#pins,
      webhooks,
      desk: this.#desk,
      payouts: this.#payouts,
      stripeKeys: this.#stripeKeys,
      vippsKeys: this.#vippsKeys,
      vipps: this.#vipps,
      paymentRefs: this.#paymentRefs,
      known: this.#known,
      codeIds: this.#codeIds,
      idempotency: this.#idempotency,
      references: this.#references,
      log: this.#log,
      confirmations: this.#confirmations,
      toolCalls: this.#toolCalls,
      grants: this.#grants,
      shared: this.#shared,
      pulses: this.#pulses,
      wipe: () => ctx.storage.transactionSync(() => kept.forEach((m) => m.clear())),
      arm: () => this.#arm(),
    };
    this.#enrolment = new Enrolment(this.#parts, this.#sealer, () => this.env);
  }

  /** The key holder's face, after the one check of the key: `stub.forKey(k).access()`. */
  forKey(gatewayKey: string): Promise<KeyHolderFace> {
    return grantKey(this.#parts, gatewayKey);
  }

  /** The face for the holder of the OAuth grant `grantId`, after the one check of the grant. */
  forGrant(grantId: string): GrantHolderFace {
    return grantAccess(this.#parts, grantId);
  }

  /** The face of a run started under `registration`: inert once that registration is gone. */
  forRun(registration: string): RunHolderFace {
    return grantRun(this.#parts, registration);
  }

  /** The operator's face. Unchecked: asked for only behind the admin token, console, onboarding. */
  forOperator(): OperatorFace {
    return new OperatorFace(this.#parts, this.#enrolment);
  }

  /** The watcher's face (`events/watcher/watcher-face.ts`): unchecked, gives nothing away. */
  forWatcher(): WatcherFace {
    return new WatcherFace(this.#parts);
  }

  /** The request log's append-only face (`request-log/call-log-face.ts`): unchecked, bounded. */
  forCallLog(): CallLogFace {
    return new CallLogFace(
      this.#log,
      this.#toolCalls,
      () => this.#arm(),
      () => this.#registration.get() !== null,
    );
  }

  /** Drops `token` after a 401 from the API, if still current: the token is its own credential. */
  invalidate(token: string): void {
    this.#tokens.invalidate(token);
  }

  /** A webhook: its signature is its credential, checked inside (`OrderDesk.receive`). */
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

  /** Runs the stored work that is due (`stored-work.ts`). Safe to run twice. */
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
