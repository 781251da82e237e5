/**
 * @module
 * What an order run needs from its tenant's object: the order's record and mapping, a place to
 * report, and the ids it looked up or created before (settlement ids, customers, products), so the
 * next run of a returning buyer with known products skips those lookups. The tenant object's run
 * face implements this interface (`tenant/run-face.ts`, the compiler checks it there), and
 * the Workflow sees the tenant only through it.
 */
import { z } from "zod";
import type { OrderMapping } from "../ledger/mapping";
import type { Source } from "./order";
import type { OrderRun, RunPatch } from "./runs";

/** What a run reads: the order's record and the tenant's mapping. */
export interface RunInput {
  run: OrderRun;
  mapping: OrderMapping;
}

/**
 * Ids a settlement needs that only the API knows: the settlement account's id and the VatId of code
 * 0.
 */
export const SettlementIds = z.object({ settlementAccountId: z.int(), noVatId: z.int() });
export type SettlementIds = z.output<typeof SettlementIds>;

/**
 * A customer a run found or created: what the next order of the same buyer uses without a lookup.
 */
export const KnownCustomer = z.object({
  id: z.int(),
  number: z.int().nullable(),
  subledgerAccountId: z.int(),
  /**
   * Only the warning that came from the lookup (the buyer's organization number is another
   * record's); one from the order itself is made again.
   */
  warning: z.string().nullable(),
});
export type KnownCustomer = z.output<typeof KnownCustomer>;

/** A product a run found or created: its code and the sales account that decides its lines' VAT. */
export const KnownProduct = z.object({ code: z.string(), salesAccount: z.int().nullable() });
export type KnownProduct = z.output<typeof KnownProduct>;

/**
 * What a run asks the tenant to recall: a buyer (the hash `run/customer.ts` files it under),
 * product codes, a settlement account number.
 */
export interface KnownAsk {
  buyer?: string;
  codes?: string[];
  settlementAccount?: number;
}

/**
 * What the tenant recalls: the buyer's customer, those of the codes it knows, the account's
 * settlement ids (null: not known).
 */
export interface Known {
  customer: KnownCustomer | null;
  products: KnownProduct[];
  settlement: SettlementIds | null;
}

/** What a run tells the tenant: ids it found or created, and ids the API said are gone. */
export interface Learned {
  customer?: { buyer: string; known: KnownCustomer };
  products?: KnownProduct[];
  /** Settlement ids do not change while the account exists. */
  settlement?: { accountNo: number; ids: SettlementIds };
  gone?: { customerId?: number; codes?: string[] };
}

/**
 * The tenant's side of an order run, bound to the registration the run was started under: the
 * tenant's object hands it out only while that registration is current (`Tenant.forRun`), and once
 * it is gone (the tenant removed, perhaps registered again for another company), the run reads
 * nothing and writes nothing.
 */
export interface OrderRunPort {
  /** The order's record and the mapping, or null when the order or its registration is gone. */
  runInput(source: Source, orderId: string): Promise<RunInput | null>;
  /** Records a step, a state or ids found on the order (and, with `refundId`, on that refund). */
  runReport(
    source: Source,
    orderId: string,
    refundId: string | null,
    patch: RunPatch,
  ): Promise<void>;
  /**
   * What this registration's runs learned (customers, products, settlement ids) that is still
   * trusted; nothing once the registration is gone.
   */
  known(ask: KnownAsk): Promise<Known>;
  /** Remembers ids a run found or created, and forgets those the API said are gone. */
  learn(learned: Learned): Promise<void>;
}
