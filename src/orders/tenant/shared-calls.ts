/**
 * @module
 * The calls a tenant's order runs share while several are on the way: one `sentState` read for
 * their delivery checks, one bank voucher for their settlements. A run alone gets the call it
 * would make itself. A voucher is recorded before it is sent and re-sent identically until the API
 * answers; only a refused one is split, each line then posted alone under its run's own reference.
 * See docs/design/order-batches.md.
 */
import { z } from "zod";
import type { Bindings } from "../../kernel/config";
import { readConfig } from "../../kernel/config";
import { governorStub, parseTenantName } from "../../kernel/stubs";
import { RunError, runApi, type RunApi } from "../../ledger/run-api";
import { sentState, sentStates, type Delivery } from "../run/invoice";
import {
  postSettlement,
  settlementVoucher,
  type Settlement,
  type VoucherBody,
  type VoucherOutcome,
} from "../run/settle";
import { jsonColumn, row, rows } from "../../tenant/sql";
import { RUN_RETENTION_MS, type OrderBook } from "./order-book";
import { Gather } from "./gather";
import type { RunOwner } from "./order-desk";

/** The tables as of step 15 of `schema.ts` (change them with a new step). */
export const SHARED_CALL_TABLES = [
  `CREATE TABLE IF NOT EXISTS settlement_batches (id INTEGER PRIMARY KEY, reference TEXT NOT NULL,
    body TEXT NOT NULL, state TEXT NOT NULL, detail TEXT, lines INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS settlement_batches_updated ON settlement_batches (updated_at)",
  `CREATE TABLE IF NOT EXISTS settlement_lines (line_ref TEXT PRIMARY KEY, batch_id INTEGER NOT NULL,
    run TEXT NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS settlement_lines_batch ON settlement_lines (batch_id)",
  "CREATE TABLE IF NOT EXISTS shared_reads (name TEXT PRIMARY KEY, rows INTEGER NOT NULL, at INTEGER NOT NULL)",
];

/** Settlements one voucher takes at most: 100 lines. */
export const MAX_VOUCHER_ORDERS = 50;
/** Runs remembered as companions at most: a bound on memory if their settlements never come. */
const MAX_COMPANIONS = 10_000;
/** Delivery checks one read serves at most. */
const MAX_READ_ORDERS = 50;
/** A `sentState` list longer than this is not read again: per-order reads from then on. */
export const SENT_STATE_LIST_BOUND = 500;
/** How long a batch waits for companions on an idle key, ms: a sibling's send and first wait. */
const IDLE_WAIT_MS = 3_000;
/** How long it waits while calls queue in the governor, ms: for runs that stopped on the way. */
const BUSY_WAIT_MS = 30_000;
/** A run not reported for this long is not waited for, ms. */
const HEADED_WITHIN_MS = 2 * 60_000;

/** A shared call's answer to one run: its value and its share of the calls, or why not. */
export type Shared<T> =
  | { ok: true; value: T; calls: number; runs: number; reference: string | null }
  | { ok: false; retryable: boolean; detail: string };

/** Which run asks: its instance id (a lone call's name in the log) and its order's key. */
export interface RunRef {
  runId: string;
  /** `<source>:<order id>`, as the order book names the run. */
  order: string;
}

/** A run that asks for a shared call, and whose it is. */
interface Member extends RunRef {
  owner: RunOwner;
}

/** One run's line of a settlement voucher; `line.reference` is the run's own voucher reference. */
export interface SettleMember extends Member {
  line: Settlement;
}

export interface ReadMember extends Member {
  salesOrderId: string;
}

const BatchRow = z.object({
  id: z.int(),
  reference: z.string(),
  body: jsonColumn(z.record(z.string(), z.unknown())),
  state: z.enum(["sending", "posted", "refused"]),
  detail: z.string().nullable(),
  lines: z.int(),
});
type BatchRow = z.output<typeof BatchRow>;
const IdRow = z.object({ id: z.int() });
const OldestRow = z.object({ at: z.int().nullable() });
const RowsRow = z.object({ rows: z.int() });
const RunRow = z.object({ run: z.string() });

/** 16 random hex digits: a batch's reference must be new on the client, across registrations. */
const batchReference = () =>
  `lg:batch:${[...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;

/** The voucher group of a settlement: one currency per voucher, each line on its own day. */
const groupOf = (s: Settlement) => s.currency;

const failed = (e: unknown): Shared<never> =>
  e instanceof RunError
    ? { ok: false, retryable: e.retryable, detail: e.message }
    : { ok: false, retryable: true, detail: e instanceof Error ? e.message : String(e) };

const share = (calls: number, runs: number) => Math.round((calls / runs) * 100) / 100;

export class SharedCalls {
  readonly #reads: Gather<ReadMember, Shared<Delivery | null>>;
  readonly #settles: Gather<SettleMember, Shared<{ posted: boolean }>>;
  /** Posts under way, by batch id: a re-send joins the one in flight. */
  readonly #posting = new Map<number, Promise<VoucherOutcome>>();
  /** The runs one shared read found sent, by each of them: they go on to settle together. */
  readonly #companions = new Map<string, string[]>();

  constructor(
    private readonly sql: SqlStorage,
    private readonly env: Bindings,
    private readonly book: OrderBook,
  ) {
    const waitMs = async (first: Member) => {
      const fixed = readConfig(env).orderBatchWaitMs;
      if (fixed !== null) return fixed;
      const name = parseTenantName(first.owner.tenant);
      if (!name.ok) return IDLE_WAIT_MS;
      // While calls queue for permits, waiting costs nothing: the batch closes once complete.
      const { waiting } = await governorStub(env, name.value.environment).state();
      return waiting > 0 ? BUSY_WAIT_MS : IDLE_WAIT_MS;
    };
    this.#reads = new Gather<ReadMember, Shared<Delivery | null>>({
      max: MAX_READ_ORDERS,
      runOf: (m) => m.order,
      headed: () => this.#headed(["received", "running"]),
      awaited: () => this.#headed(["received", "running"]),
      waitMs,
      send: (_, members) => this.#read(members),
    });
    this.#settles = new Gather<SettleMember, Shared<{ posted: boolean }>>({
      max: MAX_VOUCHER_ORDERS,
      runOf: (m) => m.order,
      headed: (group) => this.#headed(["received", "running", "invoiced"], group),
      // The runs its delivery read found sent with it, and those delivered and not yet settled:
      // waiting for runs further back would chain one batch's wait onto the next.
      awaited: (group, first) =>
        new Set([
          ...(this.#companions.get(first.order) ?? []),
          ...this.#headed(["invoiced"], group),
        ]),
      waitMs,
      send: (_, members) => this.#settleTogether(members),
    });
  }

  /** A run's delivery check: with others on the way, one shared read; `alone`, its own read. */
  async delivery(member: ReadMember, alone: boolean): Promise<Shared<Delivery | null>> {
    const m = { ...member, salesOrderId: member.salesOrderId.toLowerCase() };
    if (!alone) return this.#reads.join(m.owner.registration, m);
    const [answer] = await this.#read([m]);
    return answer ?? failed(new RunError("No answer for the delivery check.", true));
  }

  /**
   * A run's settlement: answered from its recorded voucher if it has one (re-sent while its outcome
   * is unknown), else posted with the others on the way, or `alone` under its own reference.
   */
  async settle(member: SettleMember, alone: boolean): Promise<Shared<{ posted: boolean }>> {
    const batch = this.#batchOf(member.line.reference);
    if (batch?.state === "refused" || (!batch && alone)) return this.#postAlone(member);
    if (batch) return this.#follow(member, batch);
    return this.#settles.join(`${member.owner.registration}|${groupOf(member.line)}`, member);
  }

  /** A run reported: a batch waiting for it may be complete now. */
  poke(): void {
    this.#reads.poke();
    this.#settles.poke();
  }

  /** When the oldest answered voucher outlives the runs it settled (epoch ms), or null. */
  dueAt(): number | null {
    const r = row(
      this.sql,
      OldestRow,
      "SELECT MIN(updated_at) AS at FROM settlement_batches WHERE state != 'sending'",
    );
    return r?.at == null ? null : r.at + RUN_RETENTION_MS;
  }

  /** Drops answered vouchers kept as long as their runs, with their lines, a batch at a time. */
  purge(now: number): void {
    const old =
      "SELECT id FROM settlement_batches WHERE state != 'sending' AND updated_at < ? LIMIT 500";
    this.sql.exec(
      `DELETE FROM settlement_lines WHERE batch_id IN (${old})`,
      now - RUN_RETENTION_MS,
    );
    this.sql.exec(`DELETE FROM settlement_batches WHERE id IN (${old})`, now - RUN_RETENTION_MS);
  }

  /** Forgets every voucher and read (the tenant's removal). */
  clear(): void {
    for (const t of ["settlement_batches", "settlement_lines", "shared_reads"])
      this.sql.exec(`DELETE FROM ${t}`);
  }

  /** Runs of paid orders reported lately in `states` (of the group's currency). */
  #headed(states: ("received" | "running" | "invoiced")[], group?: string): Set<string> {
    const since = new Date(Date.now() - HEADED_WITHIN_MS).toISOString();
    const [, currency = null] = group?.split("|") ?? [];
    return new Set(states.flatMap((state) => this.book.headed(state, since, currency)));
  }

  async #read(members: ReadMember[]): Promise<Shared<Delivery | null>[]> {
    const [first] = members;
    if (!first) return [];
    const alone = members.length === 1;
    const name = alone ? first.runId : `delivery checks of ${members.length} runs`;
    const served = alone ? undefined : members.map((m) => m.runId);
    const api = runApi(this.env, first.owner.tenant, first.owner.registration, name, served);
    try {
      const listed = members.length > 1 && !this.#listTooLong() ? await this.#list(api) : null;
      const found: (Delivery | null)[] = [];
      // Whatever the list lacks is read alone: a list the API cut short must not read as "never sent".
      for (const m of members)
        found.push(listed?.get(m.salesOrderId) ?? (await sentState(api, m.salesOrderId)));
      this.#together(members.filter((_, i) => found[i]?.state === "sent"));
      return found.map((value) => ({
        ok: true,
        value,
        calls: share(api.calls, members.length),
        runs: members.length,
        reference: null,
      }));
    } catch (e) {
      return members.map(() => failed(e));
    }
  }

  /** Notes `sent` as companions on the way to settle; forgotten when their batch closes. */
  #together(sent: ReadMember[]): void {
    if (sent.length < 2) return;
    if (this.#companions.size > MAX_COMPANIONS) this.#companions.clear();
    const orders = sent.map((m) => m.order);
    for (const order of orders) this.#companions.set(order, orders);
  }

  async #list(api: RunApi): Promise<Map<string, Delivery>> {
    const listed = await sentStates(api);
    this.sql.exec(
      "INSERT OR REPLACE INTO shared_reads (name, rows, at) VALUES ('sentState', ?, ?)",
      listed.size,
      Date.now(),
    );
    return listed;
  }

  #listTooLong(): boolean {
    const r = row(this.sql, RowsRow, "SELECT rows FROM shared_reads WHERE name = 'sentState'");
    return (r?.rows ?? 0) > SENT_STATE_LIST_BOUND;
  }

  #batchOf(lineRef: string): BatchRow | null {
    return row(
      this.sql,
      BatchRow,
      "SELECT b.id, b.reference, b.body, b.state, b.detail, b.lines FROM settlement_lines l JOIN settlement_batches b ON b.id = l.batch_id WHERE l.line_ref = ?",
      lineRef,
    );
  }

  /** Records a voucher and its lines before anything is sent: the record is the batch's memory. */
  #record(reference: string, members: SettleMember[]): BatchRow {
    const body = settlementVoucher(
      reference,
      members.map((m) => m.line),
    );
    const { id } = IdRow.parse(
      this.sql
        .exec(
          "INSERT INTO settlement_batches (reference, body, state, detail, lines, updated_at) VALUES (?, ?, 'sending', NULL, ?, ?) RETURNING id",
          reference,
          JSON.stringify(body),
          members.length,
          Date.now(),
        )
        .one(),
    );
    for (const m of members)
      this.sql.exec(
        "INSERT OR REPLACE INTO settlement_lines (line_ref, batch_id, run) VALUES (?, ?, ?)",
        m.line.reference,
        id,
        m.runId,
      );
    return { id, reference, body, state: "sending", detail: null, lines: members.length };
  }

  async #settleTogether(members: SettleMember[]): Promise<Shared<{ posted: boolean }>[]> {
    // A line recorded meanwhile (an attempt of the same run) follows its record; a run's line
    // joined twice (a dead attempt's and the next one's) is one line.
    const fresh = new Map<string, SettleMember>();
    for (const m of members) if (!this.#batchOf(m.line.reference)) fresh.set(m.line.reference, m);
    const lines = [...fresh.values()];
    for (const m of members) this.#companions.delete(m.order);
    const [only] = lines;
    if (only) {
      const reference = lines.length === 1 ? only.line.reference : batchReference();
      this.#record(reference, lines);
    }
    return Promise.all(members.map((m) => this.settle(m, false)));
  }

  async #postAlone(member: SettleMember): Promise<Shared<{ posted: boolean }>> {
    return this.#follow(member, this.#record(member.line.reference, [member]));
  }

  /**
   * Sends `batch` (or joins its send under way) and answers `member`, one of its runs; a refused
   * batch of several is split, each line posted alone, so one bad line fails only its own run.
   */
  async #follow(member: SettleMember, batch: BatchRow): Promise<Shared<{ posted: boolean }>> {
    const done = (posted: boolean, calls: number): Shared<{ posted: boolean }> => ({
      ok: true,
      value: { posted },
      calls: share(calls, batch.lines),
      runs: batch.lines,
      reference: batch.reference,
    });
    if (batch.state === "posted") return done(false, 0);
    let outcome: VoucherOutcome;
    try {
      outcome = await this.#send(member, batch);
    } catch (e) {
      return failed(e);
    }
    if (outcome.kind !== "refused") return done(outcome.kind === "posted", 1);
    if (batch.lines > 1) return this.#postAlone(member);
    return { ok: false, retryable: false, detail: outcome.detail };
  }

  /** One post of `batch` at a time; its outcome is stored before anyone is answered. */
  #send({ owner, runId }: Member, batch: BatchRow): Promise<VoucherOutcome> {
    const under = this.#posting.get(batch.id);
    if (under) return under;
    const alone = batch.lines === 1;
    const name = alone ? runId : `voucher ${batch.reference}`;
    const api = runApi(
      this.env,
      owner.tenant,
      owner.registration,
      name,
      alone ? undefined : this.#runsOf(batch.id),
    );
    const post = (async () => {
      try {
        const outcome = await postSettlement(api, batch.body as VoucherBody);
        this.#settled(batch.id, outcome.kind === "refused" ? outcome.detail : null);
        return outcome;
      } catch (e) {
        // Refused before it was sent (a key refused, a registration gone): nothing was posted.
        if (e instanceof RunError && !e.retryable) this.#settled(batch.id, e.message);
        throw e;
      }
    })().finally(() => this.#posting.delete(batch.id));
    this.#posting.set(batch.id, post);
    return post;
  }

  #runsOf(batchId: number): string[] {
    return rows(
      this.sql,
      RunRow,
      "SELECT run FROM settlement_lines WHERE batch_id = ? ORDER BY rowid",
      batchId,
    ).map((r) => r.run);
  }

  #settled(id: number, refusal: string | null): void {
    this.sql.exec(
      "UPDATE settlement_batches SET state = ?, detail = ?, updated_at = ? WHERE id = ?",
      refusal === null ? "posted" : "refused",
      refusal,
      Date.now(),
      id,
    );
  }
}
