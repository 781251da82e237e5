/**
 * @module
 * Sales orders: `POST /SalesOrders/Complete` with its lines, reads, header and line changes, and
 * the amounts the API computes. A line takes no VAT code: it follows the sales account of its
 * product, and that account's VAT code sets the rate. Amounts are computed in øre.
 */
import {
  SalesOrderCompletePost,
  SalesOrderHeaderPatchable,
  SalesOrderLinePost,
} from "../../../shared/v2/sales";
import { JsonPatch } from "../../../shared/v2/json-patch";
import { empty, fail, listReply, ok, uuidParam, type Ctx, type Handler } from "../engine/call";
import { filter, predicateOf } from "../engine/filters";
import { fromOre, toOre } from "../engine/ledger";
import { resolveRefs, type Ref } from "../engine/resource";
import { shape, type Dto, type Stored } from "../engine/store";
import { applyPatch } from "../lib/json-patch";
import { problems, schemaProblem, type Result } from "../lib/problem";
import { SALES_ORDER_COMPLETE_DTO_FIELDS, SALES_ORDER_LINE_DTO_FIELDS } from "./fields/sales";

/** The dimensions a header and each of its lines may name. */
const DIMENSION_REFS: Ref[] = [
  { id: "DepartmentId", code: "DepartmentCode", kind: "Department", entity: "Department" },
  { id: "ProjectId", code: "ProjectCode", kind: "Project", entity: "Project" },
  { id: "LocationId", code: "LocationCode", kind: "Location", entity: "Location" },
];
const HEADER_REFS: Ref[] = [
  { id: "CustomerId", code: "CustomerNo", kind: "Customer", entity: "Customer", by: "Number" },
  ...DIMENSION_REFS,
  { id: "PaymentTermId", kind: "PaymentTerm", entity: "PaymentTerm" },
  {
    id: "DeliveryTermId",
    code: "DeliveryTerm",
    kind: "DeliveryTerm",
    entity: "DeliveryTerm",
    by: "Name",
  },
  {
    id: "BrandingThemeId",
    code: "BrandingThemeCode",
    kind: "BrandingTheme",
    entity: "BrandingTheme",
  },
  {
    id: "SalesPersonEmployeeId",
    code: "SalesPersonEmployeeNumber",
    kind: "Employee",
    entity: "Employee",
    by: "Number",
  },
];
const LINE_REFS: Ref[] = [
  { id: "ProductId", code: "ProductCode", kind: "Product", entity: "Product" },
  ...DIMENSION_REFS,
];
const HEADER_KEYS = Object.keys(SalesOrderCompletePost.shape);
const LINE_KEYS = Object.keys(SalesOrderLinePost.shape);
/**
 * A line as answered: `SalesOrderLineDto` has no AccountId, so the sales account a line posts to
 * stays internal.
 */
const lineDto = (l: Dto) => shape([...LINE_KEYS, ...SALES_ORDER_LINE_DTO_FIELDS], l);

const KIND = "SalesOrder";

/** Builds a stored line from a posted one: product defaults, account, VAT and amounts. */
function lineOf(
  ctx: Ctx,
  orderId: string,
  posted: Dto,
  customer: Dto | null,
  sortOrder: number,
  id = crypto.randomUUID(),
): Result<Dto> {
  const refs = resolveRefs(ctx, LINE_REFS, { ...shape(LINE_KEYS), ...posted });
  if (!refs.ok) return refs;
  const l = refs.value;
  const product = l.ProductId ? (ctx.store.get("Product", String(l.ProductId))?.dto ?? null) : null;
  const accountId = product?.StandardSalesAccountId ?? null;
  const account = accountId
    ? (ctx.store.get("GeneralLedgerAccount", String(accountId))?.dto ?? null)
    : null;
  const vat = account?.VatCodeId
    ? (ctx.store.get("VatCode", String(account.VatCodeId))?.dto ?? null)
    : null;
  const price = Number(l.ProductUnitPrice ?? product?.UnitPrice ?? 0);
  const allowance = Number(l.Allowance ?? customer?.Allowance ?? 0);
  const quantity = Number(l.Quantity ?? 0);
  const lineType = l.LineType ?? "Normal";
  // Net in øre: quantity × price, less the allowance (discount %), rounded once.
  const net =
    lineType === "Normal" ? Math.round(toOre(quantity * price) * (1 - allowance / 100)) : 0;
  const rate = Number(vat?.Rate ?? 0);
  const vatOre = Math.round(net * rate);
  return {
    ok: true,
    value: {
      ...l,
      Id: id,
      SalesOrderId: orderId,
      LineType: lineType,
      SortOrder: l.SortOrder ?? sortOrder,
      Description: l.Description ?? product?.Name ?? null,
      ProductUnitPrice: price,
      ProductUnitCost: l.ProductUnitCost ?? product?.UnitCost ?? null,
      Allowance: allowance,
      UnitOfMeasureCode: l.UnitOfMeasureCode ?? product?.UnitOfMeasureCode ?? null,
      NetAmount: fromOre(net),
      VatAmount: fromOre(vatOre),
      TotalAmount: fromOre(net + vatOre),
      VatId: vat?.Id ?? null,
      VatCode: vat?.Code ?? null,
      VatRate: rate,
      AccountId: accountId,
    },
  };
}

