/**
 * @module
 * The events a poll's rows mean (pure), built with the same functions and keys as the gateway's
 * own writes, so a change already announced, or a row read twice, is one event. Each draft's `at`
 * is the change's own stamp. See docs/design/events.md.
 */
import { eventData } from "../data";
import { balanceDrafts, rowIds, sentDrafts } from "../invoice-events";
import { field, recordKey } from "../keys";
import type { EventDraft, EventType } from "../types";
import { filterOf, POLLS, type PlannedPoll } from "./polls";
import { stampOf } from "./times";

/** How long after a record's creation a change still counts as part of it, ms. */
export const CREATION_SPAN_MS = 1000;

type Row = Record<string, unknown>;

/** A draft, and when its change happened (epoch ms: the API's stamp). */
export interface Found {
  draft: EventDraft;
  changedAt: number;
}

/**
 * The events of `rows`, answered by `p` for a read of changes after `since` (epoch ms).
 *
 * @example found({ poll: "customers", mode: "changed" }, rows, Date.parse("2026-11-26T10:00:00Z"))
 */
export function found(p: PlannedPoll, rows: readonly Row[], since: number): Found[] {
  const stampField = filterOf(p).field;
  const at = (r: Row) => stampOf(field(r, stampField));
  if (p.poll === "invoice-balances") {
    const changed = rows.filter((r) => !postedBalance(r));
    return changed.flatMap((r) => withStamp(balanceDrafts([r], at(r) ?? Date.now()), at(r)));
  }
  if (p.poll === "invoices-sent")
    return rows.flatMap((r) => {
      const ids = rowIds(r);
      const sentAt = field(r, "SentDateTimeOffset");
      if (!ids || typeof sentAt !== "string") return [];
      const delivery = field(r, "InvoiceDeliveryType");
      const drafts = sentDrafts(
        {
          ...ids,
          SentDateTimeOffset: sentAt,
          InvoiceDeliveryType: typeof delivery === "string" ? delivery : null,
        },
        at(r) ?? Date.now(),
      );
      return withStamp(drafts, at(r));
    });
  return rows.flatMap((r) => recordDrafts(p, r, since));
}

function recordDrafts(p: PlannedPoll, r: Row, since: number): Found[] {
  const [createdType, updatedType] = POLLS[p.poll].types as [EventType, EventType];
  const createdField = POLLS[p.poll].filters.created?.field ?? "CreatedDateTimeOffset";
  const created = stampOf(field(r, createdField));
  const changed = stampOf(field(r, "LastChangedDateTimeOffset"));
  const out: Found[] = [];
  const draft = (type: EventType, at: number): Found => ({
    draft: { type, at, data: eventData(r, []), key: recordKey(type, r, "") },
    changedAt: at,
  });
  const isNew = p.mode === "created" || (created !== null && created > since);
  if (isNew && created !== null) out.push(draft(createdType, created));
  if (p.mode === "changed" && changed !== null) {
    const partOfCreation = created !== null && changed - created <= CREATION_SPAN_MS;
    if (!partOfCreation) out.push(draft(updatedType, changed));
  }
  return out;
}

/** Whether an invoice's balance is the one it was posted with: its creation, not a change. */
function postedBalance(r: Row): boolean {
  const created = stampOf(field(r, "CreatedDateTimeOffset"));
  const balance = stampOf(field(r, "BalanceLastChangedDateTimeOffset"));
  const whole = Number(field(r, "Balance")) === Number(field(r, "TotalPostedAmount"));
  return whole && created !== null && balance !== null && balance - created <= CREATION_SPAN_MS;
}

const withStamp = (drafts: EventDraft[], at: number | null): Found[] =>
  drafts.map((draft) => ({ draft, changedAt: at ?? draft.at }));
