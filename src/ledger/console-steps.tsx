/** @module A run's steps on its page: one table per attempt, newest first. */
import { attemptsOf, plainError, stepResult } from "./run-display";
import { stepCalls, when } from "../console/views";
import type { OrderRunView } from "../orders/run-view";
import { Table } from "../console/table";

/** A run's steps by attempt; `failed` is the run's error (its step did not finish). */
export function Steps(p: {
  steps: OrderRunView["steps"];
  attempt: number;
  failed: OrderRunView["error"];
}) {
  const attempts = attemptsOf(p.steps, p.attempt);
  if (attempts.length === 0 && !p.failed) return <p>No steps finished yet.</p>;
  // The failed step never reports itself: it is shown from the run's error, in its attempt.
  if (p.failed && attempts.at(-1)?.attempt !== p.attempt)
    attempts.push({ attempt: p.attempt, steps: [] });
  return (
    <>
      {attempts.reverse().map((a) => (
        <section aria-label={`Attempt ${a.attempt}`}>
          {attempts.length > 1 || a.attempt > 1 ? <h3>{`Attempt ${a.attempt}`}</h3> : null}
          <Table
            columns={["Step", "Result", "Upstream calls", "Time"]}
            rows={[
              ...a.steps.map((s) => [s.name, stepResult(s), stepCalls(s.result), when(s.at)]),
              ...(p.failed && a.attempt === p.attempt
                ? [
                    [
                      p.failed.step,
                      <span class="error-text">{`failed: ${plainError(p.failed.detail)}`}</span>,
                      "–",
                      "–",
                    ],
                  ]
                : []),
            ]}
          />
        </section>
      ))}
    </>
  );
}
