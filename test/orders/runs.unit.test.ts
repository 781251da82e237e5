import { describe, expect, it } from "vitest";
import type { Refund } from "../../src/orders/order";
import { coffeeOrder } from "../fixtures/orders/coffee";
import {
  applyEvent,
  OrderRun,
  pendingStarts,
  runInstanceId,
  type RunParams,
} from "../../src/orders/runs";
import { OrderRunView, publicView } from "../../src/orders/run-view";

const AT = "2026-03-01T10:00:00.000Z";
const LATER = "2026-03-01T10:05:00.000Z";

const order = (id = "1001", total = 12_500) => coffeeOrder(id, { total, email: "kari@example.no" });
const refund = (id: string, total = 2_500): Refund => ({ id, at: LATER, lines: [], total });

const paid = (o = order()) => ({ kind: "paid" as const, order: o });
const cancelled = (orderId = "1001", at = LATER) => ({ kind: "cancelled" as const, orderId, at });
const refunded = (id: string, orderId = "1001") => ({
  kind: "refunded" as const,
  orderId,
  refund: refund(id),
});

/** A run of order 1001 that has been paid, in `state`, with its instance started or not. */
function paidRun(state: OrderRun["state"], started: boolean): OrderRun {
  return { ...applyEvent(null, "shopify", paid(), AT).run, state, started };
}

describe("runs: applyEvent", () => {
  it("paid on a new order records it as received, to be started, and the record passes its schema", () => {
    const { run, intake } = applyEvent(null, "shopify", paid(), AT);
    expect(intake).toBe("started");
    expect(run).toMatchObject({
      source: "shopify",
      orderId: "1001",
      state: "received",
      receivedAt: AT,
      updatedAt: AT,
      deliveries: 1,
      attempt: 1,
      started: false,
      cancelledAt: null,
      refunds: [],
    });
    expect(run.order?.total).toBe(12_500);
    expect(OrderRun.safeParse(run).success).toBe(true);
  });

  it("a second paid is a duplicate: counted, but the first order stays", () => {
    const first = applyEvent(null, "shopify", paid(), AT).run;
    const { run, intake } = applyEvent(first, "shopify", paid(order("1001", 99)), LATER);
    expect(intake).toBe("duplicate");
    expect(run.deliveries).toBe(2);
    expect(run.updatedAt).toBe(LATER);
    expect(run.order?.total).toBe(12_500);
  });

  it("does not change the record it was given", () => {
    const first = applyEvent(null, "shopify", paid(), AT).run;
    const snapshot = structuredClone(first);
    applyEvent(first, "shopify", refunded("r1"), LATER);
    applyEvent(first, "shopify", cancelled(), LATER);
    expect(first).toEqual(snapshot);
  });

  it("cancelled before the run started cancels the order, and nothing is left to start", () => {
    const { run, intake } = applyEvent(paidRun("received", false), "shopify", cancelled(), LATER);
    expect(intake).toBe("cancelled");
    expect(run.state).toBe("cancelled");
    expect(run.cancelledAt).toBe(LATER);
    expect(pendingStarts(run)).toEqual([]);
  });

  it("cancelled before paid: the later paid is a duplicate and starts nothing", () => {
    const c = applyEvent(null, "shopify", cancelled(), AT);
    expect(c.intake).toBe("cancelled");
    expect(c.run).toMatchObject({ state: "cancelled", order: null, cancelledAt: LATER });
    const p = applyEvent(c.run, "shopify", paid(), LATER);
    expect(p.intake).toBe("duplicate");
    expect(p.run.state).toBe("cancelled");
    expect(p.run.order?.id).toBe("1001");
    expect(pendingStarts(p.run)).toEqual([]);
  });

  it("cancelled after the run started leaves it running (it stops at its next checkpoint)", () => {
    for (const [state, started] of [
      ["running", true],
      ["received", true],
      ["invoiced", true],
    ] as const) {
      const { run, intake } = applyEvent(paidRun(state, started), "shopify", cancelled(), LATER);
      expect(intake).toBe("cancelled");
      expect(run.state, state).toBe(state);
      expect(run.cancelledAt).toBe(LATER);
    }
  });

  it("cancelled after a failure before the invoice: a new attempt withdraws what the failed one may have left", () => {
    const { run } = applyEvent(
      {
        ...paidRun("failed", true),
        salesOrderId: "so-1",
        error: { step: "send invoice", detail: "x" },
      },
      "shopify",
      cancelled(),
      LATER,
    );
    expect(run).toMatchObject({
      state: "received",
      attempt: 2,
      started: false,
      error: null,
      cancelledAt: LATER,
    });
    expect(pendingStarts(run)).toEqual([{ refundId: null, attempt: 2 }]);
    // Invoiced before it failed: the invoice stands (the shop's refund credits it), the state too.
    expect(
      applyEvent({ ...paidRun("failed", true), invoiceNo: 7 }, "shopify", cancelled(), LATER).run,
    ).toMatchObject({ state: "failed", attempt: 1 });
  });

  it("an unusable order is recorded as a failed run; the same order sent usable later starts it", () => {
    const unusable = {
      kind: "unusable" as const,
      orderId: "1001",
      reason: "Order #1001 cannot be invoiced as the shop sent it: line_items.0: no tax",
    };
    const first = applyEvent(null, "shopify", unusable, AT);
    expect(first.intake).toBe("failed");
    expect(first.run).toMatchObject({
      state: "failed",
      order: null,
      error: { step: "intake", detail: unusable.reason },
    });
    expect(pendingStarts(first.run)).toEqual([]);
    expect(OrderRun.safeParse(first.run).success).toBe(true);
    const fixed = applyEvent(first.run, "shopify", paid(), LATER);
    expect(fixed).toMatchObject({ intake: "started", run: { state: "received", error: null } });
    expect(pendingStarts(fixed.run)).toEqual([{ refundId: null, attempt: 1 }]);
    // Once an order is recorded, an unusable copy of it changes nothing.
    expect(applyEvent(fixed.run, "shopify", unusable, LATER)).toMatchObject({
      intake: "duplicate",
      run: { state: "received" },
    });
    // Cancelled: nothing was written, so it simply stops.
    expect(applyEvent(first.run, "shopify", cancelled(), LATER).run.state).toBe("cancelled");
  });

  it("a second cancellation is a duplicate and keeps the first time", () => {
    const once = applyEvent(paidRun("running", true), "shopify", cancelled("1001", AT), AT).run;
    const { run, intake } = applyEvent(once, "shopify", cancelled("1001", LATER), LATER);
    expect(intake).toBe("duplicate");
    expect(run.cancelledAt).toBe(AT);
  });

  it("a refund is added as received and to be started; the same refund again is a duplicate", () => {
    const base = paidRun("invoiced", true);
    const { run, intake } = applyEvent(base, "shopify", refunded("r1"), LATER);
    expect(intake).toBe("started");
    expect(run.refunds).toEqual([
      {
        refund: refund("r1"),
        state: "received",
        creditNoteNo: null,
        steps: [],
        error: null,
        attempt: 1,
        started: false,
        settlement: null,
      },
    ]);
    expect(run.state).toBe("invoiced");
    const again = applyEvent(run, "shopify", refunded("r1"), LATER);
    expect(again.intake).toBe("duplicate");
    expect(again.run.refunds).toHaveLength(1);
    expect(
      applyEvent(run, "shopify", refunded("r2"), LATER).run.refunds.map((x) => x.refund.id),
    ).toEqual(["r1", "r2"]);
  });
});

