/**
 * @module
 * The tenant object's order methods, typed plainly for their callers (routes and runs). Workers
 * RPC types a stub's answers structurally, and for these nested records that exceeds TypeScript's
 * instantiation depth; the object's own signatures (`durable/tenant.ts`) are the source of truth.
 */
import type { RunPatch, WebhookAnswer } from "../../durable/order-desk";
import type { OrderMapping } from "./mapping";
import type { Source } from "./order";
import type { OrderRun, OrderRunView, RunState } from "./runs";

/** What a run reads: the order's record and the tenant's mapping. */
export type RunInput = { run: OrderRun; mapping: OrderMapping };

/** The order side of a `Tenant` stub. */
export interface OrderPort {
  receiveWebhook(source: Source, headers: [string, string][], body: Uint8Array): Promise<WebhookAnswer>;
  orderRun(gatewayKey: string, source: Source, orderId: string): Promise<OrderRunView | null | "unauthorized">;
  orderRuns(gatewayKey: string, state: RunState | null, limit: number): Promise<OrderRunView[] | "unauthorized">;
  retryOrder(gatewayKey: string, source: Source, orderId: string): Promise<OrderRunView | null | "nothing-failed" | "unauthorized">;
  runInput(source: Source, orderId: string): Promise<RunInput | null>;
  runReport(source: Source, orderId: string, refundId: string | null, patch: RunPatch): Promise<unknown>;
  cached(key: string): Promise<unknown>;
  cache(key: string, value: unknown): Promise<void>;
}

/** `stub` seen through `OrderPort`. */
export function orderPort(stub: DurableObjectStub): OrderPort {
  return stub as unknown as OrderPort;
}
