/**
 * @module
 * What the watcher polls (pure: no I/O). Four polls, each one list operation of the API with a
 * change filter (docs/events.md, "The watcher"), and only those some enabled endpoint of the
 * tenant takes an event type of:
 *
 * | poll               | call                                                          | events
 *                                           | | ------------------ |
 *   ------------------------------------------------------------- | ---------------------------------------------------- |
 * | `customers`        | `GET /Customers?lastChangedDateTimeOffsetGreaterThan=`        |
 * `customer.created`, `customer.updated`               | | `products`         | `GET
 * /Products?lastChangedDateTimeOffsetGreaterThan=`         | `product.created`, `product.updated`
 *               | | `invoice-balances` | `GET
 *   /OutgoingInvoices?balanceLastChangedDateTimeOffsetGreaterThan=` | `outgoing_invoice.paid`, `.balance_changed`   | | `invoices-sent`    | `GET /OutgoingInvoices?sentDateTimeOffsetGreaterThan=`        | `outgoing_invoice.created`, `.sent`                  |
 *
 * A tenant that takes only `customer.created` (or `product.created`) is polled with the creation
 * filter instead (`customerCreatedDateTimeOffsetGreaterThan`, `createdDateTimeOffsetGreaterThan`):
 * the same one call, a smaller answer. Each poll is one call a cycle while nothing changed (the
 * API answers `204`), more when a page is full.
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
  /** The event types the poll can find. */
  types: readonly string[];
}

/** The four polls. */
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

/** A poll the watcher runs, and with which filter. */
export interface PlannedPoll {
  poll: PollName;
  mode: PollMode;
}

/**
 * The polls for endpoints that take `types` (the union of every enabled endpoint's, `"*"` for
 * all): a poll for each resource some type of it is wanted for; the creation filter where only
 * creations are wanted and the poll has one.
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

/** The filter of a planned poll. */
export function filterOf(p: PlannedPoll): { param: string; field: string } {
  const spec = POLLS[p.poll];
  const f = spec.filters[p.mode] ?? spec.filters.changed;
  if (!f) throw new Error(`poll ${p.poll} has no filter`);
  return f;
}
