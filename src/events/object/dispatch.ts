/**
 * @module
 * The events object's side of one attempt: `plan` (what to send), `report` (what came of it, and
 * whether and when to retry). The consumer holds nothing between them. See docs/design/events.md.
 */
import { nextWait } from "../schedule";
import type { DeliveryMessage } from "../types";
import type { Endpoints } from "./endpoints";
import type { EventLog } from "./log";
import type { AttemptOutcome, DeliveryRow, Outbox } from "./outbox";

type Ref = Omit<DeliveryMessage, "tenant">;

/** An endpoint whose every attempt failed this long is disabled, ms: longer than the schedule. */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;
/** How early a paced delivery may go before its slot, ms: the alarm that sends it is not exact. */
const SLOT_SLACK_MS = 50;
/** How long a message waits while the endpoint's secret cannot be opened (SECRETS_KEY), s. */
const MISCONFIGURED_WAIT_SECONDS = 300;

export type Plan =
  | {
      kind: "send";
      url: string;
      body: string;
      /** `webhook-id`: the event's id, the same on every attempt, redelivery and replay. */
      id: string;
      secrets: string[];
      attempt: number;
    }
  /**
   * Settled, overtaken by a newer round, or its endpoint or event is gone: acknowledge it.
   * `deferred`: held for its endpoint's pace, the sweep sends it at its slot (arm the alarm).
   */
  | { kind: "drop"; reason: string; deferred?: true }
  /** Cannot be sent now (the secret cannot be opened): retry the message after `seconds`. */
  | { kind: "wait"; seconds: number };

export type Next = { kind: "done" } | { kind: "retry"; seconds: number };

export interface DispatchDeps {
  log: EventLog;
  endpoints: Endpoints;
  outbox: Outbox;
  /** The retry schedule's waits, s (`EVENT_RETRY_SCHEDULE`). */
  waits: () => readonly number[];
  random: () => number;
  disabled: (endpoint: string, reason: string, lastStatus: number | null) => void;
}

export class Dispatch {
  constructor(private readonly d: DispatchDeps) {}

  async plan(m: DeliveryMessage, now: number): Promise<Plan> {
    const { outbox, log, endpoints } = this.d;
    const delivery = outbox.current(m);
    if (!delivery) return { kind: "drop", reason: "settled or overtaken by a newer round" };
    const event = log.get(m.event);
    if (!event) {
      this.#settle(delivery, "failed", now);
      return { kind: "drop", reason: "the event is no longer in the log" };
    }
    const target = await endpoints.target(m.endpoint, now);
    if (!target) return { kind: "drop", reason: "the endpoint was deleted" };
    if (!target.ok) return { kind: "wait", seconds: MISCONFIGURED_WAIT_SECONDS };
    if (!target.value.enabled) {
      outbox.settle(delivery, "failed", now);
      return { kind: "drop", reason: "the endpoint is disabled" };
    }
    // Order before pace: a delivery held behind an earlier one takes no slot while it waits.
    if (target.value.ordered && outbox.head(m.endpoint) !== m.event) {
      outbox.hold(delivery, now);
      return {
        kind: "drop",
        reason: "held behind an earlier delivery to its ordered endpoint",
        deferred: true,
      };
    }
    // The pace: a delivery that waited has its slot; another takes the next free one.
    const slot = delivery.slot_at ?? endpoints.reserve(m.endpoint, now);
    if (slot > now + SLOT_SLACK_MS) {
      outbox.defer(delivery, slot);
      return {
        kind: "drop",
        reason: `held for the endpoint's pace until ${new Date(slot).toISOString()}`,
        deferred: true,
      };
    }
    outbox.spendSlot(delivery);
    return {
      kind: "send",
      url: target.value.url,
      body: JSON.stringify(event),
      id: event.id,
      secrets: target.value.secrets,
      attempt: delivery.attempts + 1,
    };
  }

  /**
   * Records an attempt of `m` and what follows: delivered, the endpoint disabled (410, or failing
   * `DISABLE_AFTER_MS`), out of retries, or a retry (`retryAfter`: the receiver's, s).
   */
  report(
    m: DeliveryMessage,
    outcome: AttemptOutcome,
    retryAfter: number | null,
    now: number,
  ): Next {
    const { outbox, endpoints } = this.d;
    const delivery = outbox.current(m);
    if (!delivery) return { kind: "done" };
    const attempt = outbox.attempted(delivery, outcome, now);
    const status = outcome.status;
    if (status !== null && status >= 200 && status < 300) {
      this.#settle(delivery, "delivered", now);
      endpoints.succeeded(m.endpoint);
      return { kind: "done" };
    }
    if (status === 410) return this.#disable(m.endpoint, "it answered 410 Gone", status, now);
    const since = endpoints.failed(m.endpoint, now);
    if (now - since >= DISABLE_AFTER_MS)
      return this.#disable(
        m.endpoint,
        `every attempt failed since ${new Date(since).toISOString()}`,
        status,
        now,
      );
    const wait = nextWait(this.d.waits(), attempt, retryAfter, this.d.random());
    if (wait === null) {
      this.#settle(delivery, "failed", now);
      return { kind: "done" };
    }
    outbox.waitUntil(delivery, now + wait * 1000);
    return { kind: "retry", seconds: wait };
  }

  /** The queue gave `m` up (its consumer failed it every time): the delivery fails, logged so. */
  deadLettered(m: DeliveryMessage, now: number): void {
    const delivery = this.d.outbox.current(m);
    if (!delivery) return;
    this.d.outbox.attempted(
      delivery,
      { status: null, error: "dead-lettered by the queue", durationMs: 0 },
      now,
    );
    this.#settle(delivery, "failed", now);
  }

  /**
   * The sweep's due deliveries, each sent again in a new round, but for one still held behind an
   * earlier delivery to its ordered endpoint (its release was lost): held on.
   */
  sweep(now: number, limit: number): Ref[] {
    const { outbox, endpoints } = this.d;
    const sent: Ref[] = [];
    for (const d of outbox.due(now, limit)) {
      const held =
        d.held_at !== null &&
        endpoints.isOrdered(d.endpoint_id) &&
        outbox.head(d.endpoint_id) !== d.event_id;
      if (held) outbox.hold(d, now);
      else sent.push(outbox.resend(d, now));
    }
    return sent;
  }

  /** Settles `d`; the next delivery held behind it, if any, is due now. */
  #settle(d: DeliveryRow, state: "delivered" | "failed", now: number): void {
    this.d.outbox.settle(d, state, now);
    this.d.outbox.release(d.endpoint_id, now);
  }

  #disable(endpoint: string, why: string, status: number | null, now: number): Next {
    this.d.endpoints.disable(endpoint, `Disabled: ${why}.`, now);
    this.d.outbox.failAll(endpoint, now);
    this.d.disabled(endpoint, `Disabled: ${why}.`, status);
    return { kind: "done" };
  }
}
