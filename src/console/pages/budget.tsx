/**
 * @module
 * The shared budget: per environment, the last minute's permits per second as an inline SVG bar
 * chart against the limit, the last minute's permits per kind of lane (callers, assistants, the
 * watcher), who waits now in which lane, and the 429s. Reloads itself every 5 s (no script).
 */
import type { GovernorBudget } from "../../upstream/rate-governor";
import type { Environment } from "../../kernel/config";
import { splitLaneKey } from "../../upstream/rate/lanes";
import type { WatcherState } from "../../upstream/rate/watcher-room";
import type { Lane } from "../../upstream/client";
import { CHART, chartOf } from "../chart";
import { Layout } from "../layout";
import { Table } from "../table";

/** How often the page reloads, s. */
export const BUDGET_REFRESH_SECONDS = 5;

/** One environment's budget. */
export interface EnvironmentBudget {
  environment: Environment;
  limit: number;
  budget: GovernorBudget;
}

export function BudgetPage(p: { csrf: string; environments: EnvironmentBudget[] }) {
  return (
    <Layout title="Shared budget" csrf={p.csrf} refresh={BUDGET_REFRESH_SECONDS}>
      <h1>Shared budget</h1>
      <p>
        The accounting API allows {p.environments[0]?.limit ?? 10} calls a second per environment,
        shared by every tenant. This page reloads every {BUDGET_REFRESH_SECONDS} seconds.
      </p>
      {p.environments.map((e) => (
        <EnvironmentSection {...e} />
      ))}
    </Layout>
  );
}

function EnvironmentSection(e: EnvironmentBudget) {
  const { bars, limitY, top } = chartOf(e.budget.perSecond, e.limit);
  const last = e.budget.perSecond.at(-2) ?? 0;
  const waiting = Object.entries(e.budget.waitingByLane).sort(([a], [b]) => a.localeCompare(b));
  const minute = Object.values(e.budget.lastMinuteByLane).reduce((a, b) => a + b, 0);
  const label = `Permits per second, ${e.environment}`;
  return (
    <section aria-labelledby={`env-${e.environment}`}>
      <h2 id={`env-${e.environment}`}>{e.environment}</h2>
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        preserveAspectRatio="none"
      >
        <title>{`${label}: ${last} in the last full second, the limit is ${e.limit}`}</title>
        {bars.map((b) => (
          <rect
            class="bar"
            x={b.x.toFixed(2)}
            y={b.y.toFixed(2)}
            width={b.width.toFixed(2)}
            height={b.height.toFixed(2)}
          />
        ))}
        <line
          class="limit"
          x1="0"
          x2={String(CHART.width)}
          y1={limitY.toFixed(2)}
          y2={limitY.toFixed(2)}
        />
      </svg>
      <p class="muted">
        Last 60 seconds, oldest on the left. The dashed line is the limit ({e.limit}/s); the scale
        tops at {top}/s.
      </p>
      <dl>
        <dt>Last full second</dt>
        <dd>{`${last} permits`}</dd>
        <dt>Pace now</dt>
        <dd>{`${e.budget.state.perSecond.toFixed(2)} permits a second`}</dd>
        {e.budget.state.pausedForMs > 0 ? (
          <>
            <dt>Paused</dt>
            <dd>{`${Math.ceil(e.budget.state.pausedForMs / 1000)} s more, after a 429`}</dd>
          </>
        ) : null}
        <dt>429 answers</dt>
        <dd>{e.budget.throttled}</dd>
        <dt>Waiting now</dt>
        <dd>{e.budget.state.waiting}</dd>
        <dt>Watcher</dt>
        <dd>{watcherLine(e.budget.state.watcher)}</dd>
      </dl>
      <h3>Lanes</h3>
      <p class="muted">
        Callers and order runs, and assistants' tool calls (MCP), are the first class: each tenant's
        callers and its assistant are two lanes served in turn with every other tenant's. The
        watcher only takes what they leave, up to its share.
      </p>
      <Table
        columns={["Lane", "Permits, last minute", "Share", "Waiting now"]}
        rows={LANES.map(([lane, name]) => {
          const permits = e.budget.lastMinuteByLane[lane];
          return [name, permits, share(permits, minute), waitingIn(lane, waiting)];
        })}
        scroll={false}
      />
      <h3>Queue length per tenant and lane</h3>
      {waiting.length === 0 ? (
        <p>Nobody is waiting.</p>
      ) : (
        <Table
          columns={["Tenant", "Lane", "Waiting"]}
          rows={waiting.map(([key, n]) => {
            const { tenant, lane } = splitLaneKey(key);
            return [tenant, lane, n];
          })}
          scroll={false}
        />
      )}
    </section>
  );
}

/** The kinds of lane, in the order the page lists them, with their names on the page. */
const LANES: [Lane, string][] = [
  ["caller", "Callers and order runs"],
  ["assistant", "Assistants (MCP tools)"],
  ["watcher", "Watcher"],
];

/** `part` of `whole` as a whole percentage ("–" when nothing was granted). */
const share = (part: number, whole: number) =>
  whole === 0 ? "–" : `${Math.round((100 * part) / whole)} %`;

/** How many wait in lanes of kind `lane`, over every tenant. */
function waitingIn(lane: Lane, waiting: [string, number][]): number {
  return waiting.reduce((n, [key, w]) => n + (splitLaneKey(key).lane === lane ? w : 0), 0);
}

/** The watcher's places and back-off, in words. */
function watcherLine(w: WatcherState): string {
  if (w.places === 0) return "off (WATCHER_BUDGET_SHARE is 0)";
  const used = `${w.inWindow} of its ${w.places} places in the window`;
  return w.backedOffForMs > 0
    ? `${used}; backed off ${Math.ceil(w.backedOffForMs / 1000)} s more, after a 429`
    : used;
}
