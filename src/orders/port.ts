/**
 * @module
 * What an order run needs from its tenant's object: the record and mapping, a place to report, and
 * the ids earlier runs learned. The run face (`tenant/run-face.ts`) implements it; the Workflow
 * sees the tenant only through it.
 */
import { z } from "zod";
import type { OrderMapping } from "../ledger/mapping";
import type { Source } from "./order";
import type { OrderRun, RunPatch } from "./runs";
import type { Delivery } from "./run/invoice";
import type { Settlement } from "./run/settle";
import type { RunRef, Shared } from "./tenant/shared-calls";

/** What a run reads: the order's record and the tenant's mapping. */
export interface RunInput {
  run: OrderRun;
  mapping: OrderMapping;
}

/** Ids a settlement needs that only the API knows: the account's id and the VatId of code 0. */
export const SettlementIds = z.object({ settlementAccountId: z.int(), noVatId: z.int() });
export type SettlementIds = z.output<typeof SettlementIds>;

/** A customer a run found or created, for the next order of the same buyer. */
export const KnownCustomer = z.object({
  id: z.int(),
  number: z.int().nullable(),
  subledgerAccountId: z.int(),
  /** Only the lookup's warning (the number is another record's); the order's is made again. */
  warning: z.string().nullable(),
});
export type KnownCustomer = z.output<typeof KnownCustomer>;

/** A product a run found or created: its code and the sales account that decides its lines' VAT. */
export const KnownProduct = z.object({ code: z.string(), salesAccount: z.int().nullable() });
export type KnownProduct = z.output<typeof KnownProduct>;

/** What a run asks the tenant to recall: a buyer's hash, product codes, a settlement account. */
export interface KnownAsk {
  buyer?: string;
  codes?: string[];
  settlementAccount?: number;
}

export interface Known {
  customer: KnownCustomer | null;
  products: KnownProduct[];
  settlement: SettlementIds | null;
}

/** What a run tells the tenant: ids it found or created, and ids the API said are gone. */
export interface Learned {
  customer?: { buyer: string; known: KnownCustomer };
  products?: KnownProduct[];
  settlement?: { accountNo: number; ids: SettlementIds };
  gone?: { customerId?: number; codes?: string[] };
}

/**
 * The tenant's side of an order run, bound to the registration it was started under: once that is
 * gone (`Tenant.forRun`), the run reads nothing and writes nothing.
 */
export interface OrderRunPort {
  /** The order's record and the mapping, or null when the order or its registration is gone. */
  runInput(source: Source, orderId: string): Promise<RunInput | null>;
  runReport(
    source: Source,
    orderId: string,
    refundId: string | null,
    patch: RunPatch,
  ): Promise<void>;
  /** What this registration's runs learned that is still trusted. */
  known(ask: KnownAsk): Promise<Known>;
  /** Remembers ids a run found or created, and forgets those the API said are gone. */
  learn(learned: Learned): Promise<void>;
  /** The delivery state of a sales order's invoice (null: never sent), read with other runs'. */
  delivery(run: RunRef, salesOrderId: string, alone: boolean): Promise<Shared<Delivery | null>>;
  /** Posts a settlement, in one voucher with other runs' unless `alone`. */
  settle(run: RunRef, line: Settlement, alone: boolean): Promise<Shared<{ posted: boolean }>>;
}
