/**
 * @module
 * The events a poll's rows mean (pure), built with the same functions and keys as ledgergate's own
 * writes (`events/keys.ts`, `events/invoice-events.ts`), so a change that a `/v2` write or
 * an order run already announced repeats its key and is dropped by the event log, and a row read
 * twice (the lookback) is one event.
 *
 * Customers and products: a row created after the read's start is `*.created` (keyed by its id
 * alone, as a write's creation is); a row changed more than `CREATION_SPAN_MS` after it was created
 * is `*.updated` too, keyed by its `LastChangedDateTimeOffset`. Invoices: a row of the balance poll
 * is `paid` or `balance_changed` (`balanceDrafts`), except the balance an invoice was posted with
 * (its whole amount, stamped at its creation, which the sent poll announces); a row of the sent
 * poll is `created` and `sent`
 * (`sentDrafts`). Each draft's `at` is the change's own stamp.
 */
import { eventData } from "../data";
import { balanceDrafts, sentDrafts } from "../invoice-events";
import { field, recordKey } from "../keys";
import type { EventDraft, EventType } from "../types";
import { filterOf, POLLS, type PlannedPoll } from "./polls";
import { stampOf } from "./times";

/**
 * How long after a record's creation a change still counts as part of it, ms. The API stamps a
 * new record's creation and last change at once (the sandbox with one instant); a second covers
 * two clocks read a moment apart. An edit made within a second of the creation is announced as
 * the creation only.
 */
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
      const invoiceNo = Number(field(r, "InvoiceNo"));
      const sentAt = field(r, "SentDateTimeOffset");
      if (!Number.isSafeInteger(invoiceNo) || typeof sentAt !== "string") return [];
      const delivery = field(r, "InvoiceDeliveryType");
      const drafts = sentDrafts(
        {
          Id: String(field(r, "Id")),
          InvoiceNo: invoiceNo,
          SentDateTimeOffset: sentAt,
          InvoiceDeliveryType: typeof delivery === "string" ? delivery : null,
        },
        at(r) ?? Date.now(),
      );
      return withStamp(drafts, at(r));
    });
  return rows.flatMap((r) => recordDrafts(p, r, since));
}

/** `customer.*` or `product.*` of one row. */
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

/**
 * Whether an invoice's balance is the one it was posted with: the whole amount still open, stamped
 * within `CREATION_SPAN_MS` of its creation. That is the invoice's creation (the sent poll's), not
 * a change of its balance; a payment made a moment after the posting changes the amount.
 */
function postedBalance(r: Row): boolean {
  const created = stampOf(field(r, "CreatedDateTimeOffset"));
  const balance = stampOf(field(r, "BalanceLastChangedDateTimeOffset"));
  const whole = Number(field(r, "Balance")) === Number(field(r, "TotalPostedAmount"));
  return whole && created !== null && balance !== null && balance - created <= CREATION_SPAN_MS;
}

const withStamp = (drafts: EventDraft[], at: number | null): Found[] =>
  drafts.map((draft) => ({ draft, changedAt: at ?? draft.at }));
