/**
 * @module
 * The shared budget: per environment, the last minute's permits per second as an inline SVG bar
 * chart against the limit, who waits now, and the 429s. Reloads itself every 5 s (no script).
 */
import type { GovernorBudget } from "../../../durable/rate-governor";
import type { WatcherState } from "../../../lib/rate/watcher-room";
import type { Environment } from "../../../lib/config";
import { CHART, chartOf } from "../../../lib/console/chart";
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

/** The budget page. */
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
      <h3>Queue length per lane</h3>
      <p class="muted">
        A tenant's callers and order runs wait under its name, its assistant under
        <code>#assistant</code>, its watcher under <code>#watcher</code>.
      </p>
      {waiting.length === 0 ? (
        <p>Nobody is waiting.</p>
      ) : (
        <Table columns={["Lane", "Waiting"]} rows={waiting} scroll={false} />
      )}
    </section>
  );
}

/** The watcher's places and back-off, in words. */
function watcherLine(w: WatcherState): string {
  if (w.places === 0) return "off (WATCHER_BUDGET_SHARE is 0)";
  const used = `${w.inWindow} of its ${w.places} places in the window`;
  return w.backedOffForMs > 0
    ? `${used}; backed off ${Math.ceil(w.backedOffForMs / 1000)} s more, after a 429`
    : used;
}
