/**
 * @module
 * `SandboxClient`: one per environment and client (`demo:<clientId>`), holding that client's
 * accounting data. Every API call for the client runs as one handler inside this object, so each is
 * atomic; no other client's object is ever addressed with this client's token, so each client's
 * data is its own. Handlers return `Result`s instead of throwing: a rejection across RPC carries no
 * status.
 */
import { DurableObject } from "cloudflare:workers";
import { backdate, type Backdating } from "../engine/backdate";
import type { Call, Ctx, Reply } from "../engine/call";
import { toOre } from "../engine/ledger";
import { Store } from "../engine/store";
import type { Result } from "../lib/problem";
import { HANDLERS } from "../resources";
import { settleDue } from "../resources/sales";
import { seedClient } from "../resources/seed";

/** Bump when the stored layout changes: sandbox data is then started afresh. */
const SCHEMA_VERSION = "2";

export class SandboxClient extends DurableObject<SandboxEnv> {
  readonly #store: Store;

  constructor(ctx: DurableObjectState, env: SandboxEnv) {
    super(ctx, env);
    this.#store = new Store(ctx.storage.sql);
    if (this.#store.migrate(SCHEMA_VERSION)) seedClient(this.#store, new Date());
  }

  /** Runs one API call. */
  async handle(call: Call): Promise<Result<Reply>> {
    const handler = HANDLERS[call.key];
    if (!handler)
      return {
        ok: false,
        problem: {
          status: 501,
          title: "Not Implemented",
          detail: `The sandbox does not serve ${call.key}.`,
        },
      };
    const wake: number[] = [];
    const ctx: Ctx = {
      store: this.#store,
      call,
      q: new Map(call.query),
      now: new Date(),
      wakeAt: (at) => wake.push(at),
    };
    // Work that came due (invoice deliveries) is applied before the call sees the data.
    settleDue(ctx);
    const result = this.#atomically(() => handler(ctx));
    if (wake.length > 0) await this.#wakeAt(Math.min(...wake));
    return result;
  }

  /** Delivers what came due even when nobody asks. */
  override async alarm(): Promise<void> {
    const next = settleDue({
      store: this.#store,
      call: SYSTEM_CALL,
      q: new Map(),
      now: new Date(),
      wakeAt: () => undefined,
    });
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }

  /** Backdates a record's change stamps (the control API; `engine/backdate.ts`). */
  async backdate(b: Backdating): Promise<Record<string, unknown> | null> {
    return this.#store.atomically(this.ctx.storage, () => backdate(this.#store, b));
  }

  /**
   * The client's invoices made from shop orders (reference `lg:<source>:o:<order id>`), the order
   * id and total in øre of each: what the Vipps stand-in captures (`routes/vipps-control.ts`).
   */
  orderInvoices(): { orderId: string; total: number; currency: string }[] {
    return this.#store.all("OutgoingInvoice").flatMap((r) => {
      const id = /^lg:[a-z]+:o:(.+)$/.exec(String(r.dto.ExternalImportReference ?? ""))?.[1];
      if (id === undefined || r.dto.VoucherType !== "OutgoingInvoice") return [];
      const total = toOre(Number(r.dto.TotalPostedAmount));
      return [{ orderId: id, total, currency: String(r.dto.CurrencyCode ?? "NOK") }];
    });
  }

  /** Removes all of this client's data (sandbox reset); the next call starts from the seed. */
  async wipe(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.#store.forget();
    this.#store.migrate(SCHEMA_VERSION);
    seedClient(this.#store, new Date());
  }

  /**
   * Runs `run` in one transaction; a refused call rolls back whatever it wrote, so nothing is
   * half-written.
   */
  #atomically(run: () => Result<Reply>): Result<Reply> {
    try {
      return this.#store.atomically(this.ctx.storage, () => {
        const r = run();
        if (!r.ok) throw new Refused(r);
        return r;
      });
    } catch (e) {
      if (e instanceof Refused) return e.result;
      throw e;
    }
  }

  async #wakeAt(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }
}

class Refused extends Error {
  constructor(readonly result: Result<Reply>) {
    super("refused");
  }
}

const SYSTEM_CALL: Call = {
  key: "alarm",
  params: {},
  query: [],
  url: "https://sandbox.invalid/",
  body: null,
  upload: null,
  environment: "demo",
  clientId: "",
  integration: "system",
  privileges: [],
};