/** Recomputes the header's totals from its lines. */
function withTotals(order: Dto, at: string): Dto {
  const lines = (order.SalesOrderLines as Dto[]).sort(
    (a, b) => Number(a.SortOrder) - Number(b.SortOrder),
  );
  const sum = (f: string) => fromOre(lines.reduce((n, l) => n + toOre(Number(l[f])), 0));
  return {
    ...order,
    SalesOrderLines: lines,
    LineCount: lines.length,
    NetAmount: sum("NetAmount"),
    TotalAmount: sum("TotalAmount"),
    LastChangedDateTimeOffset: at,
  };
}

/** The header as `GET /SalesOrders` answers it (no lines). */
function header(r: Stored, ctx: Ctx): Dto {
  const { SalesOrderLines: _lines, Sending: _sending, ...rest } = r.dto;
  return { ...rest, IsCreatedByCurrentIntegration: r.owner === ctx.call.integration };
}

function complete(r: Stored, ctx: Ctx): Dto {
  const { Sending: _sending, SalesOrderLines: lines, ...rest } = r.dto;
  return {
    ...rest,
    SalesOrderLines: (lines as Dto[]).map(lineDto),
    IsCreatedByCurrentIntegration: r.owner === ctx.call.integration,
  };
}

export function orderOf(ctx: Ctx, param = "id"): Result<Stored> {
  const id = uuidParam(ctx, param);
  if (!id.ok) return id;
  const r = ctx.store.get(KIND, id.value);
  return r ? { ok: true, value: r } : fail(problems.notFound("SalesOrder", id.value));
}

/**
 * A confirmed order is locked from edits until it is set back to Draft; one being sent is locked
 * too.
 */
function editable(r: Stored, patchSetsDraft = false): Result<null> {
  if (r.dto.Sending)
    return fail(
      problems.conflict(
        "SalesOrder",
        `Sales order with id = ${r.id} is being invoiced and cannot be changed.`,
      ),
    );
  if (r.dto.SalesOrderStatus === "Confirmed" && !patchSetsDraft)
    return fail(
      problems.validation(
        "SalesOrder",
        `Sales order with id = ${r.id} is Confirmed and locked; set SalesOrderStatus to Draft to change it.`,
      ),
    );
  return { ok: true, value: null };
}

const create: Handler = (ctx) => {
  const parsed = SalesOrderCompletePost.safeParse(ctx.call.body);
  if (!parsed.success) return fail(schemaProblem(parsed.error));
  const body = parsed.data as Dto;
  if (body.CustomerId == null && body.CustomerNo == null)
    return fail(problems.validation("SalesOrder", "CustomerId or CustomerNo is required."));
  const ref = body.ExternalImportReference;
  if (ref) {
    const taken =
      ctx.store.all(KIND).find((r) => r.dto.ExternalImportReference === ref) ??
      ctx.store.all("OutgoingInvoice").find((r) => r.dto.ExternalImportReference === ref);
    if (taken)
      return fail(
        problems.validation(
          "SalesOrder",
          `ExternalImportReference is already in use. '${String(ref)}' is used on (sales order) Id = ${taken.id}.`,
        ),
      );
  }
  const refs = resolveRefs(ctx, HEADER_REFS, { ...shape(HEADER_KEYS), ...body });
  if (!refs.ok) return refs;
  const customer = ctx.store.get("Customer", String(refs.value.CustomerId))?.dto ?? null;
  const id = crypto.randomUUID();
  const lines: Dto[] = [];
  for (const [i, posted] of ((body.SalesOrderLines as Dto[] | null) ?? []).entries()) {
    const line = lineOf(ctx, id, posted, customer, i);
    if (!line.ok) return line;
    lines.push(line.value);
  }
  const at = ctx.now.toISOString();
  const order = withTotals(
    {
      ...refs.value,
      Id: id,
      SalesOrderNo: ctx.store.next("salesOrderNo", 1),
      CustomerNo: customer?.Number ?? null,
      CurrencyCode: String(
        refs.value.CurrencyCode ?? customer?.CurrencyCode ?? "NOK",
      ).toUpperCase(),
      SalesOrderStatus: refs.value.SalesOrderStatus ?? "Draft",
      PaymentTermId: refs.value.PaymentTermId ?? customer?.PaymentTermId ?? null,
      PaymentTerm: refs.value.PaymentTerm ?? customer?.PaymentTerm ?? 14,
      CreatedDateTimeOffset: at,
      SalesOrderLines: lines,
      Sending: false,
    },
    at,
  );
  ctx.store.put(KIND, id, order, { owner: ctx.call.integration });
  return ok(complete({ id, parent: null, owner: ctx.call.integration, dto: order }, ctx), 201);
};

