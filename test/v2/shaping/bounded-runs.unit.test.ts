import { describe, expect, it } from "vitest";
import { boundedRuns } from "../../../src/v2/shaping/bounded-runs";

/** A run that settles when told to, recording when it started. */
function gate() {
  const started: number[] = [];
  const release = new Map<number, (ok: boolean) => void>();
  const run = (i: number) => {
    started.push(i);
    return new Promise<{ i: number; ok: boolean }>((resolve) =>
      release.set(i, (ok) => resolve({ i, ok })),
    );
  };
  return { started, release, run };
}

describe("boundedRuns", () => {
  it("keeps at most `limit` in flight and answers every result in list order", async () => {
    const g = gate();
    const done = boundedRuns([0, 1, 2, 3, 4], 2, g.run, (r) => !r.ok);
    await Promise.resolve();
    expect(g.started).toEqual([0, 1]);
    g.release.get(1)?.(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(g.started).toEqual([0, 1, 2]);
    for (const i of [0, 2]) g.release.get(i)?.(true);
    await new Promise((r) => setTimeout(r, 0));
    for (const i of [3, 4]) g.release.get(i)?.(true);
    const runs = await done;
    expect(runs.results.map((r) => r.i)).toEqual([0, 1, 2, 3, 4]);
    expect(runs.thrown).toBeUndefined();
  });

  it("starts nothing after a failed result, and waits for those in flight", async () => {
    const g = gate();
    const done = boundedRuns([0, 1, 2, 3, 4, 5], 2, g.run, (r) => !r.ok);
    await Promise.resolve();
    g.release.get(0)?.(false);
    await new Promise((r) => setTimeout(r, 0));
    g.release.get(1)?.(true);
    const runs = await done;
    expect(g.started).toEqual([0, 1]);
    expect(runs.results).toEqual([
      { i: 0, ok: false },
      { i: 1, ok: true },
    ]);
  });

  it("starts nothing after a throw, and hands the first throw back once the rest settled", async () => {
    const started: number[] = [];
    const runs = await boundedRuns(
      [0, 1, 2, 3],
      2,
      async (i) => {
        started.push(i);
        if (i === 0) throw new Error("lost");
        return i;
      },
      () => false,
    );
    expect(started).toEqual([0, 1]);
    expect(runs.results).toEqual([1]);
    expect(runs.thrown?.error).toEqual(new Error("lost"));
  });
});
