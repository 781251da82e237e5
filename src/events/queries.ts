/**
 * @module
 * The events routes' inputs their schemas cannot say alone: the feed's `types`, a replay's window.
 */
import { Problem } from "../kernel/problem";
import { EVENT_TYPES, EventType } from "./types";

/**
 * The types of `?types=a,b` (null: every type), or a 400 naming the unknown ones.
 *
 * @example feedTypes("order.settled,refund.failed") // ["order.settled", "refund.failed"]
 */
export function feedTypes(text: string | undefined): EventType[] | null {
  if (text === undefined || text.trim() === "") return null;
  const names = text
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !EventType.safeParse(n).success);
  if (unknown.length > 0)
    throw new Problem(
      "bad-request",
      `Query: types has unknown event types (${unknown.join(", ")}); the types are ${EVENT_TYPES.join(", ")}.`,
    );
  return names as EventType[];
}

/** A replay's window, epoch ms (`until` by default: now). */
export function replayWindow(
  since: string,
  until: string | undefined,
): { since: number; until: number } {
  return {
    since: Date.parse(since),
    until: until === undefined ? Date.now() + 1 : Date.parse(until),
  };
}
