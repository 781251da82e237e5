/**
 * @module
 * The feed as the routes read it, its type restored in one place: RPC's `Serializable` maps an
 * event's `unknown` data to `never`. See docs/design/events.md.
 */
import { unwrap, type Outcome } from "../kernel/outcome";
import type { eventsStub } from "../kernel/stubs";
import { Problem } from "../kernel/problem";
import type { ConsumerView, SeekTo } from "./object/consumers";
import type { WebhookEvent } from "./types";

export interface FeedPage {
  events: WebhookEvent[];
  hasMore: boolean;
  consumer?: ConsumerView;
}

/**
 * The events after `after`, or after named consumer `q.consumer`'s position, which moves (of
 * `types`; null: all), at most `limit`; a `Problem` when refused.
 */
export async function readFeed(
  events: ReturnType<typeof eventsStub>,
  q: { after?: string | undefined; consumer?: string | undefined; limit: number },
  types: string[] | null,
): Promise<FeedPage> {
  if (q.consumer !== undefined && q.after !== undefined)
    throw new Problem(
      "bad-request",
      "Query: give after or consumer, not both: a named consumer's position is ledgergate's to keep (move it with …/consumers/{name}/seek).",
    );
  const page =
    q.consumer === undefined
      ? await events.feed(q.after ?? null, types, q.limit)
      : await events.consume(q.consumer, types, q.limit);
  return unwrap(page as unknown as Outcome<FeedPage>);
}

/** Where `seek` moves a consumer, from the route's body (exactly one of its fields, checked). */
export function seekTo(body: { after?: string | undefined; at?: string | undefined }): SeekTo {
  if (body.after !== undefined) return { after: body.after };
  if (body.at !== undefined) return { at: Date.parse(body.at) };
  return { start: true };
}
