/**
 * One poll of the watcher (`src/events/watcher/poll.ts`) and the events its rows mean
 * (`drafts.ts`), with the I/O faked: the keys are the ones ledgergate's own writes derive, a row
 * created and changed is `created` and `updated`, an invoice's posted balance is not a balance
 * change, pages go by keyset with the stamp read again, at most `MAX_PAGES` a cycle and the next
 * cycle goes on there, events are recorded before the cursor moves, and a stop leaves the cursor
 * where it was.
 */
import { describe, expect, it } from "vitest";
import { balanceDrafts, sentDrafts, settledDrafts } from "../../../src/events/invoice-events";
import { recordKey } from "../../../src/events/keys";
import type { EventDraft } from "../../../src/events/types";
import { found } from "../../../src/events/watcher/drafts";
import {
  MAX_PAGES,
  PAGE_SIZE,
  runPoll,
  type Page,
  type PollIo,
} from "../../../src/events/watcher/poll";
import type { PlannedPoll } from "../../../src/events/watcher/polls";

const T0 = Date.UTC(2026, 10, 26, 10);
const iso = (ms: number) => new Date(ms).toISOString();
const CUSTOMERS: PlannedPoll = { poll: "customers", mode: "changed" };

/** A customer row as the API lists it. */
const customer = (id: number, created: number, changed = created) => ({
  Id: id,
  Name: `C${id}`,
  CustomerCreatedDateTimeOffset: iso(created),
  LastChangedDateTimeOffset: iso(changed),
});

describe("watcher: what rows mean", () => {
  it("keys a customer's creation and change exactly as a /v2 write's answer is keyed", () => {
    const fresh = customer(1, T0 + 1000);
    const edited = customer(2, T0 - 3_600_000, T0 + 2000);
    const both = customer(3, T0 + 1000, T0 + 9000);
    const drafts = found(CUSTOMERS, [fresh, edited, both], T0).map((f) => f.draft);
    expect(drafts.map((d) => [d.type, d.key])).toEqual([
      ["customer.created", recordKey("customer.created", fresh, "x")],
      ["customer.updated", recordKey("customer.updated", edited, "x")],
      ["customer.created", recordKey("customer.created", both, "x")],
      ["customer.updated", recordKey("customer.updated", both, "x")],
    ]);
    // The change's own stamp is the event's time, and the record its data.
    expect(drafts[1]).toMatchObject({ at: T0 + 2000, data: edited });
    // Created and changed within a second of each other: the creation only.
    expect(
      found(CUSTOMERS, [customer(4, T0 + 1000, T0 + 1500)], T0).map((f) => f.draft.type),
    ).toEqual(["customer.created"]);
    // The creation filter: creations only.
    expect(
      found({ poll: "customers", mode: "created" }, [both], T0).map((f) => f.draft.type),
    ).toEqual(["customer.created"]);
  });

  it("keys invoices as the write path does; the balance an invoice was posted with is its creation, not a change", () => {
    const posted = {
      Id: "inv-1",
      InvoiceNo: 10001,
      Balance: 125,
      TotalPostedAmount: 125,
      CreatedDateTimeOffset: iso(T0),
      BalanceLastChangedDateTimeOffset: iso(T0),
      SentDateTimeOffset: iso(T0),
      InvoiceDeliveryType: "PdfByEmail",
    };
    const paid = { ...posted, Balance: 0, BalanceLastChangedDateTimeOffset: iso(T0 + 60_000) };
    const balances: PlannedPoll = { poll: "invoice-balances", mode: "changed" };
    expect(found(balances, [posted], T0 - 1)).toEqual([]);
    const [p] = found(balances, [paid], T0 - 1).map((f) => f.draft);
    expect(p).toMatchObject({ type: "outgoing_invoice.paid", at: T0 + 60_000 });
    expect(p?.key).toBe(balanceDrafts([paid], 0)[0]?.key);
    // The run's paid (from its settlement, no read) and the watcher's are one key.
    expect(p?.key).toBe(
      settledDrafts(
        { InvoiceNo: 10001, SalesOrderId: "so-1", InvoiceId: null, total: 12_500, currency: "NOK" },
        0,
      )[0]?.key,
    );
    const sent = found({ poll: "invoices-sent", mode: "changed" }, [posted], T0 - 1).map(
      (f) => f.draft,
    );
    expect(sent.map((d) => d.key)).toEqual(
      sentDrafts(
        {
          InvoiceNo: 10001,
          SalesOrderId: "so-1",
          InvoiceId: null,
          SentDateTimeOffset: iso(T0),
          InvoiceDeliveryType: "PdfByEmail",
        },
        0,
      ).map((d) => d.key),
    );
    // A list's row names the invoice voucher's id, never as `Id`; the sales order's is not in it.
    expect(sent[0]?.data).toEqual({
      InvoiceNo: 10001,
      SalesOrderId: null,
      InvoiceId: "inv-1",
      SentDateTimeOffset: iso(T0),
      InvoiceDeliveryType: "PdfByEmail",
    });
    expect(p?.data).toMatchObject({ InvoiceNo: 10001, InvoiceId: "inv-1", Balance: 0 });
    expect(p?.data).not.toHaveProperty("Id");
  });
});

