/**
 * @module
 * The budget chart's geometry: permits per second over the last minute as bars in a fixed
 * viewBox, with the API's limit as a line. Pure numbers; the page draws them as inline SVG, so the
 * chart needs no script and no asset.
 */

/** The chart's drawing area, in viewBox units (the SVG scales to the page's width). */
export const CHART = { width: 300, height: 100 } as const;

/** One bar: its box in viewBox units and the count it stands for. */
export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  count: number;
}

/**
 * Bars for `perSecond` (oldest first) and the y of the limit line. The scale tops out at the limit
 * or the highest bar, whichever is higher, so a burst over the limit (several isolates' sandbox
 * tests, or a lifted limit) still fits.
 */
export function chartOf(
  perSecond: number[],
  limit: number,
): { bars: Bar[]; limitY: number; top: number } {
  const top = Math.max(limit, ...perSecond, 1);
  const slot = CHART.width / Math.max(perSecond.length, 1);
  const bars = perSecond.map((count, i) => {
    const height = (count / top) * CHART.height;
    return { x: i * slot, y: CHART.height - height, width: Math.max(slot - 1, 0.5), height, count };
  });
  return { bars, limitY: CHART.height - (limit / top) * CHART.height, top };
}
