/**
 * @module
 * The relay from the outbox to the delivery queue, marking each message queued once the queue took
 * it; a failed send is left unqueued for the alarm's sweep. See docs/design/events.md.
 */
import type { DeliveryMessage } from "../types";
import { log } from "../../kernel/log";
import type { Outbox } from "./outbox";

/** Messages one `sendBatch` takes at most (the Queues limit). */
const SEND_BATCH = 100;

export class Relay {
  constructor(
    private readonly tenant: string,
    private readonly outbox: Outbox,
    private readonly queue: () => Queue<DeliveryMessage>,
  ) {}

  async send(messages: readonly Omit<DeliveryMessage, "tenant">[], now: number): Promise<void> {
    for (let i = 0; i < messages.length; i += SEND_BATCH) {
      const batch = messages.slice(i, i + SEND_BATCH);
      try {
        await this.queue().sendBatch(batch.map((m) => ({ body: { tenant: this.tenant, ...m } })));
        this.outbox.queued(batch, now);
      } catch (e) {
        // Left unqueued: the alarm's sweep sends them, SWEEP_GRACE_MS from now.
        log.warn("event-relay-failed", {
          tenant: this.tenant,
          messages: batch.length,
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
  }
}
