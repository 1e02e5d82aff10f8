import { style } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

/** The staff agenda (decision 122). */

export const toolbar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space[3],
});
export const group = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space[2] });
export const navLink = style({
  display: 'inline-block',
  padding: `${vars.space[1]} ${vars.space[3]}`,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.gray[200]}`,
  textDecoration: 'none',
  color: 'inherit',
  fontSize: vars.fontSize.sm,
  selectors: { '&[aria-current="page"]': { backgroundColor: vars.color.gray[100], fontWeight: vars.fontWeight.semibold } },
});
export const days = style({ display: 'flex', flexDirection: 'column', gap: vars.space[5] });
export const dayTitle = style({
  fontSize: vars.fontSize.base,
  fontWeight: vars.fontWeight.semibold,
  margin: 0,
  marginBottom: vars.space[2],
});
export const item = style({
  display: 'grid',
  // « 17 h 00 – 17 h 15 » on one line: the times of a day stay in one column.
  gridTemplateColumns: '10rem 1fr',
  gap: vars.space[3],
  padding: vars.space[3],
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.gray[200]}`,
  '@media': { 'screen and (max-width: 480px)': { gridTemplateColumns: '1fr' } },
});
export const time = style({ fontWeight: vars.fontWeight.semibold, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' });
export const body = style({ display: 'flex', flexDirection: 'column', gap: vars.space[1], minWidth: 0, overflowWrap: 'anywhere' });
