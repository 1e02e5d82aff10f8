import { style } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

export const page = style({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space[4],
  minHeight: '100vh',
  padding: vars.space[6],
  textAlign: 'center',
  backgroundColor: vars.color.primary[50],
  outline: 'none',
});

export const brand = style({
  fontFamily: vars.font.heading,
  fontWeight: vars.fontWeight.bold,
  color: vars.color.primary[800],
  textDecoration: 'none',
});

export const status = style({
  fontFamily: vars.font.heading,
  fontSize: vars.fontSize['5xl'],
  fontWeight: vars.fontWeight.bold,
  color: vars.color.primary[700],
  lineHeight: 1,
});

export const name = style({ fontSize: vars.fontSize['2xl'] });

export const message = style({ maxWidth: vars.size.prose, color: vars.color.textMuted, overflowWrap: 'anywhere' });

/** The 404 page's content, inside the site's header and footer. */
export const inLayout = style({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: vars.space[4],
  paddingBlock: vars.space[16],
  paddingInline: vars.space[6],
  textAlign: 'center',
});

export const links = style({ marginTop: vars.space[6] });

export const linksTitle = style({ fontSize: vars.fontSize.lg, marginBottom: vars.space[2] });

export const linkList = style({
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'center',
  gap: `${vars.space[2]} ${vars.space[6]}`,
  listStyle: 'none',
  margin: 0,
  padding: 0,
});
