/**
 * @module
 * Runs a list of upstream calls a few at a time, and starts no more once one has failed: what the
 * code lookups of one body use (`code-refs.ts`), so a lookup refused or broken early does not
 * leave the rest of a long list still to be sent for an answer that is already decided.
 */

/** What came of the runs that started: their results in list order, and the first throw, if any. */
export interface Runs<R> {
  results: R[];
  /** Set when a run threw: the caller rethrows it (the others have settled by then). */
  thrown?: { error: unknown };
}

/**
 * Runs `run` over `items` with at most `limit` in flight. Once a run throws or returns a result
 * `failed` accepts, no further item is started; those already in flight are awaited (a sent call
 * cannot be unsent, and a promise left running would outlive its request), so when this returns
 * nothing of the list is still going.
 *
 * @param items what to run, in order
 * @param limit most runs in flight at once (at least 1)
 * @param run one run
 * @param failed whether a result stops the list
 * @returns the results of the runs that started, in list order, and the first throw
 * @example await boundedRuns(asks, 4, (a) => deps.lookup(a.target, a.codes), (x) => !x.ok)
 */
export async function boundedRuns<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<R>,
  failed: (result: R) => boolean,
): Promise<Runs<R>> {
  const results = new Map<number, R>();
  const state: { next: number; stop: boolean; thrown?: { error: unknown } } = {
    next: 0,
    stop: false,
  };
  const lane = async (): Promise<void> => {
    while (!state.stop && state.next < items.length) {
      const i = state.next++;
      try {
        const result = await run(items[i] as T);
        results.set(i, result);
        if (failed(result)) state.stop = true;
      } catch (error) {
        state.stop = true;
        state.thrown ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  const done = [...results].sort(([a], [b]) => a - b).map(([, r]) => r);
  return state.thrown ? { results: done, thrown: state.thrown } : { results: done };
}
