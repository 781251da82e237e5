/**
 * @module
 * Folders and documents of the quality module and of client documents, shape-agnostic. What the
 * seed states: a folder's PATCH changes its name and/or parent (a JSON Patch of the caller's own
 * object here, since v2's names for them are unpublished); quality documents filter on
 * `assignmentId`, `taskId` and `serviceAreaId`; a document has versions (`AddDocumentVersion`), and
 * `GET /qualityDocuments/Documents/{id}` returns the current version's file.
 *
 * A document is made by a multipart upload: its object is the form's text fields, and the three
 * links it is filtered on are read from the form fields or query parameters of those names.
 */
import { empty, fail, ok, type Ctx, type Handler } from "../../engine/call";
import {
  createFree,
  createdReply,
  freeDto,
  freeHandlers,
  freeMeta,
  listFree,
  withFree,
  type FreeSpec,
} from "../../engine/free";
import { filter, predicateOf } from "../../engine/filters";
import type { Stored } from "../../engine/store";
import { fileBytes, filesOf, putFile } from "../journal-files";

const folder = (kind: string): FreeSpec => ({ kind, entity: "Folder", idType: "int" });
const DOCUMENT: FreeSpec = { kind: "QualityDocument", entity: "Document", idType: "int" };
/** The client's template folder, set up in Go itself: API v2 only reads it. */
const TEMPLATE_FOLDER: FreeSpec = {
  kind: "ClientDocumentTemplateFolder",
  entity: "Folder",
  idType: "int",
};

/** The query and form names a document is linked and filtered by. */
const LINKS = ["assignmentId", "taskId", "serviceAreaId"] as const;

/**
 * Multipart operations always carry a file (the Worker refuses them without one); this keeps the
 * types honest.
 */
const noFile = () =>
  fail({
    status: 400,
    title: "One or more validation errors occurred.",
    detail: "The file field is required.",
    errors: { file: ["The file field is required."] },
  });

const upload: Handler = (ctx) => {
  const file = ctx.call.upload;
  if (!file) return noFile();
  const links = Object.fromEntries(
    LINKS.map((l) => [l, file.fields[l] ?? ctx.q.get(l.toLowerCase()) ?? null]),
  );
  const r = createFree(ctx, DOCUMENT, { ...file.fields }, { meta: links });
  putFile(ctx.store, r.id, "Upload", file, ctx.call.integration, ctx.now);
  return createdReply(DOCUMENT, r);
};

/** A new version of `r`'s file; the latest is the document's current one. */
function addVersion(ctx: Ctx, r: Stored): ReturnType<Handler> {
  if (!ctx.call.upload) return noFile();
  putFile(ctx.store, r.id, "Upload", ctx.call.upload, ctx.call.integration, ctx.now);
  return ok(freeDto(DOCUMENT, r));
}

/** The current version's file, as it was uploaded. */
function download(ctx: Ctx, r: Stored): ReturnType<Handler> {
  const current = filesOf(ctx.store, r.id, "Upload").at(-1)?.dto;
  if (!current) return empty(204);
  const name = String(current.Name).replace(/["\r\n]/g, "_");
  return {
    ok: true,
    value: {
      status: 200,
      headers: { "content-disposition": `attachment; filename="${name}"` },
      bytes: { type: String(current.ContentType), data: fileBytes(ctx.store, String(current.Id)) },
    },
  };
}

function listDocuments(ctx: Ctx): ReturnType<Handler> {
  const pred = predicateOf(
    LINKS.map((l) => filter(l, l, "strings")),
    ctx.q,
  );
  if (!pred.ok) return pred;
  return listFree(
    ctx,
    DOCUMENT,
    ctx.store.all(DOCUMENT.kind).filter((r) => pred.value(freeMeta(r))),
  );
}

export const documentHandlers: Record<string, Handler> = {
  ...freeHandlers(folder("QualitySettingsFolder"), "/qualitysettings/Folders", "folderId"),
  ...freeHandlers(folder("QualityDocumentFolder"), "/qualityDocuments/Folders", "folderId"),
  ...freeHandlers(folder("ClientDocumentFolder"), "/clientDocuments/Folders", "folderId"),
  "GET /clientDocuments/TemplateFolder": (ctx) => {
    const template = ctx.store.all(TEMPLATE_FOLDER.kind)[0];
    return template ? ok(freeDto(TEMPLATE_FOLDER, template)) : empty(204);
  },
  "GET /qualityDocuments/Documents": listDocuments,
  "GET /qualityDocuments/Documents/{id}": (ctx) =>
    withFree(ctx, DOCUMENT, "id", (r) => download(ctx, r)),
  "POST /qualityDocuments/Documents/upload": upload,
  "POST /qualityDocuments/Documents/{id}/AddDocumentVersion": (ctx) =>
    withFree(ctx, DOCUMENT, "id", (r) => addVersion(ctx, r)),
};
