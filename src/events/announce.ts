/**
 * @module
 * Announcing the gateway's own writes, from the shared `/v2` write path (`v2/passthrough.ts`): from
 * the answer, or the one read that shows what it does not, once the caller has taken it. It never
 * fails the caller; the watcher sees a lost change later. See docs/design/events.md.
 */
import type { Bindings } from "../kernel/config";
import { log } from "../kernel/log";
import type { V2Request } from "../v2/passthrough";
import { eventsStub, type TenantName } from "../kernel/stubs";
import { eventData } from "./data";
import { readRows } from "./follow-up";
import { balanceDrafts, sentDrafts } from "./invoice-events";
import { recordKey } from "./keys";
import type { EventDraft } from "./types";
import { passedOn } from "./passed-on";
import { announcementOf, type WriteAnnouncement } from "./write-events";

/** How long after an invoice's send its state is read, once, ms: the API delivers in seconds. */
export const SENT_CHECK_DELAY_MS = 3000;
/** How long after the caller took the answer the announcement starts, ms: the bytes still leave. */
const ANNOUNCE_AFTER_MS = 50;

/**
 * Announces write `r` answered with `res`, if it is announced at all, and answers the response to
 * give the caller; the work goes to `r.after` once the caller took the answer (without `after`,
 * the answer waits for the announcement).
 */
export async function announceWrite(r: V2Request, res: Response): Promise<Response> {
  const what = announcementOf(r.method, r.path, res.status, requestJson(r));
  if (!what) return res;
  const failed = (e: unknown) =>
    log.warn("event-announce-failed", {
      requestId: r.requestId,
      tenant: r.caller.tenant,
      error: e instanceof Error ? e.message : String(e),
    });
  if (!r.after) {
    const bytes = new Uint8Array(await res.arrayBuffer());
    await announce(r, what, bytes).catch(failed);
    return new Response(bytes, res);
  }
  const passed = passedOn(res.body);
  const later = async (bytes: Uint8Array | null) => {
    await scheduler.wait(ANNOUNCE_AFTER_MS);
    await announce(r, what, bytes);
  };
  r.after(passed.done.then(later).catch(failed));
  return new Response(passed.body, res);
}

async function announce(
  r: V2Request,
  what: WriteAnnouncement,
  answer: Uint8Array | null,
): Promise<void> {
  const at = Date.now();
  let drafts: EventDraft[] = [];
  if (what.kind === "record") {
    const record = answer && answerObject(answer);
    if (record)
      drafts = [
        {
          type: what.type,
          at,
          data: eventData(record, what.changed),
          key: recordKey(what.type, record, r.requestId),
        },
      ];
  } else if (what.kind === "invoices") {
    const invoices = await readRows(
      r,
      "/OutgoingInvoices",
      `?invoiceNos=${what.invoiceNos.join(",")}`,
    );
    drafts = balanceDrafts(invoices, Date.now());
  } else if (what.kind === "sent") {
    await scheduler.wait(SENT_CHECK_DELAY_MS);
    const [state] = await readRows(
      r,
      "/SalesOrders/sentState",
      `?id=${encodeURIComponent(what.salesOrderId)}`,
    );
    const invoiceNo = Number(state?.InvoiceNo);
    if (state && state.IsInvoiceBeingProcessed !== true && Number.isSafeInteger(invoiceNo))
      drafts = sentDrafts(
        {
          InvoiceNo: invoiceNo,
          SalesOrderId: what.salesOrderId,
          InvoiceId: null,
          SentDateTimeOffset:
            typeof state.SentDateTimeOffset === "string" ? state.SentDateTimeOffset : null,
          InvoiceDeliveryType:
            typeof state.InvoiceDeliveryType === "string" ? state.InvoiceDeliveryType : null,
        },
        Date.now(),
      );
  }
  if (drafts.length > 0) await recordEvents(r.env, r.caller.tenant, drafts);
}

/** Records `drafts` in `tenant`'s event log (`Events.record`); throws when the object refused. */
export async function recordEvents(
  env: Bindings,
  tenant: TenantName,
  drafts: EventDraft[],
): Promise<number> {
  const recorded = await eventsStub(env, tenant).record(drafts);
  if (!recorded.ok) throw new Error(recorded.error.detail);
  return recorded.value.recorded;
}

function requestJson(r: V2Request): unknown {
  if (!(r.body instanceof ArrayBuffer)) return null;
  try {
    return JSON.parse(new TextDecoder().decode(r.body));
  } catch {
    return null;
  }
}

function answerObject(bytes: Uint8Array): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
