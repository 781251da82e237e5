/**
 * @module
 * The relay from the outbox to the delivery queue: sends the messages of deliveries just written
 * (or swept), 100 a call (the limit of `sendBatch`), and marks each queued once the queue took it.
 * A send that fails is logged and left: its rows stay unqueued, and the object's alarm sends them
 * (`Outbox.due`), so nothing written to the log is lost between it and the queue.
 */
import type { DeliveryMessage } from "../types";
import { log } from "../../kernel/log";
import type { Outbox } from "./outbox";

/** Messages one `sendBatch` takes at most (the Queues limit). */
const SEND_BATCH = 100;

/** The outbox's relay to the queue, for one tenant. */
export class Relay {
  constructor(
    private readonly tenant: string,
    private readonly outbox: Outbox,
    private readonly queue: () => Queue<DeliveryMessage>,
  ) {}

  /** Sends `messages` (event, endpoint, round) to the queue and marks each batch the queue took. */
  async send(messages: readonly Omit<DeliveryMessage, "tenant">[], now: number): Promise<void> {
    for (let i = 0; i < messages.length; i += SEND_BATCH) {
      const batch = messages.slice(i, i + SEND_BATCH);
      try {
        await this.queue().sendBatch(batch.map((m) => ({ body: { tenant: this.tenant, ...m } })));
        this.outbox.queued(batch, now);
      } catch (e) {
        // Left unqueued: the alarm's sweep sends them (Outbox.due, SWEEP_GRACE_MS from now).
        log.warn("event-relay-failed", {
          tenant: this.tenant,
          messages: batch.length,
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
  }
}
