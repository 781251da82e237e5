/**
 * @module
 * `Events`: one per tenant, the unit that tells subscribers what changed. It holds the endpoints,
 * the event log (30 days), the outbox of deliveries and their attempts (`events/object/`). An event
 * is recorded once under its key and queued at once; the one alarm sends what was not queued and
 * purges. It checks no credential: the name it is reached by is the authority (`kernel/stubs.ts`).
 * See docs/design/events.md; storage: docs/storage.md.
 */
import { DurableObject } from "cloudflare:workers";
import { readConfig, type Bindings } from "../kernel/config";
import { noticeDisabled } from "./notice";
import { TEST_EVENT_TYPE, type DeliveryMessage, type EventDraft, type TestAttempt } from "./types";
import { attempt } from "./deliver";
import { TestPings, testEvent } from "./object/test-pings";
import { log } from "../kernel/log";
import { fail, ok, type Outcome } from "../kernel/outcome";
import { watcherStub, type TenantName } from "../kernel/stubs";
import { Dispatch, type Next, type Plan } from "./object/dispatch";
import { Consumers, type SeekTo } from "./object/consumers";
import { Endpoints, type EndpointInput } from "./object/endpoints";
import { EventLog } from "./object/log";
import { AttemptLog } from "./object/attempt-log";
import { Outbox, type AttemptOutcome } from "./object/outbox";
import { Relay } from "./object/relay";
import { Replays } from "./object/replays";
import { migrate } from "./object/schema";
import { WatchTell } from "./object/watch-tell";
import { ownName } from "../kernel/own-name";
import { Sealer } from "../tenant/sealer";

/** Deliveries one sweep sends at most; the next alarm (at once) takes the rest. */
const SWEEP_BATCH = 500;

