import { style } from '@vanilla-extract/css';
import { media, vars } from '#src/styles/theme.css.ts';

/** « Aujourd’hui » (issue 63): the card's head, the scope toggle, the groups and their items. */
export const head = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: vars.space[3] });
export const toggle = style({
  display: 'inline-flex',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.full,
  overflow: 'hidden',
});
export const toggleButton = style({
  border: 0,
  background: 'transparent',
  padding: `${vars.space[2]} ${vars.space[4]}`,
  fontSize: vars.fontSize.sm,
  color: vars.color.text,
  cursor: 'pointer',
  minHeight: '2.75rem',
  selectors: {
    '&[aria-pressed="true"]': { backgroundColor: vars.color.primary[700], color: vars.color.white, fontWeight: vars.fontWeight.semibold },
    '&:focus-visible': { outline: `2px solid ${vars.color.primary[700]}`, outlineOffset: '-4px' },
  },
});
export const groups = style({
  display: 'grid',
  gap: vars.space[4],
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.lg]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});
export const group = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[2],
  paddingTop: vars.space[3],
  borderTop: `1px solid ${vars.color.border}`,
  minWidth: 0,
});
export const groupHead = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'baseline',
  justifyContent: 'space-between',
  gap: vars.space[2],
});
export const groupTitle = style({ margin: 0, fontSize: vars.fontSize.base, fontWeight: vars.fontWeight.semibold });
export const items = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space[2] });
export const item = style({ display: 'flex', flexDirection: 'column', gap: '0.125rem', overflowWrap: 'anywhere' });
export const when = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm });
