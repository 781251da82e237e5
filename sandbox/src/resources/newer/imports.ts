/**
 * @module
 * Imports, shape-agnostic (no v2 shape is published). What the seed states: `POST /Imports/Upload`
 * takes a file (multipart, or a JSON body as the caller sends it) and creates an import that is not
 * posted; `POST /Imports/{id}/Post` posts it once (a second post is a conflict); `DELETE` works
 * only before posting. Ids are GUIDs, as v2's `CreatedFromImportJournalId` shows.
 *
 * The posted state is the sandbox's own note, not a property of the answer: v2's name for it is not
 * published. Posting does not write vouchers either, since what an import's content means is not
 * published; the file is kept with the import (a multipart upload's text fields are its object).
 */
import { fail, ok, type Ctx, type Handler } from "../../engine/call";
import {
  bodyObject,
  createFree,
  createdReply,
  freeDto,
  freeHandlers,
  freeMeta,
  removeFree,
  updateMeta,
  withFree,
  type FreeSpec,
} from "../../engine/free";
import type { Stored } from "../../engine/store";
import { problems } from "../../lib/problem";
import { filesOf, putFile, removeFile } from "../journal-files";

const IMPORT: FreeSpec = { kind: "Import", entity: "Import", idType: "uuid" };

const posted = (r: Stored) => freeMeta(r).posted === true;
const alreadyPosted = (r: Stored) =>
  fail(problems.conflict(IMPORT.entity, `Import with id = ${r.id} is already posted.`));

const upload: Handler = (ctx) => {
  const file = ctx.call.upload;
  const body = file
    ? { ok: true as const, value: { ...file.fields } }
    : bodyObject(IMPORT, ctx.call.body);
  if (!body.ok) return body;
  const r = createFree(ctx, IMPORT, body.value, { meta: { posted: false } });
  if (file) putFile(ctx.store, r.id, "Upload", file, ctx.call.integration, ctx.now);
  return createdReply(IMPORT, r);
};

/** Removes an import with its file; refused once it is posted. */
function remove(ctx: Ctx, r: Stored): ReturnType<Handler> {
  if (posted(r)) return alreadyPosted(r);
  for (const f of filesOf(ctx.store, r.id)) removeFile(ctx.store, String(f.dto.Id));
  return removeFree(ctx, IMPORT, r);
}

export const importHandlers: Record<string, Handler> = {
  ...freeHandlers(IMPORT, "/Imports", "id", ["GET"]),
  "POST /Imports/Upload": upload,
  "POST /Imports/{id}/Post": (ctx) =>
    withFree(ctx, IMPORT, "id", (r) =>
      posted(r)
        ? alreadyPosted(r)
        : ok(freeDto(IMPORT, updateMeta(ctx, IMPORT, r, { posted: true }))),
    ),
  "DELETE /Imports/{id}": (ctx) => withFree(ctx, IMPORT, "id", (r) => remove(ctx, r)),
};
