/**
 * @module
 * Invoicing: `createAndSendInvoice` (202 + Location; delivery runs asynchronously), the delivery
 * that turns the order into an outgoing invoice and posts it, `/SalesOrders/sentState`, the
 * outgoing invoices with their lines, and sales-order attachments. Sending is not idempotent in the
 * API: once delivered the order is gone, so a second send answers 404; while it is being sent, 409.
 */
import type { SendInvoiceRequestPost } from "../../../shared/v2/sales";
import {
  empty,
  fail,
  intParam,
  listReply,
  ok,
  uuidParam,
  type Ctx,
  type Handler,
} from "../engine/call";
import { filter, predicateOf } from "../engine/filters";
import { fromOre, ledgerEntries, postVoucher, toOre } from "../engine/ledger";
import { shape, type Dto, type Stored } from "../engine/store";
import { problems, type Result } from "../lib/problem";
import {
  INVOICE_SENT_STATE_DTO_FIELDS,
  OUTGOING_INVOICE_DTO_FIELDS,
  OUTGOING_INVOICE_LINE_DTO_FIELDS,
  SALES_ORDER_ATTACHMENT_DTO_FIELDS,
} from "./fields/sales";
import { orderOf, salesOrderHandlers } from "./sales-orders";

/**
 * How long the sandbox takes to deliver an invoice, ms: long enough that a client must poll
 * sentState.
 */
export const DELIVERY_DELAY_MS = 1500;

const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const send: Handler = (ctx) => {
  const order = orderOf(ctx);
  if (!order.ok) return order;
  const o = order.value.dto;
  if (o.Sending)
    return fail(
      problems.conflict(
        "SalesOrder",
        `Sales order with id = ${order.value.id} is already being invoiced; follow /SalesOrders/sentState?id=${order.value.id}.`,
      ),
    );
  if ((o.SalesOrderLines as Dto[]).length === 0)
    return fail(
      problems.validation("SalesOrder", "A sales order needs at least one line to be invoiced."),
    );
  const body = ctx.call.body as SendInvoiceRequestPost;
  const request: Dto = {
    Id: crypto.randomUUID(),
    SalesOrderId: order.value.id,
    DeliveryType: body.DeliveryType ?? "Auto",
    EmailAddress: body.EmailAddress ?? null,
    VoucherDate: body.VoucherDate ?? null,
    OverrideDueDate: body.OverrideDueDate ?? null,
    DueAt: ctx.now.getTime() + DELIVERY_DELAY_MS,
    Owner: ctx.call.integration,
    State: "processing",
  };
  ctx.store.put("SendRequest", order.value.id, request, { owner: ctx.call.integration });
  ctx.store.put(
    "SalesOrder",
    order.value.id,
    { ...o, Sending: true },
    { owner: order.value.owner },
  );
  ctx.wakeAt(Number(request.DueAt));
  const root = ctx.call.url.slice(0, ctx.call.url.toLowerCase().indexOf("/salesorders/"));
  return ok(
    {
      Id: request.Id,
      DeliveryType: request.DeliveryType,
      EmailAddress: request.EmailAddress,
      OverrideDueDate: request.OverrideDueDate,
      VoucherDate: request.VoucherDate,
    },
    202,
    { location: `${root}/SalesOrders/sentState?id=${order.value.id}` },
  );
};

/** Delivers every send request that came due; returns when the next one is due, if any. */
export function settleDue(ctx: Ctx): number | null {
  let next: number | null = null;
  for (const r of ctx.store.all("SendRequest")) {
    if (r.dto.State !== "processing") continue;
    const due = Number(r.dto.DueAt);
    if (due > ctx.now.getTime()) {
      next = next === null ? due : Math.min(next, due);
      continue;
    }
    deliver({ ...ctx, call: { ...ctx.call, integration: String(r.dto.Owner) } }, r.dto);
  }
  return next;
}

