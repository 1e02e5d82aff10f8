import { globalStyle, style } from '@vanilla-extract/css';
import { media, vars } from '#src/styles/theme.css.ts';

export const shell = style({ display: 'flex', flexDirection: 'column', minHeight: '100vh' });

export const main = style({ flex: '1 0 auto', outline: 'none' });

/* auth layout: a centred card */
export const authShell = style([shell, { backgroundColor: vars.color.primary[50] }]);

export const authTop = style({ display: 'flex', justifyContent: 'center', paddingBlock: vars.space[8] });

export const authBrand = style({
  fontFamily: vars.font.heading,
  fontSize: vars.fontSize['2xl'],
  fontWeight: vars.fontWeight.bold,
  color: vars.color.primary[800],
  textDecoration: 'none',
});

export const authMain = style([
  main,
  { display: 'flex', justifyContent: 'center', alignItems: 'flex-start', paddingInline: vars.space[4] },
]);

export const card = style({
  width: '100%',
  maxWidth: vars.size.card,
  padding: vars.space[6],
  backgroundColor: vars.color.background,
  borderRadius: vars.radius['2xl'],
  boxShadow: vars.shadow.md,
  border: `1px solid ${vars.color.gray[200]}`,
  '@media': { [media.sm]: { padding: vars.space[8] } },
});

export const authFoot = style({
  display: 'flex',
  justifyContent: 'center',
  gap: vars.space[4],
  paddingBlock: vars.space[8],
  fontSize: vars.fontSize.sm,
});

/* mon-compte layout */
export const accountBody = style({
  display: 'grid',
  gap: vars.space[6],
  paddingBlock: vars.space[8],
  /* A long unbroken string (a member's e-mail) wraps rather than widening the page past a phone's screen. */
  overflowWrap: 'anywhere',
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.md]: { gridTemplateColumns: '14rem minmax(0, 1fr)', gap: vars.space[10] } },
});

export const accountNav = style({ display: 'flex', flexDirection: 'column', gap: vars.space[2] });

export const accountNavTitle = style({
  fontSize: vars.fontSize.sm,
  color: vars.color.textMuted,
  fontFamily: vars.font.body,
  fontWeight: vars.fontWeight.medium,
});

export const accountNavList = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space[1],
  margin: 0,
  padding: 0,
  listStyle: 'none',
  '@media': { [media.md]: { flexDirection: 'column' } },
});

export const accountNavLink = style({
  display: 'flex',
  alignItems: 'center',
  minHeight: '2.5rem',
  paddingInline: vars.space[3],
  borderRadius: vars.radius.md,
  color: vars.color.gray[700],
  textDecoration: 'none',
  fontWeight: vars.fontWeight.medium,
  selectors: {
    '&:hover': { backgroundColor: vars.color.gray[100], color: vars.color.text },
    '&[aria-current="page"]': { backgroundColor: vars.color.primary[50], color: vars.color.primary[800] },
  },
});

/* dashboard layout: a minimal staff shell */
export const dashShell = style([shell, { backgroundColor: vars.color.gray[50] }]);

/**
 * The staff area is a working tool: one typeface for its page titles, card titles and the titles
 * of the dialogs it opens (portalled out of the shell, hence `body:has`), not the public site's
 * serif headings.
 */
globalStyle(`body:has(${dashShell}) :is(h1, h2, h3, h4)`, { fontFamily: vars.font.body });

export const dashBar = style({ backgroundColor: vars.color.gray[900], color: vars.color.gray[100] });

export const dashBarInner = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space[4], minHeight: '3.5rem' });

export const dashBrand = style({
  color: vars.color.white,
  fontWeight: vars.fontWeight.semibold,
  textDecoration: 'none',
  marginInlineEnd: 'auto',
});

/** Wraps on a phone: five entries do not fit in 390 px. */
export const dashNavList = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space[1], margin: 0, padding: 0, listStyle: 'none' });

export const dashLink = style({
  display: 'inline-flex',
  alignItems: 'center',
  minHeight: '2.5rem',
  paddingInline: vars.space[3],
  borderRadius: vars.radius.md,
  whiteSpace: 'nowrap',
  color: vars.color.gray[200],
  textDecoration: 'none',
  selectors: {
    '&:hover, &:visited:hover': { color: vars.color.white, backgroundColor: vars.color.gray[800] },
    '&:visited': { color: vars.color.gray[200] },
    '&[aria-current="page"]': { color: vars.color.white, backgroundColor: vars.color.gray[700] },
    '&:focus-visible': { outlineColor: vars.color.primary[300] },
  },
});

export const dashSignOut = style({
  minHeight: '2.5rem',
  paddingInline: vars.space[3],
  border: `1px solid ${vars.color.gray[600]}`,
  borderRadius: vars.radius.md,
  whiteSpace: 'nowrap',
  background: 'transparent',
  color: vars.color.gray[100],
  cursor: 'pointer',
  selectors: { '&:hover': { backgroundColor: vars.color.gray[800] }, '&:focus-visible': { outlineColor: vars.color.primary[300] } },
});

export const dashMain = style([main, { paddingBlock: vars.space[8] }]);