describe("runs: pendingStarts", () => {
  it("lists the order's own run while it is received and not started", () => {
    expect(pendingStarts(paidRun("received", false))).toEqual([{ refundId: null, attempt: 1 }]);
    expect(pendingStarts({ ...paidRun("received", false), attempt: 3 })).toEqual([
      { refundId: null, attempt: 3 },
    ]);
    expect(pendingStarts(paidRun("received", true))).toEqual([]);
    expect(pendingStarts(paidRun("running", false))).toEqual([]);
  });

  it("lists refunds received and not started, each with its attempt", () => {
    let run = paidRun("invoiced", true);
    for (const id of ["r1", "r2", "r3"]) run = applyEvent(run, "shopify", refunded(id), LATER).run;
    run.refunds = run.refunds.map((x) =>
      x.refund.id === "r1"
        ? { ...x, started: true }
        : x.refund.id === "r3"
          ? { ...x, state: "skipped" }
          : { ...x, attempt: 2 },
    );
    expect(pendingStarts(run)).toEqual([{ refundId: "r2", attempt: 2 }]);
  });

  it("holds a refund back until its order has an invoice: while the order runs, and while it has failed before one", () => {
    const failed = applyEvent(paidRun("failed", true), "shopify", refunded("r1"), LATER).run;
    expect(failed.refunds[0]?.state).toBe("received");
    expect(pendingStarts(failed)).toEqual([]);
    // The order's retry starts the order alone; the report of its invoice then starts the refund.
    expect(pendingStarts({ ...failed, state: "received", started: false, attempt: 2 })).toEqual([
      { refundId: null, attempt: 2 },
    ]);
    expect(pendingStarts({ ...failed, state: "running" })).toEqual([]);
    expect(pendingStarts({ ...failed, state: "invoiced", invoiceNo: 7 })).toEqual([
      { refundId: "r1", attempt: 1 },
    ]);
    // Failed after its invoice (in settle), or cancelled before one: the refund's run credits, or
    // skips.
    expect(pendingStarts({ ...failed, invoiceNo: 7 })).toEqual([{ refundId: "r1", attempt: 1 }]);
    expect(pendingStarts({ ...failed, state: "cancelled" })).toEqual([
      { refundId: "r1", attempt: 1 },
    ]);
  });

  it("lists just the refund for a refund-only record (no order yet)", () => {
    const { run } = applyEvent(null, "shopify", refunded("r1"), AT);
    expect(pendingStarts(run)).toEqual([{ refundId: "r1", attempt: 1 }]);
  });
});

