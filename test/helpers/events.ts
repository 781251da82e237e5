/**
 * Helpers of the events tests (docs/events.md): a receiver the tests can observe, the delivery
 * queue captured as it is sent, and the queue's consumer driven with the plugin's message batches.
 *
 * The receiver. `@cloudflare/vitest-plugin` 1.5 has no `fetchMock`; the gateway (its Durable
 * Objects and its queue consumer included) runs in the tests' own isolate, so a receiver installed
 * as the isolate's `fetch` (`vi.stubGlobal`) sees each delivery exactly as the consumer sent it:
 * URL, headers, the raw body, the redirect mode. The sandbox is reached through its service
 * binding, never through `fetch`, so it is not affected. `npm run demo:order`, `npm start` and
 * `npm run bench -- events` post to a real receiver over the network instead.
 *
 * The queue. The events object queues with `EVENT_DELIVERIES.sendBatch`; the tests take those
 * messages (`captureQueue`, a spy on the binding the object shares with the tests) instead of
 * letting the local queue run them on its own timers, and hand them to the Worker's `queue()`
 * with `createMessageBatch`, reading the outcome with `getQueueResult`: which were acknowledged,
 * which retried. The plugin (1.5.0) records that a message was retried but not its
 * `delaySeconds`, so each message's `retry` is watched for the delay asked. Time between attempts
 * is the tests' to decide.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { afterEach, expect, vi } from "vitest";
import worker from "../../src/index";
import { DEAD_LETTER_QUEUE, DELIVERY_QUEUE } from "../../src/events/consumer";
import type { DeliveryMessage } from "../../src/events/types";
import { gw, json } from "./gateway";

/** One request the receiver got. */
export interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
  redirect: string | undefined;
  /** What the receiver answered (null: it refused the connection). */
  status: number | null;
}

/**
 * A webhook receiver behind every URL: answers each request with the next status scripted for its
 * URL (`answer`), 200 when none is left, and records it.
 */
export class Receiver {
  readonly received: Received[] = [];
  readonly #script = new Map<string, (number | "down")[]>();

  /** Scripts the next answers of `url`: statuses, or `"down"` for a refused connection. */
  answer(url: string, ...answers: (number | "down")[]): void {
    this.#script.set(url, [...(this.#script.get(url) ?? []), ...answers]);
  }

  /** What `url` received, in order. */
  at(url: string): Received[] {
    return this.received.filter((r) => r.url === url);
  }

  /** The isolate's `fetch` while installed. */
  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const next = this.#script.get(req.url)?.shift() ?? 200;
    this.received.push({
      url: req.url,
      headers: Object.fromEntries(req.headers),
      body: await req.text(),
      redirect: init?.redirect,
      status: next === "down" ? null : next,
    });
    if (next === "down") throw new TypeError("Network connection lost.");
    return new Response(next === 200 ? "ok" : "no", {
      status: next,
      headers: next >= 300 && next < 400 ? { location: "https://elsewhere.example/" } : {},
    });
  };
}

/** A receiver installed as the isolate's `fetch` until the test ends. */
export function installReceiver(): Receiver {
  const r = new Receiver();
  vi.stubGlobal("fetch", r.fetch);
  return r;
}

/** The delivery queue's messages, as the events objects sent them (the queue itself gets none). */
export function captureQueue(): { messages: DeliveryMessage[]; take: () => DeliveryMessage[] } {
  const messages: DeliveryMessage[] = [];
  vi.spyOn(env.EVENT_DELIVERIES, "sendBatch").mockImplementation(async (batch) => {
    for (const m of batch) messages.push(m.body as DeliveryMessage);
    return undefined as never;
  });
  return {
    messages,
    /** The messages captured since the last `take`. */
    take: () => messages.splice(0, messages.length),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

let seq = 0;
/** What the consumer did with one message. */
export interface Handled {
  message: DeliveryMessage;
  acked: boolean;
  retryAfter: number | null;
}

/**
 * Hands `messages` to the Worker's `queue()` as one batch of `queue`, each at attempt `attempts`,
 * and answers what it did with each (acknowledged, or retried after how many seconds).
 */
export async function consume(
  messages: DeliveryMessage[],
  attempts = 1,
  queue = DELIVERY_QUEUE,
): Promise<Handled[]> {
  const batch = createMessageBatch<DeliveryMessage>(
    queue,
    messages.map((body) => ({ id: `m-${seq++}`, timestamp: Date.now(), attempts, body })),
  );
  const delays = batch.messages.map((m) => vi.spyOn(m, "retry"));
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  const result = await getQueueResult(batch, ctx);
  expect(result.outcome).toBe("ok");
  return batch.messages.map((m, i) => {
    const retried = result.retryMessages.some((r) => r.msgId === m.id);
    const asked = delays[i]?.mock.calls[0]?.[0]?.delaySeconds;
    return {
      message: messages[i] as DeliveryMessage,
      acked: result.explicitAcks.includes(m.id),
      retryAfter: retried ? (asked ?? 0) : null,
    };
  });
}

/** Hands `messages` to the dead-letter queue's consumer. */
export const deadLetter = (messages: DeliveryMessage[]) => consume(messages, 1, DEAD_LETTER_QUEUE);

/**
 * Runs `messages` as the queue would until none is retried (each retry as the next attempt, its
 * delay skipped), at most `rounds` times; answers every batch's outcome.
 */
export async function drain(messages: DeliveryMessage[], rounds = 10): Promise<Handled[][]> {
  const log: Handled[][] = [];
  let pending = messages;
  for (let attempt = 1; pending.length > 0 && attempt <= rounds; attempt++) {
    const handled = await consume(pending, attempt);
    log.push(handled);
    pending = handled.filter((h) => h.retryAfter !== null).map((h) => h.message);
  }
  return log;
}

/** Adds an endpoint with a gateway key; answers its id and secret. */
export async function addEndpoint(
  gatewayKey: string,
  body: { url: string; types?: string[]; description?: string },
): Promise<{ id: string; secret: string; url: string; types: string[] }> {
  const res = await gw(
    "/events/endpoints",
    json(body, "POST", { authorization: `Bearer ${gatewayKey}` }),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; secret: string; url: string; types: string[] };
}

/** A `/events…` call with a gateway key. */
export function events(gatewayKey: string, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${gatewayKey}`);
  return gw(`/events${path}`, { ...init, headers });
}

/** The tenant's feed, every event (oldest first). */
export async function feed(
  gatewayKey: string,
  query = "",
): Promise<{ id: string; type: string; timestamp: string; data: Record<string, unknown> }[]> {
  const res = await events(gatewayKey, `?limit=500${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { events: never[] }).events;
}
