/**
 * @module
 * The Worker's queue consumer (`queue()` in `src/index.ts`): the delivery queue, where each message
 * asks for one event to be delivered to one endpoint, and its dead-letter queue, where the queue
 * puts a message its consumer failed `max_retries` times over (wrangler.toml). Each message is
 * handled on its own: the tenant's events object says what to send (`Events.plan`), one attempt is
 * made (`deliver.ts`), the object records it and says whether to retry and when (`Events.report`),
 * and the message is acknowledged or retried with that delay. Nothing is kept here between
 * messages; a consumer that dies mid-batch only has the queue deliver the batch again.
 */
import type { Bindings } from "../kernel/config";
import { log } from "../kernel/log";
import { eventsStub, parseTenantName, tenantName } from "../kernel/stubs";
import { attempt } from "./deliver";
import { DeliveryMessage } from "./types";

/** The delivery queue's name (wrangler.toml). */
export const DELIVERY_QUEUE = "ledgergate-event-deliveries";
/** Its dead-letter queue's name (wrangler.toml). */
export const DEAD_LETTER_QUEUE = "ledgergate-event-deliveries-dlq";
/**
 * How long a message waits after the events object could not be reached, s: the object is back in
 * moments; this is the queue's own retry, not the delivery's schedule.
 */
const UNREACHABLE_RETRY_SECONDS = 10;

/** What the consumer needs besides the bindings: the `fetch` it delivers with. */
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

/**
 * The message's body, and the events object it names (only ever written by that object's relay,
 * `events/object/relay.ts`); null for a body no object wrote, acknowledged and logged.
 */
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
