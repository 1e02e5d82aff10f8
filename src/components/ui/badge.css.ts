import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

/**
 * A short status beside a title or in a table cell (« Compte désactivé », « Score 7 / 9 »,
 * « bientôt échue »): one look across the member area and the dashboard, its colour paired with
 * words, never alone.
 */
const base = style({
  display: 'inline-block',
  padding: `0 ${vars.space[2]}`,
  borderRadius: vars.radius.full,
  fontSize: vars.fontSize.sm,
});

export const badge = styleVariants({
  neutral: [base, { backgroundColor: vars.color.gray[100] }],
  success: [base, { backgroundColor: vars.color.successSurface, color: vars.color.success }],
  warning: [base, { backgroundColor: vars.color.warningSurface, color: vars.color.warning }],
  danger: [base, { backgroundColor: vars.color.dangerSurface, color: vars.color.danger }],
});
