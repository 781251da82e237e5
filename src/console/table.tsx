/**
 * @module
 * The console's one data table: column headers (`scope="col"`, so a screen reader names each cell
 * by its column) and plain cells. Pages state only their columns and rows.
 */
import type { Child } from "hono/jsx";

/** A table's columns and rows; each row holds one cell per column, in the same order. */
export interface TableProps {
  columns: string[];
  rows: Child[][];
  /**
   * Wrap the table in `.scroll`, so a wide table scrolls inside its box and the page still fits a
   * 360 px wide phone. Default true; a table of two narrow columns can do without.
   */
  scroll?: boolean;
}

/**
 * A data table.
 * @example <Table columns={["Tenant", "Waiting"]} rows={[["demo:acme", 2]]} />
 */
export function Table(p: TableProps) {
  const table = (
    <table>
      <thead>
        <tr>
          {p.columns.map((c) => (
            <th scope="col">{c}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {p.rows.map((row) => (
          <tr>
            {row.map((cell) => (
              <td>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return p.scroll === false ? table : <div class="scroll">{table}</div>;
}
