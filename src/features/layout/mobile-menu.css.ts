import { keyframes, style } from '@vanilla-extract/css';
import { media, vars } from '#src/styles/theme.css.ts';

export const trigger = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space[2],
  minHeight: '2.75rem',
  paddingInline: vars.space[3],
  border: `1px solid ${vars.color.gray[300]}`,
  borderRadius: vars.radius.lg,
  background: vars.color.background,
  color: vars.color.text,
  fontWeight: vars.fontWeight.medium,
  cursor: 'pointer',
  selectors: { '&:hover': { backgroundColor: vars.color.gray[100] } },
});

export const icon = style({ width: '1.25rem', height: '1.25rem' });

const fadeIn = keyframes({ from: { opacity: 0 }, to: { opacity: 1 } });
const slideIn = keyframes({ from: { transform: 'translateX(100%)' }, to: { transform: 'translateX(0)' } });

export const overlay = style({
  position: 'fixed',
  inset: 0,
  zIndex: vars.zIndex.overlay,
  backgroundColor: 'rgb(17 24 39 / 0.5)',
  animation: `${fadeIn} ${vars.duration.normal} ease-out`,
  '@media': { [media.reducedMotion]: { animation: 'none' } },
});

export const panel = style({
  position: 'fixed',
  insetBlock: 0,
  insetInlineEnd: 0,
  zIndex: vars.zIndex.dialog,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[6],
  width: 'min(22rem, 100vw)',
  padding: vars.space[5],
  overflowY: 'auto',
  backgroundColor: vars.color.background,
  boxShadow: vars.shadow.lg,
  animation: `${slideIn} ${vars.duration.normal} ease-out`,
  '@media': { [media.reducedMotion]: { animation: 'none' } },
});

export const panelHeader = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space[3] });

export const title = style({ fontSize: vars.fontSize.lg, color: vars.color.primary[800] });

export const close = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '2.75rem',
  height: '2.75rem',
  border: 0,
  borderRadius: vars.radius.md,
  background: 'transparent',
  fontSize: vars.fontSize['2xl'],
  lineHeight: 1,
  cursor: 'pointer',
  selectors: { '&:hover': { backgroundColor: vars.color.gray[100] } },
});

export const list = style({ display: 'flex', flexDirection: 'column', gap: vars.space[1], margin: 0, padding: 0, listStyle: 'none' });

export const link = style({
  display: 'flex',
  alignItems: 'center',
  minHeight: '2.75rem',
  paddingInline: vars.space[3],
  borderRadius: vars.radius.md,
  color: vars.color.text,
  fontWeight: vars.fontWeight.medium,
  textDecoration: 'none',
  selectors: {
    '&:hover': { backgroundColor: vars.color.primary[50], color: vars.color.primary[800] },
    '&[aria-current="page"]': { backgroundColor: vars.color.primary[50], color: vars.color.primary[800] },
  },
});

export const sublist = style({ margin: 0, paddingInlineStart: vars.space[4], listStyle: 'none' });

export const sublink = style([link, { fontWeight: vars.fontWeight.normal, color: vars.color.gray[700] }]);

export const actions = style({ display: 'flex', flexDirection: 'column', gap: vars.space[3], marginTop: 'auto' });
