/**
 * @module The order run's JSON client of the API v2: each call checked against the catalog before
 * it is sent, logged as the run's, and each failure sorted into retryable or not.
 */
import type { z } from "zod";
import { matchOperation, type Operation } from "../../shared/v2/catalog";
import { readConfig, type Bindings } from "../kernel/config";
import { Problem } from "../kernel/problem";
import { loggedUpstream } from "../request-log/upstream";
import { parseTenantName, type TenantName } from "../kernel/stubs";
import { fieldErrors } from "../kernel/validate";

/** How long one call of a run may take, waiting for a permit included, ms. */
const RUN_CALL_DEADLINE_MS = 30_000;
const MAX_ISSUES_SHOWN = 5;

export interface Reply {
  /** The catalog's name, e.g. `GET /Customers`: no ids or query, so no buyer's e-mail. */
  operation: string;
  status: number;
  body: unknown;
  /** The ProblemDetails' detail or title, or the body's text. */
  detail: string;
}

/** A failed call: `retryable` ones run the step again after a back-off; others fail the run. */
export class RunError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "RunError";
  }
}

export interface RunApi {
  call(method: "GET" | "DELETE", path: string): Promise<Reply>;
  /**
   * `Body` must be stated (`NoInfer` and the `never` default), as the shared schema's type.
   * @example api.call<z.input<typeof ProductPost>>("POST", "/Products", { Code: "V", Name: "D" })
   */
  call<Body extends object = never>(
    method: "POST" | "PATCH",
    path: string,
    body: NoInfer<Body>,
  ): Promise<Reply>;
  readonly calls: number;
  /** What names its calls in the request log: the run's instance id. */
  readonly runId: string;
}

/**
 * The first few zod issues as one line of `path: message`.
 * @example describeIssues(error) // "MailAddress.CountryCode: must be an ISO 3166-1 alpha-2 code"
 */
export function describeIssues(error: z.ZodError): string {
  const all = fieldErrors(error);
  const shown = all
    .slice(0, MAX_ISSUES_SHOWN)
    .map((e) => `${e.path}: ${e.message}`)
    .join("; ");
  return all.length > MAX_ISSUES_SHOWN
    ? `${shown}; and ${all.length - MAX_ISSUES_SHOWN} more`
    : shown;
}

/** The catalog's operation of a call, its body checked; a refusal is the run's own bug. */
function checkedOperation(method: string, path: string, body: unknown): Operation {
  const match = matchOperation(method, path);
  if (match.kind !== "operation")
    throw new RunError(
      `${method} ${path} is not an operation of the API v2 catalog; nothing was sent.`,
      false,
    );
  const op = match.op;
  if (body === undefined) return op;
  if (op.schema === null)
    throw new RunError(`${op.key} takes no JSON body; nothing was sent.`, false);
  const parsed = op.schema.safeParse(body);
  if (!parsed.success)
    throw new RunError(
      `${op.key}: the body fails the API's schema, so nothing was sent: ${describeIssues(parsed.error)}`,
      false,
    );
  return op;
}

function detailOf(body: unknown, text: string): string {
  if (body && typeof body === "object") {
    const entries = Object.entries(body);
    const field = (name: string) => entries.find(([k]) => k.toLowerCase() === name)?.[1];
    const d = field("detail") ?? field("title") ?? field("message");
    if (typeof d === "string") return d;
  }
  return text.slice(0, 300);
}

/**
 * The run's client for `tenant` under `registration`; `runId` names its calls in the log, with
 * the runs it `served` when its calls are shared.
 * @throws RunError (not retryable) when `tenant` is not a tenant name.
 */
export function runApi(
  env: Bindings,
  tenant: TenantName,
  registration: string,
  runId: string,
  served?: string[],
): RunApi {
  const name = parseTenantName(tenant);
  if (!name.ok) throw new RunError(name.error, false);
  const { environment } = name.value;
  const config = readConfig(env).environments[environment];
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    runId,
    async call(
      method: "GET" | "DELETE" | "POST" | "PATCH",
      path: string,
      body?: unknown,
    ): Promise<Reply> {
      // Retryable: the operator may add the environment's keys while the step backs off.
      if (!config.ok) throw new RunError(config.detail, true);
      const [p = path, search = ""] = path.split("?", 2);
      const op = checkedOperation(method, p, body);
      const headers = new Headers({
        accept: "application/json",
        "user-agent": "ledgergate-orders",
      });
      if (body !== undefined)
        headers.set(
          "content-type",
          op.body === "json-patch" ? "application/json-patch+json" : "application/json",
        );
      calls++;
      const buffer =
        body === undefined
          ? null
          : (new TextEncoder().encode(JSON.stringify(body)).buffer as ArrayBuffer);
      let res: Response;
      try {
        res = await loggedUpstream(
          {
            env,
            environment,
            config: config.config,
            tenant,
            credential: { registration, run: runId },
          },
          {
            method,
            path: p,
            search: search ? `?${search}` : "",
            headers,
            body: buffer,
            deadline: Date.now() + RUN_CALL_DEADLINE_MS,
          },
          { kind: "order-run", id: runId, ...(served ? { served } : {}) },
        );
      } catch (e) {
        // A refused key or a registration gone does not mend by retrying.
        if (e instanceof Problem)
          throw new RunError(
            `${method} ${p}: ${e.detail}`,
            e.type !== "credentials-rejected" && e.type !== "not-found",
          );
        throw e;
      }
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      const reply: Reply = {
        operation: op.key,
        status: res.status,
        body: parsed,
        detail: detailOf(parsed, text),
      };
      if (res.status >= 500 || res.status === 429 || res.status === 408)
        throw new RunError(`${method} ${p} answered ${res.status}: ${reply.detail}`, true);
      return reply;
    },
  };
}

/** `reply` when it has an `expected` status; else a non-retryable `RunError`. */
export function expectStatus(reply: Reply, what: string, ...expected: number[]): Reply {
  if (expected.includes(reply.status)) return reply;
  throw new RunError(`${what} answered ${reply.status}: ${reply.detail}`, false);
}

/** Whether a 400 says `field` is taken (the API's duplicate protection). */
export function isDuplicate(reply: Reply, field: "ExternalImportReference" | "Code"): boolean {
  return (
    reply.status === 400 &&
    new RegExp(`\\b${field} is already in use`, "i").test(
      `${reply.detail} ${JSON.stringify(reply.body ?? "")}`,
    )
  );
}
