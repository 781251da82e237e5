/**
 * @module
 * The order run's memory of the client's books, kept by the tenant's object through `OrderRunPort`
 * (`orders/tenant/known-ids.ts`), so the steps skip lookups they do not need.
 */
import type { KnownCustomer, KnownProduct, Learned, OrderRunPort, SettlementIds } from "../port";

/** What the customer, products and settle steps may recall and teach. */
export interface RunMemory {
  /** The customer remembered for `buyer` (a hash, see `run/customer.ts`), or null. */
  customer(buyer: string): Promise<KnownCustomer | null>;
  products(codes: string[]): Promise<Map<string, KnownProduct>>;
  settlement(accountNo: number): Promise<SettlementIds | null>;
  /** Remembers what a step found or created; forgets what the API said is gone. */
  learn(learned: Learned): Promise<void>;
}

/** A memory that recalls and keeps nothing: the step functions' default. */
export const NO_MEMORY: RunMemory = {
  customer: async () => null,
  products: async () => new Map(),
  settlement: async () => null,
  learn: async () => undefined,
};

/**
 * The memory of the run whose port this is. With `recall` off, customers and products are looked
 * up afresh (and still learned): the run's second pass after a remembered id was gone.
 *
 * @example const memory = runMemory(orderRunPort(env, tenant, registration))
 */
export function runMemory(port: OrderRunPort, recall = true): RunMemory {
  return {
    customer: async (buyer) => (recall ? (await port.known({ buyer })).customer : null),
    products: async (codes) =>
      new Map(recall ? (await port.known({ codes })).products.map((p) => [p.code, p]) : []),
    settlement: async (accountNo) =>
      (await port.known({ settlementAccount: accountNo })).settlement,
    learn: (learned) => port.learn(learned),
  };
}
