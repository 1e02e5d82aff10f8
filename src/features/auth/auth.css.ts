import { style } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

export const title = style({ fontSize: vars.fontSize['2xl'], color: vars.color.primary[900] });

export const intro = style({ marginTop: vars.space[2], color: vars.color.textMuted, fontSize: vars.fontSize.sm });

export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space[5], marginTop: vars.space[6] });

export const links = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[2],
  marginTop: vars.space[6],
  paddingTop: vars.space[5],
  borderTop: `1px solid ${vars.color.gray[200]}`,
  fontSize: vars.fontSize.sm,
});

export const legal = style({ fontSize: vars.fontSize.xs, color: vars.color.textMuted });

export const note = style({ marginTop: vars.space[4] });

/* /connexion/confirmation has no layout: its own centred column */
export const standalone = style({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space[4],
  minHeight: '100vh',
  padding: vars.space[6],
  textAlign: 'center',
  outline: 'none',
});

export const standaloneActions = style({ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: vars.space[3] });

/* A form inside the standalone column: a readable width, its labels aligned left. */
export const standaloneForm = style({ width: '100%', maxWidth: '26rem', textAlign: 'left' });
