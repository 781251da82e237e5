/**
 * @module
 * The tenant's connection to the API as events (pure): lost when the API refuses its client key
 * (the client removed the integration), restored when a key works again, privileges changed when
 * `GET /ClientIntegrationInformation` shows another grant than last seen. Keyed by the change, so
 * telling one twice records it once. See docs/events.md, "Connection health".
 */
import { eventKey } from "./keys";
import type { EventDraft } from "./types";

export type ConnectionChange =
  | { kind: "lost"; reason: string; at: number }
  | { kind: "restored"; lostAt: number | null; at: number };

/** The event of a connection change of `tenant`. */
export function connectionDraft(tenant: string, change: ConnectionChange): EventDraft {
  const iso = (t: number) => new Date(t).toISOString();
  if (change.kind === "lost")
    return {
      type: "tenant.connection_lost",
      at: change.at,
      data: { tenant, reason: change.reason, lostAt: iso(change.at) },
      key: eventKey("tenant.connection_lost", tenant, change.at),
    };
  return {
    type: "tenant.connection_restored",
    at: change.at,
    data: {
      tenant,
      lostAt: change.lostAt === null ? null : iso(change.lostAt),
      restoredAt: iso(change.at),
    },
    key: eventKey("tenant.connection_restored", tenant, change.at),
  };
}

/** What the integration was granted, as `GET /ClientIntegrationInformation` answers it. */
export interface Grant {
  validPrivileges: string[];
  invalidPrivileges: string[];
  subscriptions: string[];
}

/** The grant of an answer of `GET /ClientIntegrationInformation`; null when it is none. */
export function grantOf(answer: unknown): Grant | null {
  if (!answer || typeof answer !== "object") return null;
  const a = answer as Record<string, unknown>;
  const list = (v: unknown) =>
    Array.isArray(v) && v.every((x) => typeof x === "string") ? [...v].sort() : null;
  const valid = list(a["ValidPrivileges"]);
  const invalid = list(a["InvalidPrivileges"] ?? []);
  const subscriptions = list(a["ActiveClientSubscriptions"]);
  return valid && invalid && subscriptions
    ? { validPrivileges: valid, invalidPrivileges: invalid, subscriptions }
    : null;
}

const diff = (before: readonly string[], after: readonly string[]) => ({
  added: after.filter((x) => !before.includes(x)),
  removed: before.filter((x) => !after.includes(x)),
});

/**
 * The event of `tenant`'s grant going from `before` (seen first at `since`) to `after`, or null when
 * nothing changed. Its key names both grants and `since`, so a check repeated after a crash records
 * it once, and a grant that changes back and again later is a new event.
 */
export function privilegesDraft(
  tenant: string,
  before: Grant,
  since: number,
  after: Grant,
  at: number,
): EventDraft | null {
  const same = (a: readonly string[], b: readonly string[]) => a.join("\n") === b.join("\n");
  if (
    same(before.validPrivileges, after.validPrivileges) &&
    same(before.invalidPrivileges, after.invalidPrivileges) &&
    same(before.subscriptions, after.subscriptions)
  )
    return null;
  return {
    type: "tenant.privileges_changed",
    at,
    data: {
      tenant,
      privileges: diff(before.validPrivileges, after.validPrivileges),
      invalidPrivileges: diff(before.invalidPrivileges, after.invalidPrivileges),
      subscriptions: diff(before.subscriptions, after.subscriptions),
      now: after,
    },
    key: eventKey(
      "tenant.privileges_changed",
      tenant,
      `${fingerprint(before)}@${since}>${fingerprint(after)}`,
    ),
  };
}

/** A short stable text of a grant (FNV-1a of its lists): the key's part, not a secret. */
export function fingerprint(g: Grant): string {
  const text = [g.validPrivileges, g.invalidPrivileges, g.subscriptions]
    .map((l) => l.join(","))
    .join(";");
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}
