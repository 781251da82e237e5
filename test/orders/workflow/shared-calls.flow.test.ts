/**
 * Runs of one tenant share their calls: one `sentState` read for their delivery checks and one bank
 * voucher for their settlements, each run still telling its own steps. Exactly once holds: a
 * voucher whose answer was lost is sent again as it was, and a voucher the API refuses is split so
 * that its one bad line fails only its own run.
 */
import { env } from "cloudflare:workers";
import { introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { corpus } from "../../fixtures/orders/shopify";
import { ADMIN, control, gw, stats } from "../../helpers/gateway";

/** A row of the tenant's request log, as the test reads it. */
interface Logged {
  method: string;
  path: string;
  apiStatus: number | null;
  caller: { kind: string; id: string | null; served?: string[] };
}
import { shopTenant, waitFor, type Run, type ShopTenant } from "../../helpers/orders";
import { signIn } from "../../helpers/console";

const workflow = env.ORDER_TO_INVOICE;
const base = corpus().find((c) => c.currency === "NOK");
if (!base) throw new Error("the Shopify corpus has no NOK order");
const template = base.payload;

/** `n` orders of the corpus's NOK order, each its own order id and number. */
function orders(n: number, first = 1): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    ...template,
    id: Number(template.id) * 100 + first + i,
    name: `#S${first + i}`,
    order_number: 5000 + first + i,
  }));
}

/** Sends `payloads` at once and waits for each run to end. */
async function runAll(t: ShopTenant, payloads: Record<string, unknown>[]): Promise<Run[]> {
  const answers = await Promise.all(payloads.map((p) => t.send("shopify", p)));
  expect(answers.map((a) => a.status)).toEqual(payloads.map(() => 202));
  return Promise.all(
    payloads.map((p) => waitFor(t, "shopify", String(p.id), ["settled", "failed"])),
  );
}

const step = (run: Run, name: string) => run.steps.find((s) => s.name === name);

/** Every outgoing invoice of `t` with its balance, by invoice number. */
async function balances(t: ShopTenant): Promise<Map<number, number>> {
  const rows = await t.rows("/OutgoingInvoices");
  return new Map(rows.map((r) => [Number(r.InvoiceNo), Number(r.Balance)]));
}

