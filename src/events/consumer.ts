/**
 * @module
 * The queue consumer of the delivery queue and its dead-letter queue: per message, `Events.plan`,
 * one attempt, `Events.report`, then ack or retry with its delay. It keeps nothing between
 * messages. See docs/design/events.md.
 */
import type { Bindings } from "../kernel/config";
import { log } from "../kernel/log";
import { eventsStub, parseTenantName, tenantName } from "../kernel/stubs";
import { attempt } from "./deliver";
import { DeliveryMessage } from "./types";

/** The delivery queue's and its dead-letter queue's names (wrangler.toml). */
export const DELIVERY_QUEUE = "ledgergate-event-deliveries";
export const DEAD_LETTER_QUEUE = "ledgergate-event-deliveries-dlq";
/** How long a message waits when the events object could not be reached, s (not the schedule). */
const UNREACHABLE_RETRY_SECONDS = 10;

/** The `fetch` the consumer delivers with. */
export interface ConsumerDeps {
  fetch: typeof fetch;
}

/**
 * Handles a batch of either queue.
 *
 * @example export default { fetch: app.fetch, queue: (b, env) => consumeEvents(b, env, { fetch }) }
 */
export async function consumeEvents(
  batch: MessageBatch,
  env: Bindings,
  deps: ConsumerDeps,
): Promise<void> {
  const dead = batch.queue.startsWith(DEAD_LETTER_QUEUE);
  await Promise.all(batch.messages.map((m) => (dead ? deadLetter(m, env) : deliver(m, env, deps))));
}

/** The message's body and the events object that wrote it; null (logged) for any other body. */
function addressed(m: Message, env: Bindings) {
  const body = DeliveryMessage.safeParse(m.body);
  const name = body.success ? parseTenantName(body.data.tenant) : null;
  if (!body.success || !name?.ok) {
    log.error("event-message-unreadable", { id: m.id });
    return null;
  }
  const stub = eventsStub(env, tenantName(name.value.environment, name.value.client));
  return { body: body.data, stub };
}

async function deliver(m: Message, env: Bindings, deps: ConsumerDeps): Promise<void> {
  const a = addressed(m, env);
  if (!a) return m.ack();
  try {
    const plan = await a.stub.plan(a.body);
    if (plan.kind === "drop") return m.ack();
    if (plan.kind === "wait") return m.retry({ delaySeconds: plan.seconds });
    const tried = await attempt(deps.fetch, plan, Date.now());
    const next = await a.stub.report(a.body, tried.outcome, tried.retryAfter);
    if (next.kind === "done") m.ack();
    else m.retry({ delaySeconds: next.seconds });
  } catch (e) {
    log.warn("event-delivery-interrupted", {
      id: m.id,
      error: e instanceof Error ? e.message : String(e),
    });
    m.retry({ delaySeconds: UNREACHABLE_RETRY_SECONDS });
  }
}

async function deadLetter(m: Message, env: Bindings): Promise<void> {
  const a = addressed(m, env);
  if (!a) return m.ack();
  try {
    await a.stub.deadLettered(a.body);
    log.warn("event-dead-lettered", { tenant: a.body.tenant, event: a.body.event });
    m.ack();
  } catch {
    m.retry({ delaySeconds: UNREACHABLE_RETRY_SECONDS });
  }
}
