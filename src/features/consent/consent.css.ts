import { style } from '@vanilla-extract/css';
import { media, vars } from '#src/styles/theme.css.ts';

export const banner = style({
  position: 'fixed',
  insetInline: vars.space[2],
  bottom: vars.space[2],
  zIndex: vars.zIndex.dialog,
  maxHeight: 'calc(100vh - 1rem)',
  overflowY: 'auto',
  padding: vars.space[5],
  borderRadius: vars.radius.xl,
  border: `1px solid ${vars.color.gray[300]}`,
  backgroundColor: vars.color.background,
  boxShadow: vars.shadow.lg,
  outline: 'none',
  '@media': {
    [media.md]: { insetInline: 'auto', right: vars.space[4], bottom: vars.space[4], width: '34rem', padding: vars.space[6] },
  },
});

export const title = style({ fontSize: vars.fontSize.lg, color: vars.color.primary[900] });
export const text = style({ marginTop: vars.space[2], fontSize: vars.fontSize.sm, color: vars.color.gray[700] });

/** Refuse, customise and accept: the same size and weight (refusing is as easy as accepting). */
export const actions = style({
  display: 'grid',
  gap: vars.space[2],
  marginTop: vars.space[4],
  gridTemplateColumns: '1fr',
  '@media': { [media.sm]: { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' } },
});

export const categories = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
  marginTop: vars.space[4],
  border: 0,
  padding: 0,
  marginInline: 0,
});
export const category = style({
  display: 'grid',
  gridTemplateColumns: 'auto minmax(0, 1fr)',
  gap: vars.space[3],
  alignItems: 'start',
  padding: vars.space[3],
  borderRadius: vars.radius.lg,
  backgroundColor: vars.color.surface,
});
export const checkbox = style({ width: '1.25rem', height: '1.25rem', marginTop: '0.125rem', accentColor: vars.color.accent });
export const categoryTitle = style({ fontWeight: vars.fontWeight.semibold, fontSize: vars.fontSize.sm });
export const categoryText = style({ fontSize: vars.fontSize.sm, color: vars.color.gray[700] });