describe("runs of one tenant share their calls", () => {
  it("ten paid orders at once: one voucher settles all ten invoices, and each run tells its own steps", async () => {
    const t = await shopTenant();
    const s0 = await stats();
    const payloads = orders(10);
    const ids = payloads.map((p) => p.id);
    const runs = await runAll(t, payloads);
    const s1 = await stats();
    for (const run of runs) expect(run.state, JSON.stringify(run.error)).toBe("settled");
    const settles = runs.map((r) => step(r, "settle")?.result);
    const vouchers = new Set(settles.map((r) => r?.voucher));
    expect(vouchers.size).toBe(1);
    expect([...vouchers][0]).toMatch(/^lg:batch:[0-9a-f]{16}$/);
    expect(settles.map((r) => r?.sharedBy)).toEqual(runs.map(() => 10));
    expect(settles.map((r) => r?.posted).filter(Boolean)).toHaveLength(10);
    // Every invoice paid exactly: settled once, not twice.
    const paid = await balances(t);
    expect(paid.size).toBe(10);
    for (const run of runs) expect(paid.get(Number(run.invoiceNo))).toBe(0);
    // Each run's own story: its steps, its share of the voucher's one call.
    for (const run of runs) {
      expect(run.steps.map((s) => s.name)).toEqual(
        expect.arrayContaining(["sales order", "send invoice", "delivery 1", "settle"]),
      );
      // A tenth of the voucher, after the settlement account's lookups (a new tenant's first runs).
      expect(Number(step(run, "settle")?.result.upstreamCalls) % 1).toBeCloseTo(0.1, 5);
    }
    // The first order of new buyers: customer, products and sales order per order, then the shared
    // calls. Fewer than ten reads and ten vouchers.
    const perRun = runs.map((r) => r.steps.reduce((n, s) => n + Number(s.result.upstreamCalls), 0));
    const sum = perRun.reduce((a, b) => a + b, 0);
    expect(s1.requests - s0.requests).toBeGreaterThanOrEqual(Math.round(sum));
    const reads = runs.map((r) => step(r, "delivery 1")?.result.sharedBy ?? 1);
    expect(reads.some((n) => Number(n) > 1)).toBe(true);
    // The log names the runs the shared voucher served: the ten runs' instance ids.
    const logged = await gw(`/admin/tenants/${t.environment}/${t.client}/requests?limit=200`, {
      headers: ADMIN,
    });
    const voucherRows = ((await logged.json()) as { requests: Logged[] }).requests.filter(
      (r) => r.path === "/Vouchers/BankJournals",
    );
    expect(voucherRows).toHaveLength(1);
    expect(voucherRows[0]?.caller.id).toBe(`voucher ${String([...vouchers][0])}`);
    expect(voucherRows[0]?.caller.served).toHaveLength(10);
    expect(new Set(voucherRows[0]?.caller.served).size).toBe(10);
    // The console's page of one run shows that it was settled with nine others.
    const session = await signIn();
    const page = await session.page(
      `/console/tenants/${t.environment}/${t.client}/orders/shopify/${String(ids[0])}`,
    );
    expect(page).toContain("shared by 10");
  });

  it("a voucher dropped on the way there, then one whose answer is lost: sent again as it was, every invoice settled once", async () => {
    const t = await shopTenant();
    await using introspector = await introspectWorkflow(workflow);
    await introspector.modifyAll(async (m) => m.disableRetryDelays());
    await control("PUT", "/settings", {
      faults: [
        { kind: "drop", target: "api", path: "/Vouchers/BankJournals", count: 1 },
        {
          kind: "drop",
          afterHandling: true,
          target: "api",
          path: "/Vouchers/BankJournals",
          count: 1,
        },
      ],
    });
    try {
      const runs = await runAll(t, orders(4));
      for (const run of runs) expect(run.state, JSON.stringify(run.error)).toBe("settled");
      const vouchers = new Set(runs.map((r) => step(r, "settle")?.result.voucher));
      expect(vouchers.size).toBe(1);
      // The third send met the reference the lost answer's send had taken: posted by then.
      expect(runs.map((r) => step(r, "settle")?.result.posted)).toEqual(runs.map(() => false));
      const paid = await balances(t);
      expect(paid.size).toBe(4);
      for (const run of runs) expect(paid.get(Number(run.invoiceNo))).toBe(0);
    } finally {
      await control("PUT", "/settings", { faults: [] });
    }
  });

  it("one line the API refuses (an order paid in a locked year) fails only its own run: the voucher is split, the others settled", async () => {
    const t = await shopTenant();
    const lastYear = `${new Date().getUTCFullYear() - 1}-06-15T10:00:00+02:00`;
    const [old, ...rest] = orders(5);
    const locked = { ...old, created_at: lastYear, processed_at: lastYear, updated_at: lastYear };
    const runs = await runAll(t, [locked, ...rest]);
    const [bad, ...good] = runs;
    expect(bad?.state).toBe("failed");
    expect(bad?.error).toMatchObject({ step: "settle", detail: expect.stringContaining("locked") });
    for (const run of good) expect(run.state, JSON.stringify(run.error)).toBe("settled");
    const paid = await balances(t);
    for (const run of good) expect(paid.get(Number(run.invoiceNo))).toBe(0);
    // The locked order's invoice stays open: nothing of its settlement was posted.
    expect(paid.get(Number(bad?.invoiceNo))).toBeGreaterThan(0);
    // Each good line was posted alone after the split, under its run's own reference: the log
    // holds the shared voucher's refusal, then one post per run.
    for (const run of good) expect(step(run, "settle")?.result).not.toHaveProperty("voucher");
    const res = await gw(`/admin/tenants/${t.environment}/${t.client}/requests?limit=200`, {
      headers: ADMIN,
    });
    const posts = ((await res.json()) as { requests: Logged[] }).requests.filter(
      (r) => r.method === "POST" && r.path === "/Vouchers/BankJournals",
    );
    const shared = posts.filter((r) => r.caller.id?.startsWith("voucher lg:batch:"));
    expect(shared.map((r) => r.apiStatus)).toEqual([400]);
    expect(
      posts
        .filter((r) => !shared.includes(r))
        .map((r) => r.apiStatus)
        .sort(),
    ).toEqual([201, 201, 201, 201, 400]);
  });
});
