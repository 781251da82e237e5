/**
 * @module
 * The feed as the routes read it from the tenant's events object (`Events.feed`), with its type.
 * Why a helper: Workers RPC's `Serializable` type maps `unknown` to `never`, so an event's `data`
 * (any JSON the API answered) strips the success branch off the stub's answer type, and a
 * recursive JSON type instead makes the stubs' types too deep for the compiler (as
 * `orders/runs.ts` found). The object's own method is typed by the schema; this restores that
 * type on the caller's side, in one place.
 */
import { unwrap, type Outcome } from "../kernel/outcome";
import type { eventsStub } from "../kernel/stubs";
import type { WebhookEvent } from "./types";

/** A page of the feed. */
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
