/** @module How the console shows an order's run, as plain values. */
import type { OrderRunView } from "../orders/run-view";

type Step = OrderRunView["steps"][number];

export interface Attempt {
  attempt: number;
  steps: Step[];
}

/**
 * The steps grouped by attempt: each attempt reports every step from the start, so a step name
 * seen again begins the next. The last group is the current `attempt`.
 */
export function attemptsOf(steps: Step[], attempt: number): Attempt[] {
  const groups: Step[][] = [];
  let seen = new Set<string>();
  for (const s of steps) {
    if (groups.length === 0 || seen.has(s.name)) {
      groups.push([]);
      seen = new Set();
    }
    seen.add(s.name);
    groups[groups.length - 1]?.push(s);
  }
  const first = Math.max(1, attempt - groups.length + 1);
  return groups.map((g, i) => ({ attempt: first + i, steps: g }));
}

/** An error without a leading exception class (`NonRetryableError: `), which says nothing. */
export function plainError(detail: string): string {
  return detail.replace(/^(?:[A-Z][A-Za-z]*(?:Error|Exception):\s*)+/, "");
}

const words = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();

/** What a step found or did, as `customer id 12; invoice no 10001` (its calls shown apart). */
export function stepResult(s: Step): string {
  const parts = Object.entries(s.result)
    .filter(([k, v]) => k !== "upstreamCalls" && v !== null && v !== "")
    .map(([k, v]) => `${words(k)} ${Array.isArray(v) ? v.join(", ") : String(v)}`);
  return parts.length > 0 ? parts.join("; ") : s.ok ? "done" : "failed";
}

/** The order's number as the shop shows it, with its leading hash; a dash before one is known. */
export function orderNumber(number: string | null): string {
  if (!number) return "–";
  return number.startsWith("#") ? number : `#${number}`;
}

/** Whether the run or a refund is still under way, so its page refreshes itself. */
export function underWay(r: OrderRunView): boolean {
  const moving = (s: string) => s === "received" || s === "running";
  return moving(r.state) || r.refunds.some((x) => moving(x.state));
}
