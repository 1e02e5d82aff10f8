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
