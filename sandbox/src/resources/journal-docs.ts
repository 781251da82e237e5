/**
 * @module
 * `/VoucherDocumentation`: which posted vouchers carry which documentation, a PDF put on a voucher
 * that was imported through the API's own `POST /Vouchers/*` endpoints, and the documentation of
 * one voucher downloaded as a single zip.
 */
import { VoucherDocumentationType } from "../../../shared/v2/journal-entries";
import {
  bindingProblem,
  empty,
  fail,
  listReply,
  requiredQuery,
  uuidParam,
  type Ctx,
  type Handler,
} from "../engine/call";
import type { Stored } from "../engine/store";
import { problems, type Result } from "../lib/problem";
import { zip, type ZipEntry } from "../lib/zip";
import { VOUCHER_DOCUMENTATION_DTO_FIELDS } from "./fields/journal";
import {
  fileBytes,
  filesOf,
  PDF_MAGIC,
  putFile,
  removeFile,
  startsWith,
  type FileType,
} from "./journal-files";

const ENTITY = "VoucherDocumentation";
const invalid = (detail: string): Result<never> => fail(problems.validation(ENTITY, detail));

/** The posted voucher `?id=` names. */
function voucherOf(ctx: Ctx): Result<Stored> {
  const raw = requiredQuery(ctx, "id");
  if (!raw.ok) return raw;
  const id = uuidParam(ctx, "id", raw.value);
  if (!id.ok) return id;
  const r = ctx.store.get("Voucher", id.value);
  return r ? { ok: true, value: r } : fail(problems.notFound("Voucher", id.value));
}

const list: Handler = (ctx) => {
  const idRaw = ctx.q.get("id")?.trim();
  const id = idRaw ? uuidParam(ctx, "id", idRaw) : null;
  if (id && !id.ok) return id;
  const noRaw = ctx.q.get("voucherno")?.trim();
  if (noRaw && !/^\d{1,15}$/.test(noRaw)) return fail(bindingProblem("voucherNo", noRaw));
  const rows = ctx.store
    .all("Voucher")
    .filter((r) => (!id || r.id === id.value) && (!noRaw || r.dto.VoucherNo === Number(noRaw)))
    .map((r) => ({
      HasEhf: false,
      HasImages: filesOf(ctx.store, r.id, "Images").length > 0,
      HasPdf: filesOf(ctx.store, r.id, "Pdf").length > 0,
      HasSalesOrderAttachments: false,
      IsImported: r.dto.Imported === true,
      VoucherId: r.id,
      VoucherNo: r.dto.VoucherNo ?? null,
      VoucherType: r.dto.VoucherType,
    }));
  return listReply(ctx, rows, VOUCHER_DOCUMENTATION_DTO_FIELDS);
};

/**
 * `PUT /VoucherDocumentation?id=`: a PDF on a voucher imported through the API. The integration
 * that put the first PDF owns the documentation; its next PUT replaces it, any other integration's
 * is refused.
 */
const put: Handler = (ctx) => {
  const voucher = voucherOf(ctx);
  if (!voucher.ok) return voucher;
  const v = voucher.value;
  if (v.dto.Imported !== true)
    return invalid(
      `Voucher with id = ${v.id} was not imported through the API; documentation can only be put on vouchers posted with POST /Vouchers/*.`,
    );
  const upload = ctx.call.upload;
  if (!upload) return invalid("The file field is required.");
  const type = upload.type.toLowerCase().split(";")[0]?.trim() ?? "";
  if (type !== "application/pdf")
    return invalid(`Only PDF files can be imported, not '${upload.type}'.`);
  if (!startsWith(upload.bytes, PDF_MAGIC))
    return invalid("The file is not a PDF: it does not start with %PDF-.");
  const previous = filesOf(ctx.store, v.id, "Pdf");
  const owner = previous[0]?.owner;
  if (owner !== undefined && owner !== ctx.call.integration) {
    return invalid(
      `The documentation of voucher with id = ${v.id} was imported by another integration; only that integration can replace it.`,
    );
  }
  for (const f of previous) removeFile(ctx.store, String(f.dto.Id));
  putFile(ctx.store, v.id, "Pdf", { ...upload, type }, ctx.call.integration, ctx.now);
  return empty(202);
};

/** The file types each `documentationType` takes; the sandbox keeps no EHF files. */
const TYPES: Record<string, FileType[]> = {
  Ehf: [],
  Pdf: ["Pdf"],
  Images: ["Images"],
  All: ["Pdf", "Images"],
};

const download: Handler = (ctx) => {
  const voucher = voucherOf(ctx);
  if (!voucher.ok) return voucher;
  const raw = ctx.q.get("documentationtype")?.trim();
  const kind = raw
    ? VoucherDocumentationType.safeParse(raw)
    : { success: true as const, data: "All" as const };
  if (!kind.success) return fail(bindingProblem("documentationType", raw ?? ""));
  const v = voucher.value;
  const files = (TYPES[kind.data] ?? []).flatMap((t) => filesOf(ctx.store, v.id, t));
  if (files.length === 0) return empty(204);
  const used = new Set<string>();
  const entries: ZipEntry[] = files.map(({ dto }, i) => {
    // Names must be unique inside the zip; the uploaded name is kept where it is.
    const plain = String(dto.Name || `voucher-${String(v.dto.VoucherNo)}-${i + 1}`).replace(
      /[\\/]/g,
      "_",
    );
    const name = used.has(plain) ? `${i + 1}-${plain}` : plain;
    used.add(name);
    return { name, bytes: fileBytes(ctx.store, String(dto.Id)) };
  });
  return {
    ok: true,
    value: {
      status: 200,
      headers: {
        "content-disposition": `attachment; filename="voucher-${String(v.dto.VoucherNo)}.zip"`,
      },
      bytes: { type: "application/zip", data: zip(entries, ctx.now) },
    },
  };
};

export const documentationHandlers: Record<string, Handler> = {
  "GET /VoucherDocumentation": list,
  "PUT /VoucherDocumentation": put,
  "GET /VoucherDocumentation/Download": download,
};
