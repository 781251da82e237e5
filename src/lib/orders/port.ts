/**
 * @module
 * What an order run needs from its tenant's object: the order's record and mapping, a place to
 * report, and the ids it looked up once. `Tenant` implements this interface (the compiler checks it
 * there), and the Workflow sees the tenant only through it.
 */
import { z } from "zod";
import type { OrderMapping } from "./mapping";
import type { Source } from "./order";
import type { OrderRun, RunPatch } from "./runs";

/** What a run reads: the order's record and the tenant's mapping. */
export interface RunInput {
  run: OrderRun;
  mapping: OrderMapping;
}

/** Ids a settlement needs that only the API knows: the settlement account's id and the VatId of code 0. */
export const SettlementIds = z.object({ settlementAccountId: z.int(), noVatId: z.int() });
export type SettlementIds = z.output<typeof SettlementIds>;

/**
 * The tenant's side of an order run. Every method names the registration the run was started
 * under: once that registration is gone (the tenant removed, perhaps registered again for another
 * company), the run reads nothing and writes nothing.
 */
export interface OrderRunPort {
  /** The order's record and the mapping, or null when the order or its registration is gone. */
  runInput(registration: string, source: Source, orderId: string): Promise<RunInput | null>;
  /** Records a step, a state or ids found on the order (and, with `refundId`, on that refund). */
  runReport(registration: string, source: Source, orderId: string, refundId: string | null, patch: RunPatch): Promise<void>;
  /** The settlement ids remembered for a settlement account number, or null. */
  settlementIds(registration: string, accountNo: number): Promise<SettlementIds | null>;
  /** Remembers the settlement ids of an account number (they do not change while the account exists). */
  rememberSettlementIds(registration: string, accountNo: number, ids: SettlementIds): Promise<void>;
}