describe("runs: publicView", () => {
  it("shows amounts as decimals and no buyer or lines", () => {
    const run = applyEvent(paidRun("invoiced", true), "shopify", refunded("r1"), LATER).run;
    const view = publicView(run);
    expect(view).toMatchObject({
      number: "#1001",
      total: "125.00",
      currency: "NOK",
      refunds: [{ id: "r1", total: "25.00", state: "received" }],
    });
    expect(JSON.stringify(view)).not.toContain("kari@example.no");
    expect(JSON.stringify(view)).not.toContain("Kaffe");
  });

  it("holds exactly the fields of its published schema (a strict parse keeps all of it)", () => {
    const run = applyEvent(paidRun("invoiced", true), "shopify", refunded("r1"), LATER).run;
    const view = publicView(run);
    expect(OrderRunView.parse(view)).toEqual(view);
    expect(OrderRunView.safeParse({ ...view, order: run.order }).success).toBe(false);
  });
});

describe("runs: runInstanceId", () => {
  const p: RunParams = {
    tenant: "demo:acme",
    registration: "reg-1",
    source: "shopify",
    orderId: "1001",
    refundId: null,
  };

  it("is the same for the same run and attempt, so a second start is refused by the engine", async () => {
    expect(await runInstanceId(p, 1)).toBe(await runInstanceId({ ...p }, 1));
  });

  // A run started before a deploy is found by this id after it: a changed derivation would let the
  // same attempt start twice. The value is SHA-256 of the JSON array, computed outside the Worker.
  it("keeps its derivation across versions", async () => {
    expect(await runInstanceId(p, 1)).toBe("o-f23357e9867a457c45294b7c7ae7371d78fb8164-1");
  });

  it("differs per attempt, per refund, per order, per source, per tenant and per registration", async () => {
    const ids = await Promise.all([
      runInstanceId(p, 1),
      runInstanceId(p, 2),
      runInstanceId({ ...p, refundId: "r1" }, 1),
      runInstanceId({ ...p, refundId: "r2" }, 1),
      runInstanceId({ ...p, orderId: "1002" }, 1),
      runInstanceId({ ...p, source: "stripe" }, 1),
      runInstanceId({ ...p, tenant: "demo:other" }, 1),
      // The same order after the tenant was removed and registered again.
      runInstanceId({ ...p, registration: "reg-2" }, 1),
    ]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toMatch(/^o-/);
    expect(ids[2]).toMatch(/^r-/);
  });

  it("stays within 100 characters of [a-z0-9-], whatever the shop's ids hold", async () => {
    const odd: RunParams = {
      tenant: `production:${"a".repeat(63)}`,
      registration: crypto.randomUUID(),
      source: "woocommerce",
      orderId: `ordre/æøå#${"x".repeat(90)}`,
      refundId: `${"r".repeat(100)}`,
    };
    for (const id of [
      await runInstanceId(odd, 1),
      await runInstanceId(odd, 999_999),
      await runInstanceId({ ...odd, refundId: null }, 1),
    ]) {
      expect(id.length).toBeLessThanOrEqual(100);
      expect(id).toMatch(/^[a-z0-9-]+$/);
    }
  });

  it("is not confused by ids that run together ('ab'+'c' vs 'a'+'bc')", async () => {
    expect(await runInstanceId({ ...p, orderId: "ab", refundId: "c" }, 1)).not.toBe(
      await runInstanceId({ ...p, orderId: "a", refundId: "bc" }, 1),
    );
  });
});
