import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

/** The member list of `/dashboard` (decision 210): filters, selection, bulk actions, sortable headers. */

export const head = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'baseline',
  justifyContent: 'space-between',
  gap: vars.space[3],
});
export const exportLink = style({ fontWeight: vars.fontWeight.semibold });
export const filters = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 12rem), 1fr))',
  gap: vars.space[3],
  alignItems: 'end',
});
export const notice = style({
  margin: 0,
  padding: vars.space[3],
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.successSurface,
  color: vars.color.success,
});
export const selectionBar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space[3],
  padding: `${vars.space[2]} 0`,
  borderTop: `1px solid ${vars.color.gray[200]}`,
});
export const bulkBar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space[2],
  border: 0,
  margin: 0,
  padding: 0,
  minWidth: 0,
});
export const checkLabel = style({ display: 'inline-flex', alignItems: 'center', gap: vars.space[2], minHeight: '2.75rem' });
export const checkbox = style({ width: '1.25rem', height: '1.25rem', margin: 0, accentColor: vars.color.accent });
export const checkCell = style({ width: '2.75rem' });
export const sortButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space[1],
  padding: 0,
  border: 0,
  background: 'none',
  font: 'inherit',
  fontWeight: vars.fontWeight.semibold,
  color: 'inherit',
  cursor: 'pointer',
  minHeight: '2.75rem',
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: '2px' } },
});
export const sortMark = style({ fontSize: vars.fontSize.xs, color: vars.color.textMuted });
export const tags = style({ display: 'inline-flex', flexWrap: 'wrap', gap: vars.space[1] });
export const fieldError = style({ color: vars.color.danger, fontSize: vars.fontSize.sm });
export const visuallyHidden = style({
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
});
globalStyle(`${checkCell} input`, { cursor: 'pointer' });
/** The header row: sortable and plain column names on one line. */
export const headRow = style({});
globalStyle(`${headRow} th`, { verticalAlign: 'middle' });
