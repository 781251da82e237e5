/**
 * @module
 * The flows of one order run (`OrderToInvoice`): the order's (customer, products, sales order,
 * send, delivery, settle) and a refund's (await the invoice, credit note, send, settle). Every API
 * step is idempotent on its own (`orders/run/`); a remembered id the API says is gone sends the
 * run through customer, products and sales order once more. See docs/design/order-runs.md.
 */
import type { WorkflowStepConfig } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import { creditPlan, invoicePlan, roundingProblem, type LinePlan } from "../invoice-lines";
import { sentDrafts, settledDrafts, type InvoiceIds } from "../../events/invoice-events";
import { clearingOf, type OrderMapping } from "../../ledger/mapping";
import { formatMinor } from "../../ledger/money";
import type { Order } from "../order";
import { RunError } from "../../ledger/run-api";
import { findOrCreateCustomer } from "../run/customer";
import { sendInvoice, sentState, type Delivery } from "../run/invoice";
import { runMemory, type RunMemory } from "../run/memory";
import { chooseProducts, ensureRoundingProduct } from "../run/products";
import { reference } from "../../ledger/refs";
import {
  createSalesOrder,
  deleteDraft,
  withdrawOrder,
  type Gone,
  type Remembered,
  type SalesOrderRef,
} from "../run/sales-order";
import { knownSettlementIds } from "../run/settle";
import type { RunPatch, Settlement } from "../runs";
import { RunSteps } from "./run-steps";

/** Waits between sentState polls, s: delivery takes seconds; the run gives up after ≈ 20 min. */
const POLL_WAITS_S = [2, 2, 3, 5, 10, 20, 30, 60, 120, 300, 600];
/** How long a refund that came before its order waits for the invoice: 30 s doubling, ≈ 8.5 h. */
const AWAIT_INVOICE: WorkflowStepConfig = {
  retries: { limit: 10, delay: "30 seconds", backoff: "exponential" },
  timeout: "1 minute",
};

/** How `#salesOrder` makes an order: customer, reference, a credit note's invoice, the memory. */
interface SalesOrderOptions {
  customerId: number;
  ref: string;
  relatedInvoiceNo?: number;
  cancellable?: boolean;
  recalled?: { remembered: Remembered; memory: RunMemory };
}