function deliver(ctx: Ctx, request: Dto): void {
  const { store } = ctx;
  const orderRecord = store.get("SalesOrder", String(request.SalesOrderId));
  const finish = (patch: Dto) =>
    store.put(
      "SendRequest",
      String(request.SalesOrderId),
      { ...request, ...patch },
      { owner: String(request.Owner) },
    );
  if (!orderRecord)
    return finish({ State: "failed", LastErrorMessage: "The sales order no longer exists." });
  const order = orderRecord.dto;
  const customer = store.get("Customer", String(order.CustomerId))?.dto ?? {};
  const email =
    request.EmailAddress ?? customer.InvoiceEmailAddress ?? customer.EmailAddress ?? null;
  const unlock = () =>
    store.put(
      "SalesOrder",
      orderRecord.id,
      { ...order, Sending: false },
      { owner: orderRecord.owner },
    );
  const wanted = String(request.DeliveryType);
  const deliveryType =
    wanted === "PdfPrintForDownload"
      ? "Print"
      : wanted === "Auto" && customer.InvoiceDeliveryType === "EHF" && customer.OrganizationNumber
        ? "EHF"
        : email
          ? "PdfByEmail"
          : "Print";
  if (wanted === "PdfByEmail" && !email) {
    unlock();
    return finish({
      State: "failed",
      LastErrorMessage:
        "The invoice could not be sent: neither the request nor the customer has an e-mail address.",
    });
  }
  const voucherDate = String(request.VoucherDate ?? ctx.now.toISOString().slice(0, 10));
  const dueDate = String(
    request.OverrideDueDate ?? plusDays(voucherDate, Number(order.PaymentTerm ?? 14)),
  );
  const invoiceNo = store.next("invoiceNo", 10001);
  const lines = (order.SalesOrderLines as Dto[]).filter(
    (l) => l.LineType === "Normal" && Number(l.TotalAmount) !== 0,
  );
  const total = fromOre(lines.reduce((n, l) => n + toOre(Number(l.TotalAmount)), 0));
  const credit = total < 0;
  const posted = postVoucher(ctx, {
    VoucherType: credit ? "OutgoingCreditNote" : "OutgoingInvoice",
    VoucherDate: voucherDate,
    Description: `Invoice ${invoiceNo}`,
    ExternalImportReference: (order.ExternalImportReference as string | null) ?? null,
    CurrencyCode: String(order.CurrencyCode),
    entity: "OutgoingInvoice",
    route: "OutgoingInvoiceJournals",
    imported: false,
    lines: [
      {
        AccountId: Number(customer.SubledgerAccountId),
        CurrencyAmount: total,
        PostingDate: voucherDate,
        InvoiceNo: String(invoiceNo),
        DueDate: dueDate,
        VatId: 1,
        CurrencyCode: String(order.CurrencyCode),
      },
      ...lines.map((l) => ({
        AccountId: Number(l.AccountId),
        CurrencyAmount: -Number(l.TotalAmount),
        VatId: Number(l.VatId ?? 1),
        PostingDate: voucherDate,
        ProductId: Number(l.ProductId),
        Quantity: Number(l.Quantity),
        CurrencyCode: String(order.CurrencyCode),
      })),
    ],
  });
  if (!posted.ok) {
    unlock();
    return finish({
      State: "failed",
      LastErrorMessage: `The invoice could not be posted: ${posted.problem.detail ?? posted.problem.title}`,
    });
  }
  const at = ctx.now.toISOString();
  const invoiceId = String(posted.value.voucher.Id);
  store.put(
    "OutgoingInvoice",
    invoiceId,
    {
      ...order,
      Id: invoiceId,
      InvoiceNo: invoiceNo,
      VoucherNo: posted.value.voucher.VoucherNo,
      VoucherDate: voucherDate,
      DueDate: dueDate,
      OrderNo: order.SalesOrderNo,
      OrderDate: order.SalesOrderDate ?? voucherDate,
      InvoiceDeliveryType: deliveryType,
      SentDateTimeOffset: at,
      VoucherType: credit ? "OutgoingCreditNote" : "OutgoingInvoice",
      IsReversed: false,
      NetPostedAmount: order.NetAmount,
      TotalPostedAmount: order.TotalAmount,
      CreatedDateTimeOffset: at,
      LastChangedDateTimeOffset: at,
      // Posting the invoice sets its balance; payments move it (engine/balance-stamps.ts).
      BalanceLastChangedDateTimeOffset: at,
      Lines: (order.SalesOrderLines as Dto[]).map((l) => ({
        ...l,
        Id: store.nextId(),
        NetPostedAmount: l.NetAmount,
        TotalPostedAmount: l.TotalAmount,
        AgricultureDepartment: "None",
        IsAccrued: false,
      })),
    },
    { owner: String(request.Owner) },
  );
  // Once invoiced, the order and its line ids are gone: the invoice carries new ids.
  store.remove("SalesOrder", orderRecord.id);
  finish({
    State: "sent",
    InvoiceNo: invoiceNo,
    InvoiceDeliveryType: deliveryType,
    SentDateTimeOffset: at,
    DueDate: dueDate,
    InvoiceId: invoiceId,
  });
}

