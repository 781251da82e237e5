/**
 * @module
 * The one client of Stripe's API: read-only `GET`s with the tenant's restricted key. No permit of
 * the accounting API's governor: Stripe has its own limit. It shares the transport and the request
 * log (caller `stripe`). The key goes only in `Authorization`; key-shaped text in Stripe's errors
 * is replaced.
 */
import type { LoggedCall } from "../../request-log/tenant-rows";
import { API_ERROR_CHARS } from "../../request-log/tenant-rows";
import { readConfig, type Bindings } from "../../kernel/config";
import { queryNames, recordCall } from "../../request-log/record";
import type { TenantName } from "../../kernel/stubs";
import { exchange } from "../../upstream/transport";
import { STRIPE_API_VERSION, StripeErrorBody } from "./api";

/** The longest one Stripe call may take, ms: a page is answered in a second or two. */
export const STRIPE_TIMEOUT_MS = 20_000;
/** The most of an answer read, bytes: a page of 100 expanded transactions is ~300 KB. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export type StripeAnswer =
  | { kind: "ok"; status: number; body: unknown }
  /** Stripe refused the request (4xx other than 429): the same request will be refused again. */
  | { kind: "refused"; status: number; code: string | null; message: string }
  /** No answer, a 429 or a 5xx: the same request may pass later. */
  | { kind: "unavailable"; status: number | null; detail: string };

export interface StripeClient {
  /** `query` as pairs, since Stripe repeats `expand[]`. */
  get(path: string, query: [string, string][]): Promise<StripeAnswer>;
  readonly calls: number;
}

export interface StripeClientOptions {
  env: Bindings;
  tenant: TenantName;
  key: string;
  /** The payout run's instance id: it names the calls in the request log. */
  runId: string;
}

/** Any key-shaped text, masked or not (`rk_test_****1234`). */
const KEY_TEXT = /\b[rsp]k_(test|live)_[A-Za-z0-9*]+/g;

export const withoutKeys = (text: string) => text.replace(KEY_TEXT, "[key]");

/**
 * Its `get` throws only when `STRIPE_API_BASE_URL` is not an https:// URL (callers check first).
 *
 * @example const answer = await stripeClient(o).get("/v1/payouts/po_1", []);
 */
export function stripeClient(o: StripeClientOptions): StripeClient {
  const config = readConfig(o.env);
  const base = config.stripeApiBaseUrl;
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    async get(path, query) {
      if (base === null) throw new TypeError("STRIPE_API_BASE_URL is not an https:// URL");
      const search = query.length === 0 ? "" : `?${new URLSearchParams(query).toString()}`;
      const started = Date.now();
      calls++;
      const sent = await exchange(
        o.env,
        `${base}${path}${search}`,
        {
          method: "GET",
          headers: {
            authorization: `Bearer ${o.key}`,
            "stripe-version": STRIPE_API_VERSION,
            accept: "application/json",
            "user-agent": "ledgergate-payouts",
          },
        },
        STRIPE_TIMEOUT_MS,
      );
      const answer = sent.ok
        ? await read(sent.response)
        : ({
            kind: "unavailable",
            status: null,
            detail: sent.failure === "timeout" ? "Stripe did not answer in time" : "no connection",
          } as const);
      await log(o, {
        requestId: crypto.randomUUID(),
        at: started,
        method: "GET",
        path,
        query: queryNames(search),
        status: answer.status ?? (sent.ok ? 502 : sent.failure === "timeout" ? 504 : 502),
        apiStatus: answer.status,
        apiError:
          answer.kind === "ok"
            ? null
            : withoutKeys(
                answer.kind === "refused"
                  ? `${answer.code ?? "error"}: ${answer.message}`
                  : answer.detail,
              ).slice(0, API_ERROR_CHARS),
        attempts: 1,
        waitedMs: 0,
        durationMs: Math.max(0, Date.now() - started),
        caller: { kind: "stripe", id: o.runId.slice(0, 64) },
        body: null,
      });
      return answer;
    },
  };
}

/** The answer sorted; a body that is not JSON is Stripe's fault, tried again later. */
async function read(res: Response): Promise<StripeAnswer> {
  const text = await capped(res);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (res.status >= 200 && res.status < 300 && body !== null)
    return { kind: "ok", status: res.status, body };
  if (res.status === 429 || res.status >= 500 || res.status < 400)
    return { kind: "unavailable", status: res.status, detail: `Stripe answered ${res.status}` };
  const e = StripeErrorBody.safeParse(body);
  return {
    kind: "refused",
    status: res.status,
    code: e.success ? (e.data.error.code ?? e.data.error.type ?? null) : null,
    message: withoutKeys(
      e.success ? (e.data.error.message ?? `HTTP ${res.status}`) : `HTTP ${res.status}`,
    ),
  };
}

async function capped(res: Response): Promise<string> {
  const bytes = await res.arrayBuffer();
  return bytes.byteLength > MAX_ANSWER_BYTES ? "" : new TextDecoder().decode(new Uint8Array(bytes));
}

/** A row in `calls` mode only: the counters count the accounting API's budget, not Stripe's. */
async function log(o: StripeClientOptions, call: LoggedCall): Promise<void> {
  if (readConfig(o.env).requestLog !== "calls") return;
  await recordCall(o.env, o.tenant, call);
}
