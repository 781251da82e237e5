/**
 * @module
 * The request log as operators read it: the filters, the answer's schema, and each call's support
 * bundle in the form the API's provider asks for (never a key or token: the log holds none).
 */
import { z } from "zod";
import { RequestLogMode } from "../kernel/config";
import type { ApiClient } from "../tenant/registration";
import { CallerKind, type LoggedRow, type StatusFilter } from "./tenant-rows";

/** `?status=`: an exact status (`404`) or a class (`4xx`). */
export const StatusParam = z
  .string()
  .regex(/^([1-5]xx|[1-5][0-9]{2})$/, "an HTTP status (404) or a class (4xx)");

/** `?before=`: the cursor of the page before, a row's `cursor`. */
export const Cursor = z.string().regex(/^[0-9]{1,15}$/, "a cursor from an earlier page");

/** The filter a validated `?status=` stands for. */
export function statusFilter(status: string | undefined): StatusFilter {
  if (status === undefined) return null;
  return status.endsWith("xx") ? { class: Number(status[0]) } : { exact: Number(status) };
}

export const RequestView = z.strictObject({
  cursor: z.string().meta({ description: "Pass as `before` for the calls older than this one." }),
  requestId: z.string(),
  at: z.string(),
  method: z.string(),
  path: z.string().meta({ description: "Below the v2 root, without the query." }),
  queryNames: z.array(z.string()).meta({ description: "The query's names; values are not kept." }),
  status: z.int().meta({ description: "What the caller was answered." }),
  apiStatus: z.int().nullable().meta({ description: "The API's status; null: no answer of it." }),
  apiError: z.string().nullable().meta({ description: "The API's error body, at most 4 KiB." }),
  attempts: z.int(),
  permitWaitMs: z.int(),
  durationMs: z.int(),
  caller: z.strictObject({
    kind: CallerKind,
    id: z.string().nullable().meta({
      description:
        "A gateway key's: its hash's first 8 hex; an order run's: its instance id (a call shared by several runs: `voucher` and the voucher's reference, or `delivery checks of N runs`); the console's: the action (`mapping-check`, `offboarding`, `client-id`); an assistant's: its principal (`key:` and the key's 8 hex); `stripe`, a payout run's read of Stripe's API: the run's instance id.",
    }),
    served: z
      .array(z.string())
      .optional()
      .meta({ description: "The order runs a shared call served: their instance ids." }),
  }),
  requestBody: z
    .string()
    .nullable()
    .meta({ description: "A failed call's request body, at most 16 KiB; kept 7 days." }),
  supportBundle: z.string().meta({ description: "The call as the API's support asks for it." }),
});
export type RequestView = z.output<typeof RequestView>;

/** The tenant a support bundle names, as the API knows it and as the gateway does, and its API. */
export interface BundleContext {
  tenant: string;
  apiBaseUrl: string;
  apiClient: ApiClient | null;
  stripeBaseUrl: string | null;
}

/** Path segments that are object ids: numbers or GUIDs. */
const ID = /^([0-9]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** One call in the provider's form: client id, object ids, time, request URL and body, error. */
export function supportBundle(r: LoggedRow, ctx: BundleContext): string {
  // A call to Stripe is for Stripe's support, and names the account by nothing the API knows.
  if (r.caller.kind === "stripe")
    return [
      "A call to Stripe's API (not the accounting API), made by a payout run",
      `Gateway tenant: ${ctx.tenant}`,
      `Payout run: ${r.caller.id ?? "unknown"}`,
      `Time (UTC): ${new Date(r.at).toISOString()}`,
      `Request: ${r.method} ${ctx.stripeBaseUrl ?? ""}${r.path}${r.query.length === 0 ? "" : `?${r.query.map((n) => `${n}=…`).join("&")}`}`,
      `Status: ${r.apiStatus ?? `${r.status} (Stripe did not answer)`}`,
      `Error: ${r.apiError ?? "none"}`,
    ].join("\n");
  const ids = r.path.split("/").filter((s) => ID.test(s));
  const query = r.query.length === 0 ? "" : `?${r.query.map((n) => `${n}=…`).join("&")}`;
  const client = ctx.apiClient
    ? `${ctx.apiClient.id}${ctx.apiClient.name ? ` (${ctx.apiClient.name})` : ""}`
    : "not known yet (GET /ClientIntegrationInformation could not be read; listing the calls again tries again)";
  return [
    `Client id: ${client}`,
    `Gateway tenant: ${ctx.tenant}`,
    `Time (UTC): ${new Date(r.at).toISOString()}`,
    `Request: ${r.method} ${ctx.apiBaseUrl}${r.path}${query}`,
    `Object ids: ${ids.length === 0 ? "none" : ids.join(", ")}`,
    `Request id: ${r.requestId}`,
    `Caller: ${r.caller.id ? `${r.caller.kind} ${r.caller.id}` : r.caller.kind}`,
    `Status: ${r.apiStatus ?? `${r.status} (from the gateway; the API did not answer)`}`,
    `Request body: ${r.body ?? "none kept"}`,
    `Error: ${r.apiError ?? "none"}`,
  ].join("\n");
}

export function requestView(r: LoggedRow, ctx: BundleContext): RequestView {
  return {
    cursor: String(r.seq),
    requestId: r.requestId,
    at: new Date(r.at).toISOString(),
    method: r.method,
    path: r.path,
    queryNames: r.query,
    status: r.status,
    apiStatus: r.apiStatus,
    apiError: r.apiError,
    attempts: r.attempts,
    permitWaitMs: r.waitedMs,
    durationMs: r.durationMs,
    caller: r.caller,
    requestBody: r.body,
    supportBundle: supportBundle(r, ctx),
  };
}

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

/** `?limit=` as a page size: 1–`MAX_PAGE`, `DEFAULT_PAGE` when absent. */
export function pageSize(limit: string | undefined): number {
  const n = limit === undefined ? DEFAULT_PAGE : Number(limit);
  return Math.min(MAX_PAGE, Math.max(1, Number.isFinite(n) ? n : DEFAULT_PAGE));
}

/** A page of views and the cursor after it (null when the page was not full). */
export function requestPage(rows: LoggedRow[], limit: number, ctx: BundleContext) {
  const last = rows.at(-1);
  return {
    requests: rows.map((r) => requestView(r, ctx)),
    next: rows.length === limit && last ? String(last.seq) : null,
  };
}

/** What is recorded of each call now (`REQUEST_LOG`), so an empty page is not misread. */
export const Recording = RequestLogMode.meta({
  description:
    "What the gateway records of each call now (REQUEST_LOG): `calls` (rows and counters), `counters` (counters only, no rows), `off` (nothing).",
});
