/**
 * @module
 * `read { path, query?, cursor? }`: any catalog `GET` for the session's tenant, through the same
 * pipeline as the key holder's own `/v2` call; a list paged and trimmed (`paging.ts`).
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/server";
import { matchOperation } from "../../../../shared/v2/catalog";
import { queryOf } from "../../../../shared/v2/query";
import { isJsonType, mediaType } from "../../../v2/passthrough";
import { guarded, type ToolContext, type ToolStep } from "../audit";
import {
  cursorOf,
  fitting,
  listPage,
  positionOf,
  READ_MAX_CHARS,
  READ_PAGE_ITEMS,
  type Position,
} from "../paging";
import { apiRefusal, structured, ToolRefusal } from "../results";
import { ApiPath, Query, READ_HINTS, searchOf } from "./shapes";

const ReadInput = z.object({
  path: ApiPath,
  query: Query.optional(),
  cursor: z.string().max(1000).optional().describe("`nextCursor` of the read before, to go on."),
});
type ReadInput = z.output<typeof ReadInput>;

const ReadAnswer = z.strictObject({
  path: z.string(),
  status: z.int().describe("The API's status (200, or 204 for an empty list)."),
  data: z.unknown().describe("A list's rows (an array) or one record (an object)."),
  rows: z.int().nullable().describe("Rows in `data` when it is a list."),
  totalCount: z.int().nullable().describe("Rows in the whole list, when the API says."),
  nextCursor: z.string().nullable().describe("Pass it back with the same path and query."),
  trimmed: z.boolean().describe("Rows of this page were left for the cursor, for size."),
  note: z.string(),
});

/** The paging parameters the tool sets itself, in lower case. */
const PAGING = new Set(["pagenumber", "pagesize"]);

/** `search` with the tool's own `PageSize` and `PageNumber`. */
function paged(search: string, page: number): string {
  const q = new URLSearchParams(search);
  q.set("PageSize", String(READ_PAGE_ITEMS));
  q.set("PageNumber", String(page));
  return `?${q.toString()}`;
}

/** Reads `input` for `tc`'s tenant: a page of rows, or one record. */
async function read(tc: ToolContext, input: ReadInput, step: ToolStep) {
  const { path } = input;
  const m = matchOperation("GET", path);
  step.operation = m.kind === "operation" ? m.op.key : `GET ${path}`;
  if (Object.keys(input.query ?? {}).some((k) => PAGING.has(k.toLowerCase())))
    throw new ToolRefusal(
      `read pages lists itself (${READ_PAGE_ITEMS} rows a call): leave PageNumber and PageSize out, and pass nextCursor to go on.`,
    );
  const base = searchOf(input.query);
  const key = path + base;
  const start: Position | null = input.cursor
    ? positionOf(input.cursor, key)
    : { read: key, page: 1, offset: 0 };
  if (!start)
    throw new ToolRefusal(
      "This cursor is not one of this read: pass it with the path and query it came with.",
    );
  const isPaged = m.kind === "operation" && queryOf(m.op.key)?.paged === true;
  const search = isPaged ? paged(base, start.page) : base;
  const res = await tc.port.send({ method: "GET", path, search, json: null }, step.run);
  const refused = await apiRefusal(res, `GET ${path}`);
  if (refused) throw refused;
  const type = mediaType(res.headers);
  if (res.status !== 204 && !isJsonType(type)) {
    await res.body?.cancel();
    throw new ToolRefusal(
      `GET ${path} answers a file (${type || "no content type"}), not JSON, which read cannot pass on: the person downloads it through /v2 with the gateway key.`,
    );
  }
  const text = res.status === 204 ? "" : await res.text();
  const body: unknown = text ? JSON.parse(text) : null;
  if (!Array.isArray(body)) {
    if (text.length > READ_MAX_CHARS)
      throw new ToolRefusal(
        `The record is ${text.length} characters, more than the ${READ_MAX_CHARS} one read answers: ask for fewer properties with the Fields query parameter (e.g. { "Fields": "Id,Name" }).`,
      );
    const none = isPaged || res.status === 204;
    return structured({
      path,
      status: res.status,
      data: none && body === null ? [] : body,
      rows: none && body === null ? 0 : null,
      totalCount: none && body === null ? 0 : null,
      nextCursor: null,
      trimmed: false,
      note: none && body === null ? "No rows." : "One record.",
    });
  }
  const rows = fitting(body, start.offset);
  if (rows.length === 0 && body.length > start.offset)
    throw new ToolRefusal(
      `One row alone is more than the ${READ_MAX_CHARS} characters one read answers: ask for fewer properties with the Fields query parameter.`,
    );
  const endOfPage = start.offset + rows.length >= body.length;
  const totals = listPage(res.headers.get("x-pagination"));
  const more = isPaged
    ? totals.totalPages !== null
      ? start.page < totals.totalPages
      : body.length >= READ_PAGE_ITEMS
    : false;
  const next: Position | null = !endOfPage
    ? { read: key, page: start.page, offset: start.offset + rows.length }
    : more
      ? { read: key, page: start.page + 1, offset: 0 }
      : null;
  const first = (isPaged ? (start.page - 1) * READ_PAGE_ITEMS : 0) + start.offset + 1;
  const of = totals.totalCount !== null ? ` of ${totals.totalCount}` : "";
  const note = [
    rows.length === 0 ? "No rows." : `Rows ${first} to ${first + rows.length - 1}${of}.`,
    endOfPage
      ? ""
      : `The rest of this page was left out: one answer holds at most ${READ_MAX_CHARS} characters.`,
    next
      ? "There are more: call read again with the same path and query and nextCursor."
      : "That is the end of the list.",
  ]
    .filter(Boolean)
    .join(" ");
  return structured({
    path,
    status: res.status,
    data: rows,
    rows: rows.length,
    totalCount: totals.totalCount,
    nextCursor: next && cursorOf(next),
    trimmed: !endOfPage,
    note,
  });
}

export function registerReadTool(server: McpServer, tc: ToolContext): void {
  server.registerTool(
    "read",
    {
      title: "Read the books",
      description: `Any GET of the accounting API v2 for this tenant (find one with search_operations; its filters with describe_operation). A list comes ${READ_PAGE_ITEMS} rows a call, and an answer holds at most ${READ_MAX_CHARS} characters; the answer says how many rows it holds and gives nextCursor for the rest, so nothing is cut silently. Each call goes through the gateway's shared rate limit.`,
      inputSchema: ReadInput,
      outputSchema: ReadAnswer,
      annotations: READ_HINTS,
    },
    (input) => guarded(tc, "read", (step) => read(tc, input, step)),
  );
}
