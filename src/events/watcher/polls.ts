/**
 * @module
 * What the watcher polls (pure): four list operations with a change filter (tabled in
 * docs/events.md, "The watcher"), only those some endpoint (enabled or not) takes a type of; the
 * creation filter where only creations are wanted (the same call, a smaller answer).
 */
import { subscribes } from "../types";

/** The polls, in the order a cycle runs them. */
export const POLL_NAMES = ["customers", "products", "invoice-balances", "invoices-sent"] as const;
export type PollName = (typeof POLL_NAMES)[number];

/** Which filter a poll uses: changes of any kind, or creations only. */
export type PollMode = "changed" | "created";

/** One list operation and its change filter. */
export interface PollSpec {
  path: string;
  /** The query parameter of each mode, and the field of the answer it filters on. */
  filters: Partial<Record<PollMode, { param: string; field: string }>>;
  types: readonly string[];
}

export const POLLS: Record<PollName, PollSpec> = {
  customers: {
    path: "/Customers",
    filters: {
      changed: {
        param: "lastChangedDateTimeOffsetGreaterThan",
        field: "LastChangedDateTimeOffset",
      },
      created: {
        param: "customerCreatedDateTimeOffsetGreaterThan",
        field: "CustomerCreatedDateTimeOffset",
      },
    },
    types: ["customer.created", "customer.updated"],
  },
  products: {
    path: "/Products",
    filters: {
      changed: {
        param: "lastChangedDateTimeOffsetGreaterThan",
        field: "LastChangedDateTimeOffset",
      },
      created: { param: "createdDateTimeOffsetGreaterThan", field: "CreatedDateTimeOffset" },
    },
    types: ["product.created", "product.updated"],
  },
  "invoice-balances": {
    path: "/OutgoingInvoices",
    filters: {
      changed: {
        param: "balanceLastChangedDateTimeOffsetGreaterThan",
        field: "BalanceLastChangedDateTimeOffset",
      },
    },
    types: ["outgoing_invoice.paid", "outgoing_invoice.balance_changed"],
  },
  "invoices-sent": {
    path: "/OutgoingInvoices",
    filters: { changed: { param: "sentDateTimeOffsetGreaterThan", field: "SentDateTimeOffset" } },
    types: ["outgoing_invoice.created", "outgoing_invoice.sent"],
  },
};

export interface PlannedPoll {
  poll: PollName;
  mode: PollMode;
}

/**
 * The polls for endpoints that take `types` (the union of every endpoint's, disabled ones too).
 *
 * @example plan(["customer.created"]) // [{ poll: "customers", mode: "created" }]
 */
export function plan(types: readonly string[]): PlannedPoll[] {
  return POLL_NAMES.flatMap((poll): PlannedPoll[] => {
    const spec = POLLS[poll];
    const wanted = spec.types.filter((t) => subscribes(types, t));
    if (wanted.length === 0) return [];
    const createdOnly = wanted.every((t) => t.endsWith(".created")) && spec.filters.created;
    return [{ poll, mode: createdOnly ? "created" : "changed" }];
  });
}

export function filterOf(p: PlannedPoll): { param: string; field: string } {
  const spec = POLLS[p.poll];
  const f = spec.filters[p.mode] ?? spec.filters.changed;
  if (!f) throw new Error(`poll ${p.poll} has no filter`);
  return f;
}
