/** @module Runs upstream calls a few at a time, and starts no more once one has failed. */

/** The results of the runs that started, in list order, and the first throw, if any. */
export interface Runs<R> {
  results: R[];
  thrown?: { error: unknown };
}

/**
 * Runs `run` over `items`, at most `limit` in flight, until one throws or is `failed`. Those in
 * flight are awaited: a promise left running would outlive its request.
 *
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
