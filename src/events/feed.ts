/**
 * @module
 * The feed as the routes read it, its type restored in one place: RPC's `Serializable` maps an
 * event's `unknown` data to `never`. See docs/design/events.md.
 */
import { unwrap, type Outcome } from "../kernel/outcome";
import type { eventsStub } from "../kernel/stubs";
import type { WebhookEvent } from "./types";

export interface FeedPage {
  events: WebhookEvent[];
  hasMore: boolean;
}

/** The events after `after` (of `types`; null: all), at most `limit`; a `Problem` when refused. */
export async function readFeed(
  events: ReturnType<typeof eventsStub>,
  after: string | null,
  types: string[] | null,
  limit: number,
): Promise<FeedPage> {
  return unwrap((await events.feed(after, types, limit)) as unknown as Outcome<FeedPage>);
}