/** A fake API of `rows` (customers) and an event log, both in memory. */
function world(rows: ReturnType<typeof customer>[], stopAt: Map<number, Page> = new Map()) {
  const log = new Map<string, EventDraft>();
  const reads: { since: number; page: number }[] = [];
  let clock = T0 + 3_600_000;
  const io: PollIo = {
    read: async (_p, since, page) => {
      reads.push({ since, page });
      const stop = stopAt.get(reads.length);
      if (stop) return stop;
      const after = rows
        .filter((r) => Date.parse(r.LastChangedDateTimeOffset) > since)
        .sort(
          (a, b) =>
            Date.parse(a.LastChangedDateTimeOffset) - Date.parse(b.LastChangedDateTimeOffset),
        );
      return { kind: "rows", rows: after.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE) };
    },
    record: async (drafts) => {
      const fresh = drafts.filter((d) => !log.has(d.key));
      for (const d of fresh) log.set(d.key, d);
      return fresh.map((d) => d.key);
    },
    now: () => (clock += 10),
  };
  return { io, log, reads };
}

describe("watcher: one poll", () => {
  it("records every change once, moves the cursor to the latest stamp, and a second cycle finds nothing new", async () => {
    const rows = [customer(1, T0 + 1000), customer(2, T0 - 86_400_000, T0 + 2000)];
    const w = world(rows);
    const first = await runPoll(CUSTOMERS, { floor: T0, seen: null, resume: null }, w.io);
    expect(first).toMatchObject({ calls: 1, outcome: "done" });
    expect(first.cursor).toEqual({ floor: T0, seen: T0 + 2000, resume: null });
    expect(first.delays).toHaveLength(2);
    expect([...w.log.values()].map((d) => d.type)).toEqual([
      "customer.created",
      "customer.updated",
    ]);
    const second = await runPoll(CUSTOMERS, first.cursor, w.io);
    expect(second).toMatchObject({ calls: 1, delays: [], outcome: "done" });
    expect(w.log.size).toBe(2);
  });

  it("pages by keyset, reading the last stamp again; stops after MAX_PAGES and the next cycle goes on there", async () => {
    // MAX_PAGES full pages and a little: three stamps shared across each page's edge.
    const n = MAX_PAGES * PAGE_SIZE + 7;
    const rows = Array.from({ length: n }, (_, i) => customer(i + 1, T0 + 1 + Math.floor(i / 3)));
    const w = world(rows);
    const first = await runPoll(CUSTOMERS, { floor: T0, seen: null, resume: null }, w.io);
    expect(first.outcome).toBe("capped");
    expect(first.calls).toBe(MAX_PAGES);
    expect(first.cursor.resume).not.toBeNull();
    // Each page after the first asks from a millisecond before the last stamp read.
    const lastOfFirstPage = rows[PAGE_SIZE - 1]?.LastChangedDateTimeOffset ?? "";
    expect(w.reads[1]?.since).toBe(Date.parse(lastOfFirstPage) - 1);
    const second = await runPoll(CUSTOMERS, first.cursor, w.io);
    expect(second.outcome).toBe("done");
    expect(second.cursor.resume).toBeNull();
    // Every row once, none skipped, though pages overlapped.
    expect(w.log.size).toBe(n);
    // What counts as created stayed the first read's start across the pages and the cycles.
    expect([...w.log.values()].every((d) => d.type === "customer.created")).toBe(true);
  });

  it("goes by page number when a whole page shares one millisecond", async () => {
    const rows = Array.from({ length: PAGE_SIZE + 2 }, (_, i) => customer(i + 1, T0 + 5));
    const w = world(rows);
    const r = await runPoll(CUSTOMERS, { floor: T0, seen: null, resume: null }, w.io);
    expect(r.outcome).toBe("done");
    expect(w.reads.map((x) => x.page)).toEqual([1, 2]);
    expect(w.log.size).toBe(PAGE_SIZE + 2);
  });

  it("a stop (no permit, a 429) keeps what was read, and the next cycle reads on from there", async () => {
    const rows = Array.from({ length: PAGE_SIZE + 3 }, (_, i) => customer(i + 1, T0 + 1 + i));
    const w = world(
      rows,
      new Map([[2, { kind: "stop", why: "throttled", retryAfterSeconds: 3 } satisfies Page]]),
    );
    const stopped = await runPoll(CUSTOMERS, { floor: T0, seen: null, resume: null }, w.io);
    expect(stopped.outcome).toEqual({ stopped: "throttled", retryAfterSeconds: 3 });
    // The 429 was an answer: two calls.
    expect(stopped.calls).toBe(2);
    expect(w.log.size).toBe(PAGE_SIZE);
    const next = await runPoll(CUSTOMERS, stopped.cursor, w.io);
    expect(next.outcome).toBe("done");
    expect(w.log.size).toBe(PAGE_SIZE + 3);
  });

  it("counts a read refused a permit as no call", async () => {
    const w = world([customer(1, T0 + 1000)], new Map([[1, { kind: "stop", why: "no-permit" }]]));
    const r = await runPoll(CUSTOMERS, { floor: T0, seen: null, resume: null }, w.io);
    expect(r).toMatchObject({ calls: 0, outcome: { stopped: "no-permit" } });
  });

  it("records before the cursor moves: a record that fails leaves the cursor to the caller unchanged", async () => {
    const w = world([customer(1, T0 + 1000)]);
    const failing: PollIo = { ...w.io, record: async () => Promise.reject(new Error("lost")) };
    const cursor = { floor: T0, seen: null, resume: null };
    await expect(runPoll(CUSTOMERS, cursor, failing)).rejects.toThrow("lost");
    // The caller (the watcher) stores only what runPoll answers: the same poll from the same
    // cursor records the change once it can.
    const again = await runPoll(CUSTOMERS, cursor, w.io);
    expect(again.delays).toHaveLength(1);
  });
});
