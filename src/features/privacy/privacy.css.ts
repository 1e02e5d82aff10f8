import { style } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

export const section = style({
  marginTop: vars.space[6],
  padding: vars.space[6],
  borderRadius: vars.radius.xl,
  border: `1px solid ${vars.color.gray[200]}`,
  backgroundColor: vars.color.surface,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[4],
});

export const heading = style({ margin: 0, fontSize: vars.fontSize.xl, color: vars.color.primary[900] });

export const text = style({ margin: 0, color: vars.color.textMuted, maxWidth: vars.size.prose });

export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space[3] });

export const item = style({
  padding: vars.space[4],
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.gray[200]}`,
  backgroundColor: vars.color.background,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[2],
});

export const itemTitle = style({ margin: 0, fontSize: vars.fontSize.base, fontWeight: vars.fontWeight.semibold });

export const status = style({ margin: 0, fontSize: vars.fontSize.sm, color: vars.color.textMuted });

export const notice = style({
  padding: vars.space[4],
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.warning}`,
  backgroundColor: vars.color.warningSurface,
  color: vars.color.text,
});

export const danger = style({ borderColor: vars.color.danger, backgroundColor: vars.color.dangerSurface });

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space[3], alignItems: 'center' });
/* Radix dialogs: one look everywhere */