/** One run's steps: `invoice()` for an order, `credit()` for a refund, built from `RunSteps`. */
export class Run extends RunSteps {
  async invoice(): Promise<unknown> {
    const { run, mapping } = await this.load();
    const order = run.order;
    if (!order) throw new NonRetryableError("The order has no paid order data.");
    if (run.cancelledAt) {
      if (this.runAttempt === 1) return this.stop("cancelled before the run began");
      if (!(await this.#invoicedBeforeCancel(order)))
        return this.stop("cancelled; no draft of the order is left");
      // Invoiced before the cancellation: the invoice stands (the shop refunds the buyer), and
      // this attempt settles it as the first would have; stopping "invoiced" left it live forever.
    }
    // Before the first call: an order whose lines do not explain its total books nothing at all.
    this.current = "plan";
    const draft = invoicePlan(order, {}, mapping);
    const unexplained = roundingProblem(draft, order.currency);
    if (unexplained) return this.refuse(unexplained);
    const needsRounding = draft.rounding !== 0;
    let made = await this.#parties(order, mapping, needsRounding, true);
    // A remembered id the API no longer has: the steps run once more with fresh lookups.
    if (made.salesOrder?.kind === "gone")
      made = await this.#parties(order, mapping, needsRounding, false);
    const { customer, salesOrder } = made;
    if (!salesOrder) return this.stop("cancelled before the sales order was created");
    if (salesOrder.kind === "gone")
      throw new RunError(
        "The API refused the sales order's customer or products even as just looked up.",
        false,
      );
    const delivered = await this.#deliver(salesOrder, mapping, order.buyer.email, (d) => ({
      order: { invoiceNo: d.invoiceNo, state: "invoiced" },
    }));
    if (!delivered) return this.stop("cancelled before the invoice was sent");
    if (mapping.settle)
      await this.#settle(
        "settle",
        order,
        { ...delivered, SalesOrderId: delivered.SalesOrderId ?? run.salesOrderId },
        order.total,
        customer.subledgerAccountId,
        mapping,
        reference(order.source, "p", order.id),
        (settlement) => ({ order: { state: "settled", settlement } }),
      );
    return { invoiceNo: delivered.InvoiceNo };
  }

  /** A refund's run: a credit note for exactly what was refunded. */
  async credit(refundId: string): Promise<unknown> {
    const { run, mapping } = await this.load();
    const refund = run.refunds.find((x) => x.refund.id === refundId)?.refund;
    if (!refund) throw new NonRetryableError(`No refund ${refundId} on this order.`);
    this.current = "await invoice";
    const invoiced = await this.step.do("await invoice", AWAIT_INVOICE, async () => {
      const now = (await this.port.runInput(this.p.source, this.p.orderId))?.run;
      if (now && now.invoiceNo === null && now.state === "cancelled") {
        await this.port.runReport(this.p.source, this.p.orderId, refundId, {
          refund: {
            state: "skipped",
            error: "The order was never invoiced, so there is nothing to credit.",
          },
        });
        return null;
      }
      // Not lost: the order's retry retries this refund too, which then waits for the new invoice.
      if (now && now.invoiceNo === null && now.state === "failed")
        throw new NonRetryableError(
          "The order's run failed before it was invoiced; retry the order, and this refund runs again once the order is invoiced.",
        );
      if (!now?.order || now.invoiceNo === null || !now.customer || !now.products)
        throw new Error("The order is not invoiced yet; the refund waits for its invoice.");
      await this.port.runReport(this.p.source, this.p.orderId, refundId, {
        refund: { state: "running" },
      });
      return {
        order: now.order,
        invoiceNo: now.invoiceNo,
        customer: now.customer,
        products: now.products,
      };
    });
    if (!invoiced) return { skipped: true };
    const plan = creditPlan(invoiced.order, refund, invoiced.products, mapping);
    this.current = "plan";
    const unexplained = roundingProblem(plan, invoiced.order.currency);
    if (unexplained) return this.refuse(unexplained);
    const ref = reference(this.p.source, "r", `${this.p.orderId}:${refundId}`);
    const salesOrder = await this.#salesOrder("credit note order", invoiced.order, plan, mapping, {
      customerId: invoiced.customer.id,
      ref,
      relatedInvoiceNo: invoiced.invoiceNo,
      cancellable: false,
    });
    if (!salesOrder || salesOrder.kind === "gone")
      throw new NonRetryableError("The credit note order could not be created.");
    const delivered = await this.#deliver(
      salesOrder,
      mapping,
      invoiced.order.buyer.email,
      (d) => ({
        refund: { creditNoteNo: d.invoiceNo, state: "credited" },
        order: { state: "credited" },
      }),
      false,
    );
    if (!delivered) throw new NonRetryableError("The credit note was not sent.");
    if (mapping.settle)
      await this.#settle(
        "settle refund",
        invoiced.order,
        delivered,
        -refund.total,
        invoiced.customer.subledgerAccountId,
        mapping,
        reference(this.p.source, "rp", `${this.p.orderId}:${refundId}`),
        (settlement) => ({ refund: { settlement } }),
      );
    return { creditNoteNo: delivered.InvoiceNo };
  }

  /**
   * A cancelled order's later attempt first deletes any draft an earlier one left, so "cancelled"
   * is never reported while a draft is in the books; answers whether an invoice was sent before.
   */
  async #invoicedBeforeCancel(order: Order): Promise<boolean> {
    const ref = reference(order.source, "o", order.id);
    const invoiced = await this.apiStep(
      "withdraw",
      (api) => withdrawOrder(api, ref),
      (w) => (w ? { ...w } : { withdrawn: true }),
      (w) => (w ? { order: { invoiceNo: w.invoiceNo, state: "invoiced" } } : {}),
    );
    return invoiced !== null;
  }

  /** Customer, products and sales order; with `recall`, ids may come from the tenant's memory. */
  async #parties(order: Order, mapping: OrderMapping, needsRounding: boolean, recall: boolean) {
    const again = recall ? "" : " (looked up again)";
    const memory = runMemory(this.port, recall);
    const customer = await this.apiStep(
      `customer${again}`,
      (api) => findOrCreateCustomer(api, order, mapping, memory),
      (c) => ({ ...c }),
      (c) => ({ order: { state: "running", customer: c } }),
    );
    const chosen = await this.apiStep(
      `products${again}`,
      (api) => chooseProducts(api, order, mapping, needsRounding, memory),
      (c) => ({ created: c.created, notes: c.notes, remembered: c.remembered }),
      (c) => ({ order: { products: c.products } }),
    );
    const plan = invoicePlan(order, chosen.products, mapping);
    const recalled = {
      remembered: { customer: customer.remembered, products: chosen.remembered },
      memory,
    };
    return {
      customer,
      salesOrder: await this.#salesOrder(`sales order${again}`, order, plan, mapping, {
        customerId: customer.id,
        ref: reference(order.source, "o", order.id),
        recalled,
      }),
    };
  }

  /** Creates (or finds) the sales order; null when the order was cancelled first. */
  async #salesOrder(
    name: string,
    order: Order,
    plan: LinePlan,
    mapping: OrderMapping,
    o: SalesOrderOptions,
  ): Promise<SalesOrderRef | Gone | null> {
    const { customerId, ref, relatedInvoiceNo, cancellable = true } = o;
    const result = await this.apiStep(
      name,
      async (api, attempt) => {
        // An earlier attempt may have created the draft and not lived to report it.
        if (cancellable && (await this.cancelled()))
          return attempt > 1 || this.runAttempt > 1 ? withdrawOrder(api, ref) : null;
        // A credit note's products were settled by the invoice's run; only rounding may be new.
        if (relatedInvoiceNo !== undefined && plan.rounding !== 0)
          await ensureRoundingProduct(api, mapping);
        return createSalesOrder(
          api,
          {
            customerId,
            reference: ref,
            currency: order.currency,
            date: order.placedAt.slice(0, 10),
            customerReference: order.number,
            relatedInvoiceNo,
          },
          plan,
          mapping,
          o.recalled,
        );
      },
      (s) =>
        s === null
          ? { cancelled: true }
          : s.kind === "order"
            ? {
                ...s,
                total: formatMinor(s.total),
                roundingAdded: formatMinor(s.roundingAdded),
                expectedTotal: formatMinor(plan.total),
              }
            : { ...s },
      (s) =>
        s?.kind === "order" && relatedInvoiceNo === undefined
          ? { order: { salesOrderId: s.id, salesOrderNo: s.number } }
          : {},
    );
    return result;
  }

  /**
   * Sends (unless sentState shows it sent) and polls until delivered; null if cancelled first.
   * Answers the invoice's ids, as far as the run knows them.
   */
  async #deliver(
    so: SalesOrderRef,
    mapping: OrderMapping,
    email: string | null,
    done: (d: { invoiceNo: number }) => RunPatch,
    cancellable = true,
  ): Promise<InvoiceIds | null> {
    if (so.kind === "invoiced") {
      await this.record("invoice found", done({ invoiceNo: so.invoiceNo }));
      return { InvoiceNo: so.invoiceNo, SalesOrderId: null, InvoiceId: so.invoiceId };
    }
    // The step that sees the invoice delivered reports and announces it, inside that step.
    const delivered = (d: Delivery | { state: "cancelled" }): RunPatch =>
      d.state === "sent" ? done({ invoiceNo: d.invoiceNo }) : {};
    const sent = (d: Delivery | { state: "cancelled" }, at: number) =>
      d.state === "sent"
        ? sentDrafts(
            {
              InvoiceNo: d.invoiceNo,
              SalesOrderId: so.id,
              InvoiceId: null,
              SentDateTimeOffset: d.sentAt,
              InvoiceDeliveryType: d.deliveryType,
            },
            at,
          )
        : [];
    let state: Delivery | { state: "cancelled" } = await this.apiStep(
      "send invoice",
      async (api, attempt): Promise<Delivery | { state: "cancelled" }> => {
        if (cancellable && (await this.cancelled()) && (await sentState(api, so.id)) === null) {
          // Not sent yet: nothing of a cancelled order stays in the books.
          await deleteDraft(api, so.id);
          return { state: "cancelled" };
        }
        return sendInvoice(api, so.id, mapping, email, attempt > 1 || this.runAttempt > 1);
      },
      (d) => ({ ...d }),
      delivered,
      sent,
    );
    if (state.state === "cancelled") return null;
    for (const [i, wait] of POLL_WAITS_S.entries()) {
      if (state.state !== "processing") break;
      await this.step.sleep(`wait for delivery ${i + 1}`, `${wait} seconds`);
      // An order's check is shared with its tenant's other runs on the way; a credit note's is not.
      state = await this.sharedStep(
        `delivery ${i + 1}`,
        (_attempt, api) =>
          this.port.delivery(this.runRef(api), so.id, !cancellable || !mapping.shareCalls),
        (d) =>
          d ?? { state: "failed" as const, error: "The API has no send request for this order." },
        (d) => ({ ...d }),
        delivered,
        sent,
      );
    }
    if (state.state === "processing")
      throw new RunError("The invoice was still being processed after 20 minutes.", false);
    if (state.state === "failed")
      throw new RunError(`The invoice could not be delivered: ${state.error}`, false);
    return { InvoiceNo: state.invoiceNo, SalesOrderId: so.id, InvoiceId: null };
  }

  /**
   * Settles to the clearing account of the order's provider (`clearingOf`) and reports where and when, for the payout to credit it; its
   * `outgoing_invoice.paid` is made from what the run knows, with no read after the voucher. An
   * order's settlement goes into one voucher with its tenant's other runs on the way; a refund's,
   * or one that may follow an earlier attempt's lone post, is posted alone.
   */
  async #settle(
    name: string,
    order: Order,
    invoice: InvoiceIds,
    amount: number,
    customerAccountId: number,
    mapping: OrderMapping,
    ref: string,
    after: (settlement: Settlement) => RunPatch,
  ): Promise<void> {
    const { accountNo, provider } = clearingOf(mapping, order);
    const paid = (order.paidAt ?? order.placedAt).slice(0, 10);
    const date = amount < 0 ? new Date().toISOString().slice(0, 10) : paid;
    await this.sharedStep(
      name,
      async (attempt, api) =>
        this.port.settle(
          this.runRef(api),
          {
            reference: ref,
            invoiceNo: invoice.InvoiceNo,
            amount,
            currency: order.currency,
            date,
            ...(await knownSettlementIds(api, runMemory(this.port), accountNo)),
            customerAccountId,
            description: `${order.source} ${order.number}`,
          },
          amount < 0 || !mapping.shareCalls || attempt > 1 || this.runAttempt > 1,
        ),
      (posted) => ({ ...posted, accountNo, date, provider }),
      (r) => ({
        posted: r.posted,
        accountNo: r.accountNo,
        provider: r.provider,
        date: r.date,
        invoiceNo: invoice.InvoiceNo,
        amount: formatMinor(amount),
      }),
      (r) => after({ accountNo: r.accountNo, date: r.date, provider: r.provider }),
      (_r, at) => settledDrafts({ ...invoice, total: amount, currency: order.currency }, at),
    );
  }
}
