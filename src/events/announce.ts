/**
 * @module
 * Announcing ledgergate's own writes: called by the shared `/v2` write path (`sendV2` in
 * `v2/passthrough.ts`) with each answer, so every caller of that path is announced, the `/v2`
 * route and an MCP `confirm_write` alike. The events are recorded when the answer comes back, with
 * no poll: from the answer itself, or from the one read that shows what the answer does not
 * (`write-events.ts`). The work runs once the caller has taken the answer (`V2Request.after`,
 * `ctx.waitUntil` on `/v2`), so announcing adds nothing to the caller's time, and it never fails
 * the caller: a failure is logged (the watcher of issue 30, whose keys agree, sees the change
 * later).
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

/**
 * How long after an invoice's send its state is read, ms: the API delivers in seconds (the sandbox
 * in 1.5 s). One read; an invoice still being processed then is left to the watcher.
 */
export const SENT_CHECK_DELAY_MS = 3000;
/**
 * How long after the caller took the answer the announcement starts, ms. When the runtime has taken
 * the last byte, it is still on its way (the network, a proxy in front); on a loaded machine the
 * events object's work in that moment added ≈ 20 ms to the caller's time (`npm run bench --
 * events`, part 9b, measured with and without this wait), 50 ms later it adds nothing measurable.
 * An event may take 2 s; 50 ms of it is nothing.
 */
const ANNOUNCE_AFTER_MS = 50;

/**
 * Announces write `r` answered with `res`, if it is announced at all (`announcementOf`), and
 * answers the response to give the caller. The work waits until the caller has taken the whole
 * answer (the body passes through a stream that keeps a copy of it, `passedOn`), then goes to
 * `r.after` (`ctx.waitUntil`), so it competes with nothing on the answer's way. A caller without
 * `after` gets the answer once the announcement is recorded.
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
          Id: what.salesOrderId,
          InvoiceNo: invoiceNo,
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

/**
 * Records `drafts` in `tenant`'s event log; throws when the object refused them. The one call every
 * announcer makes (`Events.record`).
 */
export async function recordEvents(
  env: Bindings,
  tenant: TenantName,
  drafts: EventDraft[],
): Promise<number> {
  const recorded = await eventsStub(env, tenant).record(drafts);
  if (!recorded.ok) throw new Error(recorded.error.detail);
  return recorded.value.recorded;
}

/** The write's JSON body, parsed, or null (none, streamed, or not JSON). */
function requestJson(r: V2Request): unknown {
  if (!(r.body instanceof ArrayBuffer)) return null;
  try {
    return JSON.parse(new TextDecoder().decode(r.body));
  } catch {
    return null;
  }
}

/** The answer's JSON object, or null. */
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
