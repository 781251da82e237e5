/**
 * @module
 * What became of a create whose answer was lost: one `GET` of its collection filtered by the
 * body's `ExternalImportReference`, which the API keeps unique per client.
 */
import type { V2Request } from "../passthrough";
import type { CallTrace } from "../../upstream/client";
import { getFilteredList, type Unreadable } from "./filtered-list";
import type { Recoverable } from "./idempotency-rules";
import type { StoredAnswer } from "./stored-answer";

export type Recovery =
  | { kind: "found"; answer: StoredAnswer }
  | { kind: "absent" }
  | { kind: "unclear"; detail: string };

/** How a 200 without rows is reported (a list too large is told by its status). */
const UNREADABLE: Readonly<Record<Unreadable, string>> = {
  "too-large": "answered 200.",
  "not-json": "gave an answer that is not JSON.",
  "not-a-list": "gave no list.",
};

/**
 * Looks the create up by its reference. Only a record carrying that reference (any case) counts, so
 * a filter the API ignored cannot pass off another record. Throws a `Problem` when no answer comes.
 */
export async function recover(r: V2Request, trace: CallTrace, how: Recoverable): Promise<Recovery> {
  const list = await getFilteredList(
    r,
    trace,
    how.list,
    `?${new URLSearchParams({ [how.filter]: how.reference }).toString()}`,
  );
  switch (list.kind) {
    case "refused":
      await list.response.body?.cancel();
      return unclear(`answered ${list.response.status}.`);
    case "broken":
      return unclear("broke off before its end.");
    case "unreadable":
      return unclear(UNREADABLE[list.why]);
    case "rows":
      break;
  }
  const wanted = how.reference.toLowerCase();
  const found = list.rows.filter(
    (x): x is Record<string, unknown> =>
      typeof x === "object" &&
      x !== null &&
      String((x as Record<string, unknown>).ExternalImportReference ?? "").toLowerCase() === wanted,
  );
  if (found.length === 0) return { kind: "absent" };
  if (found.length > 1) return unclear("found more than one record.");
  const body = await new Response(JSON.stringify(found[0])).arrayBuffer();
  return {
    kind: "found",
    answer: {
      status: how.status,
      headers: { "content-type": "application/json; charset=utf-8" },
      body,
    },
  };
}

function unclear(what: string): Recovery {
  return { kind: "unclear", detail: `Looking it up by its ExternalImportReference ${what}` };
}
