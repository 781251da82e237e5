/**
 * @module
 * Reports computed from the postings: `AccountTransactions`, `TrialBalance`, and the customer and
 * supplier ledgers (balances, open items, entries by match id, statement).
 */
import {
  bindingProblem,
  empty,
  fail,
  listReply,
  ok,
  requiredQuery,
  type Ctx,
  type Handler,
} from "../engine/call";
import { filter, predicateOf } from "../engine/filters";
import {
  datePairProblem,
  fromOre,
  ledgerEntries,
  postingsUpTo,
  toOre,
  type SubLedger,
} from "../engine/ledger";
import { shape, type Dto } from "../engine/store";
import type { Result } from "../lib/problem";
import {
  ACCOUNT_TRANSACTION_DTO_FIELDS,
  CUSTOMER_LEDGER_ENTRY_DTO_FIELDS,
  SUPPLIER_LEDGER_ENTRY_DTO_FIELDS,
} from "./fields/ledgers";

const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);

function dateQuery(ctx: Ctx, name: string) {
  const v = requiredQuery(ctx, name);
  if (!v.ok) return v;
  const day = v.value.slice(0, 10);
  return isDate(day) ? { ok: true as const, value: day } : fail(bindingProblem(name, v.value));
}

/** The required `fromDate`–`toDate` pair, FromDate not after ToDate. */
function dateRange(ctx: Ctx): Result<{ from: string; to: string }> {
  const from = dateQuery(ctx, "fromDate");
  if (!from.ok) return from;
  const to = dateQuery(ctx, "toDate");
  if (!to.ok) return to;
  const order = datePairProblem(from.value, to.value);
  return order ? fail(order) : { ok: true, value: { from: from.value, to: to.value } };
}

const accountTransactions: Handler = (ctx) => {
  const range = dateRange(ctx);
  if (!range.ok) return range;
  const pred = predicateOf(
    [
      filter("accountNos", "AccountNo", "ranges"),
      filter("voucherNos", "VoucherNo", "ranges"),
      filter("voucherTypes", "VoucherType", "strings"),
      filter("vatCodes", "VatCode", "strings"),
      filter("createdDateTimeOffsetGreaterThan", "CreatedDateTimeOffset", "after"),
      filter("lastChangedDateTimeOffsetGreaterThan", "LastChangedDateTimeOffset", "after"),
    ],
    ctx.q,
  );
  if (!pred.ok) return pred;
  const rows = ctx.store
    .all("Posting")
    .map((r) => r.dto)
    .filter(
      (p) => String(p.PostingDate) >= range.value.from && String(p.PostingDate) <= range.value.to,
    )
    .filter(pred.value)
    .map((p) =>
      shape(ACCOUNT_TRANSACTION_DTO_FIELDS, {
        ...p,
        AgricultureDepartment: "None",
        VatReturnSpecification: "None",
      }),
    );
  return listReply(ctx, rows, ACCOUNT_TRANSACTION_DTO_FIELDS);
};

const trialBalance: Handler = (ctx) => {
  const date = dateQuery(ctx, "date");
  if (!date.ok) return date;
  const pred = predicateOf([filter("accountNos", "AccountNo", "ranges")], ctx.q);
  if (!pred.ok) return pred;
  const sums = new Map<number, number>();
  for (const p of postingsUpTo(ctx.store, date.value))
    sums.set(Number(p.AccountId), (sums.get(Number(p.AccountId)) ?? 0) + toOre(Number(p.Amount)));
  const hideZero = ctx.q.get("hideaccountswithzerobalance")?.toLowerCase() === "true";
  const rows = ctx.store
    .all("GeneralLedgerAccount")
    .map((r) => r.dto)
    .map((a) => ({
      AccountId: a.Id,
      AccountName: a.Name,
      AccountNo: a.AccountNo,
      AgricultureDepartment: a.AgricultureDepartment ?? "None",
      Balance: fromOre(sums.get(Number(a.Id)) ?? 0),
    }))
    .filter((l) => !(hideZero && l.Balance === 0))
    .filter(pred.value)
    .sort((a, b) => Number(a.AccountNo) - Number(b.AccountNo));
  return listReply(ctx, rows);
};

