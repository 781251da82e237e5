/**
 * @module
 * `customer_open_invoices` and `invoice_with_payments`: the ledger questions asked most, each from
 * two calls at once (docs/mcp.md, "Composite tools"), so the model does neither the round trips
 * nor the arithmetic where it errs most.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/server";
import { guarded, type ToolContext, type ToolStep } from "../audit";
import { structured, ToolRefusal } from "../results";
import {
  COMPOSITE_ROWS,
  day,
  DAY_MS,
  invoice,
  Invoice,
  Money,
  money,
  num,
  rows,
  str,
  sum,
  today,
} from "./ledger-kit";
import { READ_HINTS } from "./shapes";

const CustomerAnswer = z.strictObject({
  customer: z.strictObject({
    id: z.int(),
    number: z.int().nullable(),
    name: z.string().nullable(),
    emailAddress: z.string().nullable(),
  }),
  openInvoices: z.array(Invoice),
  owed: z.array(Money).describe("The open invoices' balances summed, one per currency."),
  complete: z.boolean().describe("false: more open invoices than listed (see note)."),
  note: z.string(),
});

async function customerOpenInvoices(tc: ToolContext, customerNo: number, step: ToolStep) {
  step.operation = "GET /OutgoingInvoices";
  const found = await rows(tc, step, "/Customers", { customerNos: String(customerNo) });
  const c = found.list[0];
  if (!c) throw new ToolRefusal(`No customer has number ${customerNo}.`);
  const open = await rows(tc, step, "/OutgoingInvoices", {
    customerNos: String(customerNo),
    onlyUnpaidInvoices: "true",
  });
  const invoices = open.list.map(invoice);
  const currencies = [...new Set(invoices.map((i) => i.balance.currency))];
  const complete = open.total <= invoices.length;
  return structured({
    customer: {
      id: num(c.Id) ?? 0,
      number: num(c.Number),
      name: str(c.Name),
      emailAddress: str(c.EmailAddress),
    },
    openInvoices: invoices,
    owed: currencies.map((cur) =>
      money(
        sum(invoices.filter((i) => i.balance.currency === cur).map((i) => i.balance.amount)),
        cur,
      ),
    ),
    complete,
    note: complete
      ? `${invoices.length} open invoice${invoices.length === 1 ? "" : "s"}, as of ${today()}.`
      : `The first ${invoices.length} of ${open.total} open invoices, and their sum: read GET /OutgoingInvoices with customerNos and onlyUnpaidInvoices for the rest.`,
  });
}

const Payment = z.strictObject({
  date: z.string().nullable(),
  voucherNo: z.int().nullable(),
  voucherType: z.string().nullable(),
  amount: Money,
});
const InvoiceAnswer = z.strictObject({
  invoice: Invoice.extend({ customerNo: z.int().nullable(), reversed: z.boolean() }),
  state: z.enum(["paid", "partly paid", "unpaid", "overpaid", "reversed"]),
  sent: z.boolean(),
  payments: z.array(Payment).describe("Entries of the customer's ledger settling the invoice."),
  paid: Money,
  note: z.string(),
});

/** How far from the invoice's date (before) and today (after) payments are looked for, days. */
const PAYMENT_WINDOW_DAYS = 366;

async function invoiceWithPayments(tc: ToolContext, invoiceNo: number, step: ToolStep) {
  step.operation = "GET /OutgoingInvoices";
  const found = await rows(tc, step, "/OutgoingInvoices", { invoiceNos: String(invoiceNo) });
  const r = found.list[0];
  if (!r) throw new ToolRefusal(`No outgoing invoice has number ${invoiceNo}.`);
  const inv = invoice(r);
  const customerNo = num(r.CustomerNo);
  // A payment may be booked before its invoice (paid at checkout), or ahead (a bank file).
  const shift = (date: string, days: number) =>
    new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);
  const from = shift(inv.invoiceDate ?? today(), -PAYMENT_WINDOW_DAYS);
  const to = shift(today(), PAYMENT_WINDOW_DAYS);
  const entries =
    customerNo === null
      ? []
      : (
          await rows(tc, step, "/Customerledger/Statement", {
            fromDate: from,
            toDate: to,
            customerNos: String(customerNo),
            invoiceNos: String(invoiceNo),
          })
        ).list;
  const currency = inv.balance.currency;
  const field = currency === "NOK" ? "Amount" : "CurrencyAmount";
  const payments = entries
    .filter((e) => num(e.VoucherNo) !== num(r.VoucherNo))
    .map((e) => ({
      date: day(e.PostingDate) ?? day(e.VoucherDate),
      voucherNo: num(e.VoucherNo),
      voucherType: str(e.VoucherType),
      amount: money(-(num(e[field]) ?? 0), currency),
    }));
  const paid = sum(payments.map((p) => p.amount.amount));
  const total = inv.total?.amount ?? null;
  const balance = inv.balance.amount;
  const reversed = r.IsReversed === true;
  const state = reversed
    ? "reversed"
    : balance === 0
      ? "paid"
      : total !== null &&
          Math.abs(balance) < Math.abs(total) &&
          Math.sign(balance) === Math.sign(total)
        ? "partly paid"
        : total !== null && Math.sign(balance) !== Math.sign(total)
          ? "overpaid"
          : "unpaid";
  return structured({
    invoice: { ...inv, customerNo, reversed },
    state,
    sent: inv.sentAt !== null,
    payments,
    paid: money(paid, currency),
    note:
      customerNo === null
        ? "The invoice names no customer number, so its payments could not be looked up."
        : `${payments.length} payment${payments.length === 1 ? "" : "s"} found in the customer's ledger.`,
  });
}

export function registerCompositeTools(server: McpServer, tc: ToolContext): void {
  server.registerTool(
    "customer_open_invoices",
    {
      title: "A customer's open invoices and what it owes",
      description: `One customer (by customer number) with its unpaid invoices (at most ${COMPOSITE_ROWS}), each with its balance and days overdue, and the sum owed per currency. Two calls to the API.`,
      inputSchema: z.object({ customerNo: z.int().positive().describe("The customer's number.") }),
      outputSchema: CustomerAnswer,
      annotations: READ_HINTS,
    },
    ({ customerNo }) =>
      guarded(tc, "customer_open_invoices", (step) => customerOpenInvoices(tc, customerNo, step)),
  );
  server.registerTool(
    "invoice_with_payments",
    {
      title: "An invoice's state with its payments",
      description:
        "One outgoing invoice (by invoice number): whether it was sent, its balance, paid / partly paid / unpaid / reversed, days overdue, and each payment settling it from the customer's ledger. Two calls to the API.",
      inputSchema: z.object({ invoiceNo: z.int().positive().describe("The invoice's number.") }),
      outputSchema: InvoiceAnswer,
      annotations: READ_HINTS,
    },
    ({ invoiceNo }) =>
      guarded(tc, "invoice_with_payments", (step) => invoiceWithPayments(tc, invoiceNo, step)),
  );
}