const patchHeader: Handler = (ctx) => {
  const r = orderOf(ctx);
  if (!r.ok) return r;
  const doc = JsonPatch.parse(ctx.call.body);
  const toDraft = doc.some(
    (op) =>
      op.path.toLowerCase() === "/salesorderstatus" &&
      "value" in op &&
      String(op.value).toLowerCase() === "draft",
  );
  const lock = editable(r.value, toDraft);
  if (!lock.ok) return lock;
  const view = Object.fromEntries(
    [...SalesOrderHeaderPatchable]
      .filter((k) => r.value.dto[k] != null)
      .map((k) => [k, r.value.dto[k]]),
  );
  const applied = applyPatch(view, doc);
  if (!applied.ok)
    return fail(
      problems.validation("SalesOrder", `Operation ${applied.index}: ${applied.message}.`),
    );
  const parsed = SalesOrderCompletePost.safeParse(applied.value);
  if (!parsed.success) return fail(schemaProblem(parsed.error));
  const refs = resolveRefs(ctx, HEADER_REFS, {
    ...r.value.dto,
    ...shape(HEADER_KEYS),
    ...(parsed.data as Dto),
    SalesOrderLines: r.value.dto.SalesOrderLines,
  });
  if (!refs.ok) return refs;
  const next = withTotals(
    {
      ...refs.value,
      CustomerNo: ctx.store.get("Customer", String(refs.value.CustomerId))?.dto.Number ?? null,
    },
    ctx.now.toISOString(),
  );
  ctx.store.put(KIND, r.value.id, next, { owner: r.value.owner });
  return ok(header({ ...r.value, dto: next }, ctx));
};

const remove: Handler = (ctx) => {
  const r = orderOf(ctx);
  if (!r.ok) return r;
  if (r.value.dto.Sending)
    return fail(
      problems.conflict(
        "SalesOrder",
        `Sales order with id = ${r.value.id} is in use and cannot be deleted: it is being invoiced.`,
      ),
    );
  ctx.store.remove(KIND, r.value.id);
  return empty(200);
};

/** Runs `change` on the order's lines and stores the recomputed order. */
function changeLines(
  ctx: Ctx,
  r: Stored,
  change: (lines: Dto[], customer: Dto | null) => Result<Dto | null>,
): Result<Dto | null> {
  const lock = editable(r);
  if (!lock.ok) return lock;
  const lines = [...(r.dto.SalesOrderLines as Dto[])];
  const result = change(lines, ctx.store.get("Customer", String(r.dto.CustomerId))?.dto ?? null);
  if (!result.ok) return result;
  ctx.store.put(
    KIND,
    r.id,
    withTotals({ ...r.dto, SalesOrderLines: lines }, ctx.now.toISOString()),
    { owner: r.owner },
  );
  return result;
}

function lineIndex(ctx: Ctx, r: Stored): Result<number> {
  const lineId = uuidParam(ctx, "lineId");
  if (!lineId.ok) return lineId;
  const i = (r.dto.SalesOrderLines as Dto[]).findIndex((l) => l.Id === lineId.value);
  return i >= 0 ? { ok: true, value: i } : fail(problems.notFound("SalesOrderLine", lineId.value));
}

