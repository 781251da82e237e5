/**
 * @module
 * A tenant's request log page: the last calls, and a support bundle to copy for each failed one.
 * Nothing on it is secret: the log holds no key, no token and no query value.
 */
import type { Environment, RequestLogMode } from "../kernel/config";
import { tenantPath, when } from "../console/views";
import type { RequestView } from "./view";
import { CallerKind } from "./tenant-rows";
import { Layout } from "../console/layout";
import { Table } from "../console/table";
import { ToolCallsSection } from "../assistants/console/tool-calls";
import type { ToolCallRow } from "../assistants/tenant/tool-calls";

/** The filters offered as links besides every call. */
const FILTERS = ["4xx", "5xx", "404", "429"];

/** The page's address with these filters (and a cursor). */
function pageHref(
  base: string,
  q: { status?: string | null; caller?: string | null; before?: string },
) {
  const query = new URLSearchParams();
  if (q.status) query.set("status", q.status);
  if (q.caller) query.set("caller", q.caller);
  if (q.before) query.set("before", q.before);
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}

export interface RequestsPageProps {
  csrf: string;
  tenant: string;
  environment: Environment;
  client: string;
  status: string | null;
  /** One caller's calls only (null: every caller's but the watcher's). */
  caller: CallerKind | null;
  requests: RequestView[];
  next: string | null;
  recording: RequestLogMode;
  /** An assistant's last tool calls (the MCP server's audit). */
  toolCalls: ToolCallRow[];
}

/** What the page says when the log records less than every call (`REQUEST_LOG`). */
const NOT_RECORDING: Record<Exclude<RequestLogMode, "calls">, string> = {
  counters:
    "New calls are not recorded here: REQUEST_LOG=counters keeps only the counters (the operator's choice not to store call data). Calls recorded before stay until they are 7 days old.",
  off: "New calls are not recorded: REQUEST_LOG=off. Calls recorded before stay until they are 7 days old.",
};

export function RequestsPage(p: RequestsPageProps) {
  const base = tenantPath(p.environment, p.client, "/requests");
  const failed = p.requests.filter((r) => r.status >= 400);
  return (
    <Layout title={`Requests of ${p.tenant}`} csrf={p.csrf}>
      <h1>Requests</h1>
      <p class="muted">
        API calls of <a href={tenantPath(p.environment, p.client)}>{p.tenant}</a>, newest first: the
        last 1,000, at most 7 days back.
      </p>
      {p.recording !== "calls" && <p role="status">{NOT_RECORDING[p.recording]}</p>}
      <nav aria-label="Filter by status">
        <p>
          Show:{" "}
          <a
            href={pageHref(base, { caller: p.caller })}
            aria-current={p.status === null ? "page" : undefined}
          >
            all
          </a>
          {FILTERS.map((s) => (
            <>
              {" · "}
              <a
                href={pageHref(base, { status: s, caller: p.caller })}
                aria-current={p.status === s ? "page" : undefined}
              >
                {s}
              </a>
            </>
          ))}
        </p>
      </nav>
      <nav aria-label="Filter by caller">
        <p>
          Caller:{" "}
          <a
            href={pageHref(base, { status: p.status })}
            aria-current={p.caller === null ? "page" : undefined}
          >
            all but the watcher
          </a>
          {CallerKind.options.map((k) => (
            <>
              {" · "}
              <a
                href={pageHref(base, { status: p.status, caller: k })}
                aria-current={p.caller === k ? "page" : undefined}
              >
                {k}
              </a>
            </>
          ))}
        </p>
      </nav>
      {p.requests.length === 0 ? (
        <p>
          No calls{p.status ? ` with status ${p.status}` : ""}
          {p.caller ? ` by ${p.caller}` : ""} yet.
        </p>
      ) : (
        <Table
          columns={["Time", "Call", "Status", "API", "Attempts", "Wait", "Took", "Caller", "Id"]}
          rows={p.requests.map((r) => [
            when(r.at),
            `${r.method} ${r.path}`,
            r.status,
            r.apiStatus ?? "–",
            r.attempts,
            `${r.permitWaitMs} ms`,
            `${r.durationMs} ms`,
            callerText(r.caller),
            <a href={`#${r.requestId}`}>{r.requestId}</a>,
          ])}
        />
      )}
      {p.next && (
        <p>
          <a href={pageHref(base, { status: p.status, caller: p.caller, before: p.next })}>
            Older calls
          </a>
        </p>
      )}
      <ToolCallsSection calls={p.toolCalls} />
      {failed.length > 0 && <h2>Failed calls</h2>}
      {failed.map((r) => (
        <section id={r.requestId}>
          <h3>{`${r.status} ${r.method} ${r.path}`}</h3>
          <p class="muted">{`${when(r.at)} · request id ${r.requestId}`}</p>
          <label for={`bundle-${r.requestId}`}>Support bundle (select and copy)</label>
          <textarea id={`bundle-${r.requestId}`} readonly rows={10} cols={80}>
            {r.supportBundle}
          </textarea>
        </section>
      ))}
    </Layout>
  );
}

/** Who made a call, with how many runs a shared one served. */
function callerText(c: RequestView["caller"]): string {
  const who = c.id ? `${c.kind} ${c.id}` : c.kind;
  return c.served ? `${who}, for ${c.served.length} runs` : who;
}
