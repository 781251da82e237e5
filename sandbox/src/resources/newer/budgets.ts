/**
 * @module
 * Budgets and their lines, shape-agnostic (no v2 shape is published). What the seed states, and
 * nothing more: `GET /Budget` and `/Budget/{id}` (singular, as the seed spells the reads) read what
 * `POST /Budgets` created; `PATCH` is JSON Patch; lines have ids of their own under
 * `/Budgets/{id}/Lines`; deleting a budget removes its lines.
 */
import { ok, type Ctx, type Handler, type Reply } from "../../engine/call";
import {
  createFromBody,
  freeDto,
  freeHandlers,
  patchFree,
  removeFree,
  withFree,
  type FreeSpec,
} from "../../engine/free";
import type { Stored } from "../../engine/store";
import type { Result } from "../../lib/problem";

const BUDGET: FreeSpec = { kind: "Budget", entity: "Budget", idType: "int" };
const LINE: FreeSpec = { kind: "BudgetLine", entity: "BudgetLine", idType: "int" };

const reads = freeHandlers(BUDGET, "/Budget", "id", ["GET"]);
const writes = freeHandlers(BUDGET, "/Budgets", "id", ["POST", "PATCH"]);

/** Runs `then` on line `{lineId}` of budget `{id}`; a line of another budget is not found. */
const onLine =
  (then: (ctx: Ctx, line: Stored) => Result<Reply>): Handler =>
  (ctx) =>
    withFree(ctx, BUDGET, "id", (budget) =>
      withFree(ctx, LINE, "lineId", (line) => then(ctx, line), budget.id),
    );

export const budgetHandlers: Record<string, Handler> = {
  ...reads,
  ...writes,
  "DELETE /Budgets/{id}": (ctx) =>
    withFree(ctx, BUDGET, "id", (r) => removeFree(ctx, BUDGET, r, [LINE.kind])),
  "POST /Budgets/{id}/Lines": (ctx) =>
    withFree(ctx, BUDGET, "id", (budget) => createFromBody(ctx, LINE, { parent: budget.id })),
  "GET /Budgets/{id}/Lines/{lineId}": onLine((_ctx, line) => ok(freeDto(LINE, line))),
  "PATCH /Budgets/{id}/Lines/{lineId}": onLine((ctx, line) => patchFree(ctx, LINE, line)),
};
