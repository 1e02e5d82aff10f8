import { style } from '@vanilla-extract/css';
import { media, vars } from '#src/styles/theme.css.ts';

export const header = style({
  position: 'sticky',
  top: 0,
  zIndex: vars.zIndex.header,
  backgroundColor: vars.color.background,
  borderBottom: `1px solid ${vars.color.gray[200]}`,
});

export const skipLink = style({
  position: 'absolute',
  insetInlineStart: vars.space[2],
  top: vars.space[2],
  zIndex: vars.zIndex.dialog,
  padding: `${vars.space[2]} ${vars.space[4]}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.accent,
  color: vars.color.accentText,
  transform: 'translateY(-200%)',
  selectors: { '&:focus, &:focus-visible': { transform: 'translateY(0)', color: vars.color.accentText } },
});

export const bar = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space[4],
  minHeight: vars.size.header,
});

export const brand = style({
  fontFamily: vars.font.heading,
  fontSize: vars.fontSize.xl,
  fontWeight: vars.fontWeight.bold,
  color: vars.color.primary[800],
  textDecoration: 'none',
  whiteSpace: 'nowrap',
  selectors: { '&:hover': { color: vars.color.primary[900] } },
});

export const desktopNav = style({ display: 'none', '@media': { [media.lg]: { display: 'block' } } });

export const navList = style({ display: 'flex', alignItems: 'center', gap: vars.space[1], margin: 0, padding: 0, listStyle: 'none' });

export const navItem = style({ position: 'relative' });

export const navLink = style({
  display: 'inline-flex',
  alignItems: 'center',
  minHeight: '2.5rem',
  paddingInline: vars.space[3],
  borderRadius: vars.radius.md,
  color: vars.color.gray[700],
  fontWeight: vars.fontWeight.medium,
  textDecoration: 'none',
  selectors: {
    '&:hover': { color: vars.color.primary[800], backgroundColor: vars.color.primary[50] },
    '&[aria-current="page"]': { color: vars.color.primary[800], textDecoration: 'underline', textUnderlineOffset: '0.4em' },
  },
});

export const withChildren = style({ display: 'flex', alignItems: 'center' });

export const submenuToggle = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '1.75rem',
  height: '2.5rem',
  border: 0,
  borderRadius: vars.radius.md,
  background: 'transparent',
  color: vars.color.gray[700],
  cursor: 'pointer',
  selectors: { '&:hover': { backgroundColor: vars.color.primary[50] } },
});

export const chevron = style({
  width: '0.75rem',
  height: '0.75rem',
  transition: `transform ${vars.duration.fast}`,
  selectors: { [`${submenuToggle}[aria-expanded="true"] &`]: { transform: 'rotate(180deg)' } },
});

export const submenu = style({
  display: 'none',
  position: 'absolute',
  top: '100%',
  insetInlineStart: 0,
  minWidth: '14rem',
  margin: 0,
  padding: vars.space[2],
  listStyle: 'none',
  backgroundColor: vars.color.background,
  border: `1px solid ${vars.color.gray[200]}`,
  borderRadius: vars.radius.lg,
  boxShadow: vars.shadow.lg,
  selectors: {
    [`${navItem}:hover > &, ${navItem}[data-open="true"] > &`]: { display: 'block' },
  },
});

export const submenuLink = style([navLink, { display: 'flex', width: '100%' }]);

export const actions = style({ display: 'none', alignItems: 'center', gap: vars.space[2], '@media': { [media.lg]: { display: 'flex' } } });

export const mobileOnly = style({ '@media': { [media.lg]: { display: 'none' } } });