/** The contact-facing view of ledger entries: one kind of contact per ledger. */
function ledger(
  kind: "Customer" | "Supplier",
  key: SubLedger,
  fields: readonly string[],
): Record<string, Handler> {
  const contactOf = (ctx: Ctx, id: unknown) => ctx.store.get(kind, String(id))?.dto ?? null;
  const entryDto = (ctx: Ctx, p: Dto, balance: number): Dto => {
    const c = contactOf(ctx, p.ContactId);
    return shape(fields, {
      ...p,
      Balance: balance,
      [`${kind}Id`]: p.ContactId,
      [`${kind}AccountNo`]: c?.Number,
      [`${kind}ExternalNo`]: c?.ExternalNumber,
      [`${kind}Name`]: c?.Name,
      IsCreatedByCurrentIntegration: false,
    });
  };
  // A ledger entry's InvoiceNo is a string ("not necessarily a number"), so invoiceNos is a plain
  // comma list, not ranges.
  const contactFilter = [
    filter(kind === "Customer" ? "customerNos" : "supplierNos", "ContactNo", "ranges"),
    filter("invoiceNos", "InvoiceNo", "strings"),
    filter("customMatchingReferences", "CustomMatchingReference", "strings"),
    filter("voucherTypes", "VoucherType", "strings"),
  ];
  const entries = (ctx: Ctx): Dto[] =>
    ledgerEntries(ctx.store, key).map((p) => ({
      ...p,
      ContactNo: contactOf(ctx, p.ContactId)?.Number ?? null,
    }));
  const base = kind === "Customer" ? "/Customerledger" : "/Supplierledger";
  return {
    [`GET ${base}/${kind}Balances`]: (ctx) => {
      const date = dateQuery(ctx, "date");
      if (!date.ok) return date;
      const sums = new Map<string, number>();
      for (const p of entries(ctx).filter((p) => String(p.PostingDate) <= date.value))
        sums.set(
          String(p.ContactId),
          (sums.get(String(p.ContactId)) ?? 0) + toOre(Number(p.Amount)),
        );
      const onlyOpen = ctx.q.get("includeonlyopenitems")?.toLowerCase() === "true";
      const rows = [...sums]
        .filter(([, ore]) => !(onlyOpen && ore === 0))
        .map(([id, ore]) => {
          const c = contactOf(ctx, id);
          return {
            Balance: fromOre(ore),
            [`${kind}AccountNo`]: c?.Number ?? null,
            [`${kind}ExternalNo`]: c?.ExternalNumber ?? null,
            [`${kind}Id`]: Number(id),
            [`${kind}Name`]: c?.Name ?? null,
          };
        });
      return listReply(ctx, rows);
    },
    [`GET ${base}/OpenItems`]: (ctx) => {
      const date = dateQuery(ctx, "date");
      if (!date.ok) return date;
      const pred = predicateOf(contactFilter, ctx.q);
      if (!pred.ok) return pred;
      const upTo = entries(ctx)
        .filter((p) => String(p.PostingDate) <= date.value)
        .filter(pred.value);
      const groups = new Map<string, Dto[]>();
      for (const p of upTo) {
        const k = `${String(p.ContactId)}:${String(p.InvoiceNo ?? p.CustomMatchingReference ?? `entry-${String(p.Id)}`)}`;
        groups.set(k, [...(groups.get(k) ?? []), p]);
      }
      const rows = [...groups.values()].flatMap((g) => {
        const open = g.reduce((n, p) => n + toOre(Number(p.Amount)), 0);
        return open === 0 ? [] : g.map((p) => entryDto(ctx, p, fromOre(open)));
      });
      return listReply(ctx, rows, fields);
    },
    [`GET ${base}/EntriesByMatchId`]: (ctx) => {
      const raw = requiredQuery(ctx, "matchId");
      if (!raw.ok) return raw;
      if (!/^\d+$/.test(raw.value)) return fail(bindingProblem("matchId", raw.value));
      const rows = entries(ctx)
        .filter((p) => p.MatchId === Number(raw.value))
        .map((p) => entryDto(ctx, p, 0));
      return rows.length === 0 ? empty(204) : ok(rows);
    },
    [`GET ${base}/Statement`]: (ctx) => {
      const range = dateRange(ctx);
      if (!range.ok) return range;
      const pred = predicateOf(contactFilter, ctx.q);
      if (!pred.ok) return pred;
      let running = new Map<string, number>();
      const rows = entries(ctx)
        .filter((p) => String(p.PostingDate) <= range.value.to)
        .filter(pred.value)
        .flatMap((p) => {
          const k = String(p.ContactId);
          running = running.set(k, (running.get(k) ?? 0) + toOre(Number(p.Amount)));
          return String(p.PostingDate) >= range.value.from
            ? [entryDto(ctx, p, fromOre(running.get(k) ?? 0))]
            : [];
        });
      return listReply(ctx, rows, fields);
    },
  };
}

const supplierLedger = ledger("Supplier", "supplier", SUPPLIER_LEDGER_ENTRY_DTO_FIELDS);

export const ledgerHandlers: Record<string, Handler> = {
  "GET /AccountTransactions": accountTransactions,
  "GET /TrialBalance": trialBalance,
  ...ledger("Customer", "customer", CUSTOMER_LEDGER_ENTRY_DTO_FIELDS),
  ...supplierLedger,
  // The seed's name for the supplier ledger's balances, answered as the reference's
  // SupplierBalances.
  "GET /SupplierLedger/CustomerBalances": supplierLedger[
    "GET /Supplierledger/SupplierBalances"
  ] as Handler,
};