const lineHandlers: Record<string, Handler> = {
  "GET /SalesOrders/{id}/Lines": (ctx) => {
    const r = orderOf(ctx);
    return r.ok
      ? listReply(ctx, (r.value.dto.SalesOrderLines as Dto[]).map(lineDto), [
          ...LINE_KEYS,
          ...SALES_ORDER_LINE_DTO_FIELDS,
        ])
      : r;
  },
  "POST /SalesOrders/{id}/Lines": (ctx) => {
    const r = orderOf(ctx);
    if (!r.ok) return r;
    const changed = changeLines(ctx, r.value, (lines, customer) => {
      const line = lineOf(ctx, r.value.id, ctx.call.body as Dto, customer, lines.length);
      if (line.ok) lines.push(line.value);
      return line;
    });
    return changed.ok ? ok(lineDto(changed.value as Dto), 201) : changed;
  },
  "GET /SalesOrders/{id}/Lines/{lineId}": (ctx) => {
    const r = orderOf(ctx);
    if (!r.ok) return r;
    const i = lineIndex(ctx, r.value);
    return i.ok ? ok(lineDto((r.value.dto.SalesOrderLines as Dto[])[i.value] as Dto)) : i;
  },
  "PATCH /SalesOrders/{id}/Lines/{lineId}": (ctx) => {
    const r = orderOf(ctx);
    if (!r.ok) return r;
    const i = lineIndex(ctx, r.value);
    if (!i.ok) return i;
    const changed = changeLines(ctx, r.value, (lines, customer) => {
      const current = lines[i.value] as Dto;
      const view = Object.fromEntries(
        LINE_KEYS.filter((k) => current[k] != null).map((k) => [k, current[k]]),
      );
      const applied = applyPatch(view, JsonPatch.parse(ctx.call.body));
      if (!applied.ok)
        return fail(
          problems.validation("SalesOrderLine", `Operation ${applied.index}: ${applied.message}.`),
        );
      const parsed = SalesOrderLinePost.safeParse(applied.value);
      if (!parsed.success) return fail(schemaProblem(parsed.error));
      const line = lineOf(
        ctx,
        r.value.id,
        parsed.data as Dto,
        customer,
        Number(current.SortOrder),
        String(current.Id),
      );
      if (line.ok) lines[i.value] = line.value;
      return line;
    });
    return changed.ok ? ok(lineDto(changed.value as Dto)) : changed;
  },
  "DELETE /SalesOrders/{id}/Lines/{lineId}": (ctx) => {
    const r = orderOf(ctx);
    if (!r.ok) return r;
    const i = lineIndex(ctx, r.value);
    if (!i.ok) return i;
    const changed = changeLines(ctx, r.value, (lines) => ({
      ok: true,
      value: lines.splice(i.value, 1)[0] ?? null,
    }));
    return changed.ok ? empty(200) : changed;
  },
};

export const salesOrderHandlers: Record<string, Handler> = {
  "GET /SalesOrders": (ctx) => {
    const pred = predicateOf(
      [
        filter("customerNos", "CustomerNo", "ranges"),
        filter("orderStatus", "SalesOrderStatus", "eq"),
        filter("departmentCodes", "DepartmentCode", "strings"),
        filter("projectCodes", "ProjectCode", "strings"),
        filter("onlyCreatedByCurrentIntegration", "IsCreatedByCurrentIntegration", "only"),
        filter("lastChangedDateTimeOffsetGreaterThan", "LastChangedDateTimeOffset", "after"),
        filter("salesOrderNos", "SalesOrderNo", "ranges"),
        filter("externalImportReferences", "ExternalImportReference", "strings"),
      ],
      ctx.q,
    );
    if (!pred.ok) return pred;
    // `header` sets IsCreatedByCurrentIntegration for this caller, so
    // onlyCreatedByCurrentIntegration is a plain filter.
    const rows = ctx.store
      .all(KIND)
      .map((r) => header(r, ctx))
      .filter(pred.value);
    return listReply(ctx, rows, [...SalesOrderHeaderPatchable, ...SALES_ORDER_COMPLETE_DTO_FIELDS]);
  },
  "POST /SalesOrders/Complete": create,
  "GET /SalesOrders/{id}": (ctx) => {
    const r = orderOf(ctx);
    return r.ok ? ok(header(r.value, ctx)) : r;
  },
  "GET /SalesOrders/{id}/Complete": (ctx) => {
    const r = orderOf(ctx);
    return r.ok ? ok(complete(r.value, ctx)) : r;
  },
  "PATCH /SalesOrders/{id}": patchHeader,
  "DELETE /SalesOrders/{id}": remove,
  ...lineHandlers,
};