/** The tenant's events: endpoints, log, outbox, attempts. */
export class Events extends DurableObject<Bindings> {
  readonly #tenant: TenantName | null;
  readonly #log: EventLog;
  readonly #endpoints: Endpoints;
  readonly #outbox: Outbox;
  readonly #attempts: AttemptLog;
  readonly #tests: TestPings;
  readonly #dispatch: Dispatch;
  readonly #relay: Relay;
  readonly #replays: Replays;
  readonly #tell: WatchTell;
  readonly #consumers: Consumers;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    migrate(ctx.storage);
    const sql = ctx.storage.sql;
    this.#tenant = ownName(ctx);
    const tenant = this.#tenant ?? "unnamed";
    this.#log = new EventLog(sql);
    this.#consumers = new Consumers(sql, this.#log);
    this.#outbox = new Outbox(sql, () => readConfig(this.env).eventQueueLeaseMs);
    this.#attempts = new AttemptLog(sql);
    this.#tests = new TestPings(sql);
    this.#endpoints = new Endpoints(
      sql,
      new Sealer(env),
      (id) => this.#outbox.held(id),
      (id) => `event-endpoint:${tenant}:${id}`,
      () => readConfig(this.env).eventEndpointsAllowLoopback,
    );
    this.#relay = new Relay(tenant, this.#outbox, () => this.env.EVENT_DELIVERIES);
    this.#replays = new Replays(this.#log, this.#endpoints, this.#outbox);
    const name = this.#tenant;
    this.#tell = new WatchTell(
      sql,
      this.#endpoints,
      () => {
        if (!name) throw new Error("an events object reached by no tenant's name has no watcher");
        return watcherStub(this.env, name);
      },
      () => this.#consumers.counted(Date.now()),
    );
    // A tell never made (a first wake, or a failure before an eviction) is made now.
    if (name && this.#tell.pending()) this.ctx.waitUntil(this.#tell.tell(Date.now()));
    this.#dispatch = new Dispatch({
      log: this.#log,
      endpoints: this.#endpoints,
      outbox: this.#outbox,
      waits: () => readConfig(this.env).eventRetryWaits,
      random: Math.random,
      disabled: (id, reason, status) => {
        const url = this.#endpoints.get(id);
        if (this.#tenant && url.ok)
          this.ctx.waitUntil(
            noticeDisabled(this.env, this.#tenant, { id, url: url.value.url }, reason, status),
          );
        // Told as on any change of an endpoint; WatchTell keeps a disabled one's types watched.
        if (this.#tenant) this.ctx.waitUntil(this.#tell.tell(Date.now()));
      },
    });
  }

  /**
   * Records each draft whose key the log lacks and queues it for every endpoint taking its type;
   * answers the new ones' keys (the watcher times its delay on them). Every announcer's entry.
   */
  async record(drafts: EventDraft[]): Promise<Outcome<{ recorded: number; keys: string[] }>> {
    if (!this.#tenant) return UNNAMED;
    const now = Date.now();
    const recorded = this.#log.append(drafts, now);
    const messages = recorded.flatMap((e) =>
      this.#endpoints.subscribers(e.type).map((ep) => this.#outbox.open(e.id, ep, "event", now)),
    );
    if (recorded.length > 0) {
      const told = this.#tell.active(now);
      if (told) this.ctx.waitUntil(told);
    }
    // The rows and the sweep's alarm first: if the send below is lost, the alarm sends them.
    await this.#arm();
    await this.#relay.send(messages, now);
    return ok({ recorded: recorded.length, keys: recorded.map((e) => e.key) });
  }

  /** A new endpoint; its `whsec_` secret is in this answer only. */
  async createEndpoint(input: EndpointInput) {
    const created = await this.#endpoints.create(input, Date.now());
    await this.#watcherTold();
    return created;
  }

  listEndpoints() {
    return ok(this.#endpoints.list());
  }

  endpoint(id: string) {
    return this.#endpoints.get(id);
  }

  /** Changes an endpoint (`enabled: true` enables a disabled one again). */
  async updateEndpoint(id: string, input: EndpointInput) {
    const now = Date.now();
    const updated = this.#endpoints.update(id, input, now);
    if (!updated.ok) return updated;
    if (updated.value.state === "disabled") this.#outbox.failAll(id, now);
    if (!updated.value.ordered) this.#outbox.releaseAll(id, now);
    await this.#watcherTold();
    await this.#arm();
    return this.#endpoints.get(id);
  }

  async deleteEndpoint(id: string): Promise<Outcome<null>> {
    if (!this.#endpoints.remove(id)) return fail("not-found", "No such endpoint.");
    this.#outbox.dropEndpoint(id);
    await this.#watcherTold();
    return ok(null);
  }

  /** A new secret for an endpoint; the previous one keeps signing for a day. */
  async rotateSecret(id: string) {
    const rotated = await this.#endpoints.rotate(id, Date.now());
    await this.#arm();
    return rotated;
  }

  feed(after: string | null, types: string[] | null, limit: number) {
    return this.#log.feed(after, types, limit);
  }

  /** An event of the log by its id, without its data (the operator's search); null: none. */
  find(id: string): { id: string; type: string; timestamp: string } | null {
    const e = this.#log.get(id);
    return e && { id: e.id, type: e.type, timestamp: e.timestamp };
  }

  /** The events after named consumer `name`'s position, which moves past them. */
  async consume(name: string, types: string[] | null, limit: number) {
    const read = this.#consumers.read(name, types, limit, Date.now());
    if (!read.ok) return read;
    const { changed, ...page } = read.value;
    if (changed) await this.#watcherTold();
    await this.#arm();
    return ok(page);
  }

  /** Moves named consumer `name` after an event, to a time or to the log's start. */
  async seek(name: string, to: SeekTo) {
    return this.#consumers.seek(name, to, Date.now());
  }

  deliveries(endpoint: string, limit: number) {
    const exists = this.#endpoints.get(endpoint);
    return exists.ok ? ok(this.#attempts.list(endpoint, limit)) : exists;
  }

  /**
   * Sends `endpoint` a signed test event now, enabled or not, and answers its one attempt: how an
   * integrator checks a receiver before real events depend on it. Never retried.
   */
  async sendTest(endpoint: string): Promise<Outcome<TestAttempt>> {
    const now = Date.now();
    const target = await this.#endpoints.target(endpoint, now);
    if (!target) return fail("not-found", "No such endpoint.");
    if (!target.ok) return target;
    const event = testEvent(endpoint, now);
    // Called as `fetch`, not as a value (workerd refuses another `this`).
    const send: typeof fetch = (input, init) => fetch(input, init);
    const { outcome } = await attempt(send, { ...event, ...target.value }, now);
    this.#tests.log(event.id, endpoint, outcome, now);
    return ok({
      eventId: event.id,
      type: TEST_EVENT_TYPE,
      at: new Date(now).toISOString(),
      ok: outcome.error === null,
      status: outcome.status,
      error: outcome.error,
      durationMs: Math.max(0, Math.round(outcome.durationMs)),
    });
  }

  /** Sends an event again to one endpoint, or to every enabled endpoint that takes its type. */
  async redeliver(event: string, endpoint: string | null): Promise<Outcome<{ queued: number }>> {
    const now = Date.now();
    const opened = this.#replays.redeliver(event, endpoint, now);
    if (!opened.ok) return opened;
    await this.#arm();
    await this.#relay.send(opened.value, now);
    return ok({ queued: opened.value.length });
  }

  /** Sends an endpoint every event of its types recorded in [since, until) again. */
  async replay(endpoint: string, since: number, until: number) {
    const now = Date.now();
    const opened = this.#replays.replay(endpoint, since, until, now);
    if (!opened.ok) return opened;
    await this.#arm();
    await this.#relay.send(opened.value, now);
    return ok({ queued: opened.value.length });
  }

  /** What the queue consumer sends for `m`; one held for its endpoint's pace is the alarm's. */
  async plan(m: DeliveryMessage): Promise<Plan> {
    const plan = await this.#dispatch.plan(m, Date.now());
    if (plan.kind === "drop" && plan.deferred) await this.#arm();
    return plan;
  }

  /** What came of an attempt of `m`, and whether the consumer retries it. */
  async report(
    m: DeliveryMessage,
    outcome: AttemptOutcome,
    retryAfter: number | null,
  ): Promise<Next> {
    const next = this.#dispatch.report(m, outcome, retryAfter, Date.now());
    await this.#arm();
    return next;
  }

  /** The queue gave `m` up (its dead-letter queue): the delivery fails. */
  async deadLettered(m: DeliveryMessage): Promise<void> {
    this.#dispatch.deadLettered(m, Date.now());
    await this.#arm();
  }

  /**
   * Forgets the books' events with their deliveries and attempts; the endpoints stay (new books,
   * same receivers), and so do the tenant's own events (`tenant.*`: its connection, not its books).
   */
  async forgetBooks(): Promise<{ events: number }> {
    const events = this.#log.clearBooks();
    this.#outbox.dropOrphans();
    await this.#arm();
    return { events };
  }

  async clear(): Promise<{ events: number; endpoints: number }> {
    this.#outbox.clear();
    const events = this.#log.clear();
    const endpoints = this.#endpoints.clear();
    this.#consumers.clear();
    await this.ctx.storage.deleteAlarm();
    // Told before the answer, so the watcher polls nothing after.
    await this.#tell.tell(Date.now());
    return { events, endpoints };
  }

  /** Sends what was not queued (or never reported) and purges; safe to run twice. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    this.#endpoints.purge(now);
    this.#outbox.dropEvents(this.#log.purge(now));
    await this.#tell.tell(now);
    const messages = this.#dispatch.sweep(now, SWEEP_BATCH);
    if (messages.length > 0)
      log.info("event-sweep", { tenant: this.#tenant, sent: messages.length });
    await this.#arm();
    await this.#relay.send(messages, now);
  }

  /** Tells the watcher what the endpoints take now; a failed tell is told again by the alarm. */
  async #watcherTold(): Promise<void> {
    if (!this.#tenant) return;
    await this.#tell.tell(Date.now());
    if (this.#tell.dueAt() !== null) await this.#arm();
  }

  /**
   * One alarm: the earliest of the sweep, a purge, a previous secret's end, a failed tell, a
   * consumer that stops counting for the watcher.
   */
  async #arm(): Promise<void> {
    const due = [
      this.#outbox.dueAt(),
      this.#log.dueAt(),
      this.#endpoints.dueAt(),
      this.#tell.dueAt(),
      this.#consumers.dueAt(Date.now()),
    ].filter((t): t is number => t !== null);
    await (due.length === 0
      ? this.ctx.storage.deleteAlarm()
      : this.ctx.storage.setAlarm(Math.min(...due)));
  }
}

const UNNAMED = fail(
  "misconfigured",
  "This events object was not reached by a tenant's name (kernel/stubs.ts makes them).",
);
