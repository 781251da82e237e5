/**
 * @module
 * Redelivery and replay: new rounds opened from the event log, never from the API; the event keeps
 * its id. Invariant: a replay never leaves an endpoint more than `MAX_REPLAY_EVENTS` open rounds,
 * counting every pending delivery and each event it sends. See docs/design/events.md.
 */
import { subscribes, type DeliveryMessage } from "../types";
import { fail, ok, type Outcome } from "../../kernel/outcome";
import type { Endpoints } from "./endpoints";
import type { EventLog } from "./log";
import type { Outbox } from "./outbox";

/** Events one replay sends at most, and the most open rounds it may leave its endpoint. */
export const MAX_REPLAY_EVENTS = 1000;

type Ref = Omit<DeliveryMessage, "tenant">;

export class Replays {
  constructor(
    private readonly log: EventLog,
    private readonly endpoints: Endpoints,
    private readonly outbox: Outbox,
  ) {}

  /** Opens a round of `event` for `endpoint`, or for every enabled endpoint taking its type. */
  redeliver(event: string, endpoint: string | null, now: number): Outcome<Ref[]> {
    const e = this.log.get(event);
    if (!e) return fail("not-found", "No such event in the log (events are kept 30 days).");
    if (endpoint === null)
      return ok(
        this.endpoints
          .subscribers(e.type)
          .map((ep) => this.outbox.open(e.id, ep, "redeliver", now)),
      );
    const target = this.#enabled(endpoint);
    if (!target.ok) return target;
    if (!subscribes(target.value, e.type))
      return fail(
        "conflict",
        `The endpoint takes ${target.value.join(", ")}, not ${e.type}; add the type to its types first.`,
      );
    return ok([this.outbox.open(e.id, endpoint, "redeliver", now)]);
  }

  /** Opens a round for `endpoint` of each event of its types recorded in [since, until). */
  replay(endpoint: string, since: number, until: number, now: number): Outcome<Ref[]> {
    const target = this.#enabled(endpoint);
    if (!target.ok) return target;
    if (!(since < until))
      return fail("bad-request", "The window is empty: since must come before until.");
    const wanted = this.log.window(
      since,
      Math.min(until, now + 1),
      target.value,
      MAX_REPLAY_EVENTS,
    );
    if (wanted.length > MAX_REPLAY_EVENTS)
      return fail(
        "unprocessable",
        `The window holds more than ${MAX_REPLAY_EVENTS} events for this endpoint, the most one replay sends. Narrow it (since, until) and replay the rest in another call.`,
      );
    // Counted and opened with no await between, so two replays cannot both pass the count.
    const open = this.outbox.openTo(endpoint);
    if (wanted.length > 0 && open + wanted.length > MAX_REPLAY_EVENTS)
      return fail(
        "conflict",
        `The endpoint has ${open} deliveries still open and this replay would send ${wanted.length} more: a replay may leave an endpoint at most ${MAX_REPLAY_EVENTS} deliveries open. Replay once they are delivered or failed (the endpoint's delivery log shows them), or narrow the window; a single event can still be redelivered.`,
      );
    return ok(wanted.map((e) => this.outbox.open(e.id, endpoint, "replay", now)));
  }

  #enabled(endpoint: string): Outcome<readonly string[]> {
    const t = this.endpoints.typesOf(endpoint);
    if (!t) return fail("not-found", "No such endpoint.");
    if (!t.enabled)
      return fail(
        "conflict",
        'The endpoint is disabled; enable it first (PATCH with {"enabled": true}).',
      );
    return ok(t.types);
  }
}
