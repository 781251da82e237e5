/**
 * @module
 * The "Show: all · state · …" links above a console list filtered by state (orders, payouts).
 */

/** Links to `base` and `base?state=s` for each state, the current one marked as the page. */
export function StateFilter(p: {
  base: string;
  states: readonly string[];
  current: string | null;
}) {
  return (
    <nav aria-label="Filter by state">
      <p>
        Show:{" "}
        <a href={p.base} aria-current={p.current === null ? "page" : undefined}>
          all
        </a>
        {p.states.map((s) => (
          <>
            {" · "}
            <a href={`${p.base}?state=${s}`} aria-current={p.current === s ? "page" : undefined}>
              {s}
            </a>
          </>
        ))}
      </p>
    </nav>
  );
}
