/**
 * A plain table of records: a column is a heading and how to show a record's cell. Long lists show
 * their first `limit` rows (the views are sorted worst first) and say how many more there are.
 * Each cell carries its heading (`data-label`): on a narrow screen the rows are stacked cards and
 * the stylesheet shows the heading beside the value.
 */
import type { ComponentChildren } from 'preact';

export interface Column<T> {
  heading: string;
  cell: (row: T) => ComponentChildren;
  numeric?: boolean;
}

export function DataTable<T>({
  rows,
  columns,
  empty,
  testId,
  limit = 15,
}: {
  rows: T[];
  columns: Column<T>[];
  empty: string;
  testId?: string;
  limit?: number;
}) {
  // The test id marks the table or its empty state: either is the section, loaded.
  if (rows.length === 0)
    return (
      <p class="empty" data-testid={testId}>
        {empty}
      </p>
    );
  const shown = rows.slice(0, limit);
  return (
    <>
      <table class="grid" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.heading} class={column.numeric ? 'num' : undefined}>
                {column.heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((row, i) => (
            <tr key={i}>
              {columns.map((column) => (
                <td key={column.heading} class={column.numeric ? 'num' : undefined} data-label={column.heading}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > shown.length ? <p class="muted">and {rows.length - shown.length} more</p> : null}
    </>
  );
}
