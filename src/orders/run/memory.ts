/**
 * @module
 * The order run's memory of the client's books, kept by the tenant's object (`OrderRunPort.known`
 * and `learn`, bound to the run's registration): the customer each buyer turned out to be,
 * the products that exist, and the settlement ids, so the steps skip lookups they do not need
 * (`orders/tenant/known-ids.ts` says how long a remembered id is trusted, and why).
 */
import type { KnownCustomer, KnownProduct, Learned, OrderRunPort, SettlementIds } from "../port";

/** What the customer, products and settle steps may recall and teach. */
export interface RunMemory {
  /** The customer remembered for `buyer` (a hash, see `run/customer.ts`), or null. */
  customer(buyer: string): Promise<KnownCustomer | null>;
  /** Those of `codes` remembered, by code. */
  products(codes: string[]): Promise<Map<string, KnownProduct>>;
  /** The settlement ids of an account number, or null. */
  settlement(accountNo: number): Promise<SettlementIds | null>;
  /** Remembers what a step found or created; forgets what the API said is gone. */
  learn(learned: Learned): Promise<void>;
}

/**
 * A memory that recalls and keeps nothing: every step looks up (the default of the step functions,
 * and what their tests use).
 */
export const NO_MEMORY: RunMemory = {
  customer: async () => null,
  products: async () => new Map(),
  settlement: async () => null,
  learn: async () => undefined,
};

/**
 * The memory of the run whose port this is. With `recall` off, customers and products
 * are looked up afresh (and what is found is still learned): the run's second pass after the API
 * said a remembered id is gone.
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
