import { globalStyle, style } from '@vanilla-extract/css';
import { media, vars } from '#src/styles/theme.css.ts';

/* A member's file on one screen (issue 63 point 2, decision 209): the header, the tabs' bar. */

export const header = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
  padding: vars.space[5],
  backgroundColor: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
});
export const headline = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: `${vars.space[1]} ${vars.space[3]}` });
export const facts = style({ margin: 0, color: vars.color.textMuted });
/** Label and value pairs, two columns of pairs on a wide screen. */
export const fields = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: `${vars.space[2]} ${vars.space[6]}`,
  margin: 0,
  '@media': { [media.lg]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});
export const field = style({ display: 'flex', flexDirection: 'column', gap: '0.125rem', minWidth: 0 });
globalStyle(`${field} dt`, { color: vars.color.textMuted, fontSize: vars.fontSize.sm });
globalStyle(`${field} dd`, { margin: 0, overflowWrap: 'anywhere' });

/** The tabs' bar: stays in view while the tab's content scrolls. */
export const tabBar = style({
  position: 'sticky',
  top: 0,
  zIndex: 1,
  backgroundColor: vars.color.background,
  borderBottom: `1px solid ${vars.color.border}`,
  overflowX: 'auto',
});
export const tabList = style({ display: 'flex', gap: vars.space[1], margin: 0, padding: 0, listStyle: 'none' });
export const tab = style({
  display: 'inline-block',
  whiteSpace: 'nowrap',
  padding: `${vars.space[3]} ${vars.space[3]}`,
  minHeight: '2.75rem',
  color: vars.color.text,
  textDecoration: 'none',
  borderBottom: '3px solid transparent',
  selectors: {
    '&[aria-current="page"]': { borderBottomColor: vars.color.accent, fontWeight: vars.fontWeight.semibold },
    '&:hover': { backgroundColor: vars.color.surface },
    '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: '-2px' },
  },
});
export const panel = style({ display: 'flex', flexDirection: 'column', gap: vars.space[6], minWidth: 0 });
/** The statechart, folded by default. */
export const fold = style({ display: 'flex', flexDirection: 'column', gap: vars.space[3] });
export const foldSummary = style({ cursor: 'pointer', fontWeight: vars.fontWeight.semibold, minHeight: '2.75rem', display: 'list-item' });