function sentStateDto(r: Dto): Dto {
  return shape(INVOICE_SENT_STATE_DTO_FIELDS, {
    ...r,
    Id: r.SalesOrderId,
    IsInvoiceBeingProcessed: r.State === "processing",
    InvoiceDeliveryType:
      r.InvoiceDeliveryType ?? (r.DeliveryType === "PdfByEmail" ? "PdfByEmail" : "Print"),
  });
}

/** An outgoing invoice with its balance read from the customer ledger. */
function invoiceDto(ctx: Ctx, inv: Dto, owner: string): Dto {
  const entries = ledgerEntries(ctx.store, "customer").filter(
    (p) => p.InvoiceNo === String(inv.InvoiceNo) && String(p.ContactId) === String(inv.CustomerId),
  );
  // In the invoice's own currency, as the invoice's amounts are.
  const field = inv.CurrencyCode && inv.CurrencyCode !== "NOK" ? "CurrencyAmount" : "Amount";
  const balance = fromOre(entries.reduce((n, p) => n + toOre(Number(p[field])), 0));
  const matchId = entries.find((p) => p.MatchId)?.MatchId ?? null;
  return shape(OUTGOING_INVOICE_DTO_FIELDS, {
    ...inv,
    Balance: balance,
    MatchId: matchId,
    IsCreatedByCurrentIntegration: owner === ctx.call.integration,
  });
}

function invoiceOf(ctx: Ctx) {
  const id = uuidParam(ctx, "id");
  if (!id.ok) return id;
  const r = ctx.store.get("OutgoingInvoice", id.value);
  return r ? { ok: true as const, value: r } : fail(problems.notFound("OutgoingInvoice", id.value));
}

const invoiceHandlers: Record<string, Handler> = {
  "GET /OutgoingInvoices": (ctx) => {
    const pred = predicateOf(
      [
        filter("fromDate", "VoucherDate", "from"),
        filter("toDate", "VoucherDate", "to"),
        filter("customerNos", "CustomerNo", "ranges"),
        filter("invoiceNos", "InvoiceNo", "ranges"),
        filter("voucherNos", "VoucherNo", "ranges"),
        filter("invoiceIds", "Id", "strings"),
        filter("customMatchingReferences", "CustomMatchingReference", "strings"),
        filter("sentDateTimeOffsetGreaterThan", "SentDateTimeOffset", "after"),
        filter(
          "balanceLastChangedDateTimeOffsetGreaterThan",
          "BalanceLastChangedDateTimeOffset",
          "after",
        ),
        filter("onlyCreatedByCurrentIntegration", "IsCreatedByCurrentIntegration", "only"),
        // Here and on GET /SalesOrders, not in the published document: named like its plural list
        // filters (invoiceNos, codes).
        filter("externalImportReferences", "ExternalImportReference", "strings"),
      ],
      ctx.q,
    );
    if (!pred.ok) return pred;
    const unpaid = ctx.q.get("onlyunpaidinvoices")?.toLowerCase() === "true";
    const rows = ctx.store
      .all("OutgoingInvoice")
      .map((r) => invoiceDto(ctx, r.dto, r.owner))
      .filter(pred.value)
      .filter((d) => !unpaid || d.Balance !== 0);
    return listReply(ctx, rows, OUTGOING_INVOICE_DTO_FIELDS);
  },
  "GET /OutgoingInvoices/{id}": (ctx) => {
    const r = invoiceOf(ctx);
    return r.ok ? ok(invoiceDto(ctx, r.value.dto, r.value.owner)) : r;
  },
  "GET /OutgoingInvoices/{id}/Lines": (ctx) => {
    const r = invoiceOf(ctx);
    if (!r.ok) return r;
    const lines = [...(r.value.dto.Lines as Dto[])]
      .sort((a, b) => Number(a.SortOrder) - Number(b.SortOrder))
      .map((l) =>
        shape(OUTGOING_INVOICE_LINE_DTO_FIELDS, {
          ...l,
          AccountNo: ctx.store.get("GeneralLedgerAccount", String(l.AccountId))?.dto.AccountNo,
        }),
      );
    return listReply(ctx, lines, OUTGOING_INVOICE_LINE_DTO_FIELDS);
  },
};

