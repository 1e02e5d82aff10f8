import type { ReactNode } from 'react';

/**
 * A cell of a `stackedTable` (dashboard.css.ts): on a phone the rows become cards and each cell
 * names its column from `label`; the inner block keeps the cell's content together beside that name.
 */
export function StackedCell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <td data-label={label}>
      <div>{children}</div>
    </td>
  );
}
