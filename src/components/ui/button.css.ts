import { keyframes, style, styleVariants } from '@vanilla-extract/css';
import { media, vars } from '#src/styles/theme.css.ts';

const base = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space[2],
  minHeight: '2.75rem',
  paddingBlock: vars.space[2],
  paddingInline: vars.space[4],
  borderRadius: vars.radius.lg,
  border: '1px solid transparent',
  fontSize: vars.fontSize.base,
  fontWeight: vars.fontWeight.semibold,
  lineHeight: vars.lineHeight.tight,
  textDecoration: 'none',
  cursor: 'pointer',
  transition: `background-color ${vars.duration.fast}, border-color ${vars.duration.fast}, color ${vars.duration.fast}`,
  selectors: {
    '&:disabled, &[aria-disabled="true"]': { cursor: 'not-allowed', opacity: 0.7 },
  },
  '@media': { [media.reducedMotion]: { transition: 'none' } },
});

/** Button looks, also for links styled as buttons: `<Link className={buttonClass.primary}>`. */
export const buttonClass = styleVariants({
  primary: [
    base,
    {
      backgroundColor: vars.color.accent,
      color: vars.color.accentText,
      selectors: {
        '&:hover:not(:disabled)': { backgroundColor: vars.color.accentHover, color: vars.color.accentText },
        '&:visited': { color: vars.color.accentText },
      },
    },
  ],
  secondary: [
    base,
    {
      backgroundColor: vars.color.background,
      color: vars.color.accent,
      borderColor: vars.color.accent,
      selectors: { '&:hover:not(:disabled)': { backgroundColor: vars.color.primary[50], color: vars.color.accentHover } },
    },
  ],
  /** What opens a destructive action (« Clore », « Désactiver »): outlined in red. */
  dangerOutline: [
    base,
    {
      backgroundColor: vars.color.background,
      color: vars.color.danger,
      borderColor: vars.color.danger,
      selectors: { '&:hover:not(:disabled)': { backgroundColor: vars.color.dangerSurface, color: vars.color.danger } },
    },
  ],
  /** A destructive action's confirmation: filled red (white on #b91c1c: 6.5:1). */
  danger: [
    base,
    {
      backgroundColor: vars.color.danger,
      borderColor: vars.color.danger,
      color: vars.color.white,
      selectors: { '&:hover:not(:disabled)': { backgroundColor: '#991b1b', borderColor: '#991b1b', color: vars.color.white } },
    },
  ],
  ghost: [
    base,
    {
      backgroundColor: 'transparent',
      color: vars.color.text,
      selectors: { '&:hover:not(:disabled)': { backgroundColor: vars.color.gray[100], color: vars.color.text } },
    },
  ],
});

export const fullWidth = style({ width: '100%' });

const spin = keyframes({ to: { transform: 'rotate(360deg)' } });

export const spinner = style({
  width: '1em',
  height: '1em',
  borderRadius: vars.radius.full,
  border: '2px solid currentColor',
  borderRightColor: 'transparent',
  animation: `${spin} 0.7s linear infinite`,
  flexShrink: 0,
  '@media': { [media.reducedMotion]: { animationDuration: '2s' } },
});