/** The attachment the path names, on the sales order the path names. */
function attachmentOf(ctx: Ctx): Result<Stored> {
  const order = orderOf(ctx, "salesOrderId");
  if (!order.ok) return order;
  const id = intParam(ctx, "id");
  if (!id.ok) return id;
  const r = ctx.store.get("SalesOrderAttachment", id.value);
  return r && r.parent === order.value.id
    ? { ok: true, value: r }
    : fail(problems.notFound("SalesOrderAttachment", id.value));
}

const attachmentHandlers: Record<string, Handler> = {
  "GET /SalesOrders/{salesOrderId}/attachments": (ctx) => {
    const order = orderOf(ctx, "salesOrderId");
    if (!order.ok) return order;
    return listReply(
      ctx,
      ctx.store
        .all("SalesOrderAttachment", order.value.id)
        .map((r) => shape(SALES_ORDER_ATTACHMENT_DTO_FIELDS, r.dto)),
      SALES_ORDER_ATTACHMENT_DTO_FIELDS,
    );
  },
  "POST /SalesOrders/{salesOrderId}/attachments": (ctx) => {
    const order = orderOf(ctx, "salesOrderId");
    if (!order.ok) return order;
    const file = ctx.call.upload;
    if (!file)
      return fail(problems.validation("SalesOrderAttachment", "The file field is required."));
    const id = ctx.store.nextId();
    const at = ctx.now.toISOString();
    const dto = {
      Id: id,
      SalesOrderId: order.value.id,
      FileName: file.name,
      FileSize: file.bytes.byteLength,
      CreatedDateTimeOffset: at,
      LastChangedDateTimeOffset: at,
    };
    ctx.store.put(
      "SalesOrderAttachment",
      id,
      { ...dto, Type: file.type, Data: btoa(String.fromCharCode(...file.bytes)) },
      { parent: order.value.id, owner: ctx.call.integration },
    );
    return ok(dto, 201);
  },
  "GET /SalesOrders/{salesOrderId}/attachments/{id}": (ctx) => {
    const r = attachmentOf(ctx);
    if (!r.ok) return r;
    const data = Uint8Array.from(atob(String(r.value.dto.Data)), (c) => c.charCodeAt(0));
    const filename = String(r.value.dto.FileName).replaceAll('"', "");
    return {
      ok: true,
      value: {
        status: 200,
        bytes: { type: String(r.value.dto.Type), data },
        headers: { "content-disposition": `attachment; filename="${filename}"` },
      },
    };
  },
  "DELETE /SalesOrders/{salesOrderId}/attachments/{id}": (ctx) => {
    const r = attachmentOf(ctx);
    if (!r.ok) return r;
    ctx.store.remove("SalesOrderAttachment", r.value.id);
    return empty(200);
  },
};

export const salesHandlers: Record<string, Handler> = {
  ...salesOrderHandlers,
  "POST /SalesOrders/{id}/createAndSendInvoice": send,
  "GET /SalesOrders/sentState": (ctx) => {
    const raw = ctx.q.get("id");
    if (raw) {
      const id = uuidParam(ctx, "id", raw);
      if (!id.ok) return id;
      const r = ctx.store.get("SendRequest", id.value);
      return r ? ok([sentStateDto(r.dto)]) : fail(problems.notFound("SalesOrder", id.value));
    }
    const all = ctx.store.all("SendRequest").map((r) => sentStateDto(r.dto));
    return all.length ? ok(all) : empty(204);
  },
  ...invoiceHandlers,
  ...attachmentHandlers,
};
