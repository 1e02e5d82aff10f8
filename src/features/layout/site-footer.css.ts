import { style } from '@vanilla-extract/css';
import { media, vars } from '#src/styles/theme.css.ts';

export const footer = style({
  marginTop: 'auto',
  paddingBlock: vars.space[12],
  backgroundColor: vars.color.primary[950],
  color: vars.color.gray[200],
});

export const grid = style({
  display: 'grid',
  gap: vars.space[8],
  gridTemplateColumns: '1fr',
  '@media': {
    [media.sm]: { gridTemplateColumns: 'repeat(2, 1fr)' },
    [media.lg]: { gridTemplateColumns: '2fr repeat(3, 1fr)' },
  },
});

export const brand = style({
  fontFamily: vars.font.heading,
  fontSize: vars.fontSize.xl,
  color: vars.color.white,
  fontWeight: vars.fontWeight.bold,
});

export const tagline = style({ marginTop: vars.space[2], fontSize: vars.fontSize.sm, color: vars.color.gray[300], maxWidth: '24rem' });

export const heading = style({
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.sm,
  fontWeight: vars.fontWeight.semibold,
  textTransform: 'uppercase',
  letterSpacing: '0.05em',
  color: vars.color.white,
  marginBottom: vars.space[3],
});

export const list = style({ display: 'flex', flexDirection: 'column', gap: vars.space[2], margin: 0, padding: 0, listStyle: 'none' });

export const link = style({
  color: vars.color.gray[200],
  textDecoration: 'none',
  fontSize: vars.fontSize.sm,
  selectors: {
    '&:hover, &:visited:hover': { color: vars.color.white, textDecoration: 'underline' },
    '&:visited': { color: vars.color.gray[200] },
    '&:focus-visible': { outlineColor: vars.color.primary[300] },
  },
});

export const cookieButton = style({
  padding: 0,
  border: 0,
  background: 'none',
  color: vars.color.gray[200],
  fontSize: vars.fontSize.sm,
  textAlign: 'start',
  cursor: 'pointer',
  selectors: {
    '&:hover': { color: vars.color.white, textDecoration: 'underline' },
    '&:focus-visible': { outlineColor: vars.color.primary[300] },
  },
});

export const bottom = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[2],
  marginTop: vars.space[10],
  paddingTop: vars.space[6],
  borderTop: `1px solid ${vars.color.primary[800]}`,
  fontSize: vars.fontSize.sm,
  color: vars.color.gray[300],
  '@media': { [media.md]: { flexDirection: 'row', justifyContent: 'space-between' } },
});
