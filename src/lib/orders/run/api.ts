/**
 * @module
 * The order run's view of the API v2: JSON calls through the one upstream client (permits, tokens,
 * 401 renewal, 429 pauses), with the answer parsed and each failure sorted into "try the step
 * again later" or "this will not get better by retrying".
 */
import { environmentConfig, type Bindings } from "../../config";
import { Problem } from "../../problem";
import type { TenantName } from "../../tenant";
import { callUpstream } from "../../upstream/client";
import type { Environment } from "../../config";

/** How long one call of a run may take, waiting for a permit included, ms. */
const RUN_CALL_DEADLINE_MS = 30_000;

/** An answer of the API: status and parsed JSON body (null when empty). */
export interface Reply {
  status: number;
  body: unknown;
  /** The ProblemDetails' detail or title, or the body's text, for error messages. */
  detail: string;
}

/**
 * A failed call. `retryable` failures (no permit in time, timeouts, 5xx, 429) are thrown to the
 * Workflow engine, which runs the step again after its back-off; the others fail the run with
 * `message` as the reason a person reads.
 */
export class RunError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "RunError";
  }
}

/** A JSON client of the API for one tenant, counting its calls. */
export interface RunApi {
  call(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<Reply>;
  /** Upstream calls made so far (each spends the shared 10 req/s budget). */
  readonly calls: number;
}

function detailOf(body: unknown, text: string): string {
  if (body && typeof body === "object") {
    const entries = Object.entries(body as Record<string, unknown>);
    const field = (name: string) => entries.find(([k]) => k.toLowerCase() === name)?.[1];
    const d = field("detail") ?? field("title") ?? field("message");
    if (typeof d === "string") return d;
  }
  return text.slice(0, 300);
}

/** The run's client for `tenant`. */
export function runApi(env: Bindings, environment: Environment, tenant: TenantName): RunApi {
  const config = environmentConfig(env, environment);
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    async call(method, path, body) {
      if (!config.ok) throw new RunError(config.detail, true);
      const [p, search = ""] = path.split("?", 2);
      const headers = new Headers({ accept: "application/json", "user-agent": "ledgergate-orders" });
      if (body !== undefined) headers.set("content-type", "application/json");
      calls++;
      let res: Response;
      try {
        res = await callUpstream(
          { env, environment, config: config.config, tenant, gatewayKey: null },
          { method, path: p ?? path, search: search ? `?${search}` : "", headers, body: body === undefined ? null : (new TextEncoder().encode(JSON.stringify(body)).buffer as ArrayBuffer), deadline: Date.now() + RUN_CALL_DEADLINE_MS },
        );
      } catch (e) {
        if (e instanceof Problem) throw new RunError(`${method} ${p}: ${e.detail}`, e.type !== "credentials-rejected");
        throw e;
      }
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      const reply = { status: res.status, body: parsed, detail: detailOf(parsed, text) };
      if (res.status >= 500 || res.status === 429 || res.status === 408) throw new RunError(`${method} ${p} answered ${res.status}: ${reply.detail}`, true);
      return reply;
    },
  };
}

/** `reply` when it has one of the `expected` statuses; otherwise a non-retryable `RunError` naming the call. */
export function expectStatus(reply: Reply, what: string, ...expected: number[]): Reply {
  if (expected.includes(reply.status)) return reply;
  throw new RunError(`${what} answered ${reply.status}: ${reply.detail}`, false);
}

/** The rows of a list answer (204 and an empty body are no rows). */
export function rows<T = Record<string, unknown>>(reply: Reply): T[] {
  return reply.status === 204 || !Array.isArray(reply.body) ? [] : (reply.body as T[]);
}

/** Whether a 400 says `field` is taken (the API's duplicate protection: "ExternalImportReference is already in use"). */
export function isDuplicate(reply: Reply, field: "ExternalImportReference" | "Code"): boolean {
  return reply.status === 400 && new RegExp(`\\b${field} is already in use`, "i").test(`${reply.detail} ${JSON.stringify(reply.body ?? "")}`);
}
