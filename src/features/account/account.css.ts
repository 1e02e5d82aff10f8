import { style } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

export const title = style({ fontSize: vars.fontSize['3xl'], color: vars.color.primary[900] });

export const text = style({ marginTop: vars.space[3], color: vars.color.textMuted, maxWidth: vars.size.prose });

export const panel = style({
  marginTop: vars.space[6],
  padding: vars.space[6],
  borderRadius: vars.radius.xl,
  border: `1px solid ${vars.color.gray[200]}`,
  backgroundColor: vars.color.surface,
});

export const messageList = style({ listStyle: 'none', padding: 0, margin: 0 });

export const messageSubject = style({ fontSize: vars.fontSize.lg, color: vars.color.primary[900] });

export const messageDate = style({ marginTop: vars.space[1], color: vars.color.textMuted, fontSize: vars.fontSize.sm });

export const messageBody = style({ marginTop: vars.space[3], whiteSpace: 'pre-wrap' });
