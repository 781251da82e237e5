/**
 * @module
 * The watcher's part of a tenant's events page (docs/events.md, "The watcher").
 */
import { when } from "../../console/views";
import type { WatcherView } from "./view";

/** Seconds, as a person reads them. */
const seconds = (s: number | null) =>
  s === null ? "–" : `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;

export function WatcherSection(p: { watcher: WatcherView }) {
  const w = p.watcher;
  return (
    <section id="watcher">
      <h2>Changes made elsewhere</h2>
      {w.state === "off" ? (
        <p>Not watched: no endpoint takes a customer, product or outgoing invoice event.</p>
      ) : (
        <dl>
          <dt>Polled</dt>
          <dd>{`${w.polls.join(", ")}, every ${seconds(w.cycleSeconds)}`}</dd>
          <dt>Detection delay, expected</dt>
          <dd>{`${seconds(w.expectedDelaySeconds)} on average, ${seconds(w.worstDelaySeconds)} at most`}</dd>
          <dt>Detection delay, measured</dt>
          <dd>
            {w.measuredDelaySeconds === null
              ? "no change found yet"
              : `${seconds(w.measuredDelaySeconds)} (the longest of the cycle at ${when(w.measuredAt)})`}
          </dd>
          <dt>Last cycle</dt>
          <dd>
            {w.lastCycle
              ? `${when(w.lastCycle.at)}: ${w.lastCycle.calls} calls, ${w.lastCycle.changes} new changes, ${w.lastCycle.outcome}`
              : "none yet"}
          </dd>
          <dt>Next cycle</dt>
          <dd>{when(w.nextCycleAt)}</dd>
        </dl>
      )}
    </section>
  );
}
