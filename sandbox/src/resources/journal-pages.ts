/**
 * @module
 * `/JournalEntryVouchers/{id}/VoucherPages`: the scanned pages of a draft (images or PDF), added
 * and removed while it is a draft, readable as long as the draft is.
 */
import { empty, fail, intParam, ok, type Ctx, type Handler } from "../engine/call";
import type { Dto, Stored } from "../engine/store";
import { problems, type Result } from "../lib/problem";
import { ENTITY, findDraft, notEditable } from "./journal-drafts";
import { fileBytes, filesOf, PDF_MAGIC, putFile, removeFile, startsWith } from "./journal-files";

/** What a page may be, each with the magic number its bytes start with. */
const PAGE_TYPES: Record<string, readonly number[][]> = {
  "application/pdf": [PDF_MAGIC],
  "image/jpeg": [[0xff, 0xd8, 0xff]],
  "image/png": [[0x89, 0x50, 0x4e, 0x47]],
  "image/gif": [[0x47, 0x49, 0x46, 0x38]],
  "image/tiff": [
    [0x49, 0x49, 0x2a, 0x00],
    [0x4d, 0x4d, 0x00, 0x2a],
  ],
};

/** The page the path names, on the draft it names. */
function pageOf(ctx: Ctx): Result<{ draft: Stored; page: Dto }> {
  const draft = findDraft(ctx);
  if (!draft.ok) return draft;
  const pageId = intParam(ctx, "pageId");
  if (!pageId.ok) return pageId;
  const page = filesOf(ctx.store, draft.value.id, "Images").find((f) => f.dto.Id === pageId.value);
  return page
    ? { ok: true, value: { draft: draft.value, page: page.dto } }
    : fail(problems.notFound("VoucherPage", pageId.value));
}

const addPage: Handler = (ctx) => {
  const draft = findDraft(ctx);
  if (!draft.ok) return draft;
  const blocked = notEditable(draft.value);
  if (blocked) return fail(blocked);
  const upload = ctx.call.upload;
  if (!upload) return fail(problems.validation(ENTITY, "The file field is required."));
  const type = upload.type.toLowerCase().split(";")[0]?.trim() ?? "";
  const magic = PAGE_TYPES[type];
  if (!magic)
    return fail(
      problems.validation(
        ENTITY,
        `A voucher page must be a PDF or an image (JPEG, PNG, GIF or TIFF), not '${upload.type}'.`,
      ),
    );
  if (!magic.some((m) => startsWith(upload.bytes, m)))
    return fail(problems.validation(ENTITY, `The file's content is not ${type}.`));
  const file = putFile(
    ctx.store,
    draft.value.id,
    "Images",
    { ...upload, type },
    ctx.call.integration,
    ctx.now,
  );
  return ok(
    { CreatedDateTimeOffset: file.CreatedDateTimeOffset, Id: file.Id, VoucherId: draft.value.id },
    201,
  );
};

export const pageHandlers: Record<string, Handler> = {
  "POST /JournalEntryVouchers/{id}/VoucherPages": addPage,
  "GET /JournalEntryVouchers/{id}/VoucherPages/{pageId}": (ctx) => {
    const found = pageOf(ctx);
    if (!found.ok) return found;
    const { page } = found.value;
    return {
      ok: true,
      value: {
        status: 200,
        bytes: { type: String(page.ContentType), data: fileBytes(ctx.store, String(page.Id)) },
      },
    };
  },
  "DELETE /JournalEntryVouchers/{id}/VoucherPages/{pageId}": (ctx) => {
    const found = pageOf(ctx);
    if (!found.ok) return found;
    const blocked = notEditable(found.value.draft);
    if (blocked) return fail(blocked);
    removeFile(ctx.store, String(found.value.page.Id));
    return empty(200);
  },
};
