import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

const base = style({
  padding: vars.space[3],
  borderRadius: vars.radius.md,
  borderInlineStart: '4px solid',
  fontSize: vars.fontSize.sm,
  lineHeight: vars.lineHeight.normal,
});

export const tone = styleVariants({
  error: [base, { backgroundColor: vars.color.dangerSurface, borderColor: vars.color.danger, color: vars.color.danger }],
  success: [base, { backgroundColor: vars.color.successSurface, borderColor: vars.color.success, color: vars.color.primary[900] }],
  info: [base, { backgroundColor: vars.color.infoSurface, borderColor: vars.color.info, color: vars.color.gray[900] }],
});

export const region = style({ selectors: { '&:empty': { display: 'none' } } });
