import { keyframes, style, styleVariants } from '@vanilla-extract/css';
import { media, vars } from '#src/styles/theme.css.ts';

export const viewport = style({
  position: 'fixed',
  insetBlockEnd: 0,
  insetInlineEnd: 0,
  zIndex: vars.zIndex.toast,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[2],
  width: '100%',
  maxWidth: '26rem',
  maxHeight: '100vh',
  margin: 0,
  padding: vars.space[4],
  listStyle: 'none',
  outline: 'none',
});

const slideIn = keyframes({ from: { transform: 'translateX(calc(100% + 1rem))' }, to: { transform: 'translateX(0)' } });
const fadeOut = keyframes({ from: { opacity: 1 }, to: { opacity: 0 } });

const root = style({
  display: 'grid',
  gridTemplateColumns: '1fr auto',
  gridTemplateAreas: '"title close" "description close" "action action"',
  columnGap: vars.space[3],
  rowGap: vars.space[1],
  alignItems: 'start',
  padding: vars.space[4],
  borderRadius: vars.radius.lg,
  backgroundColor: vars.color.background,
  color: vars.color.text,
  boxShadow: vars.shadow.lg,
  border: `1px solid ${vars.color.border}`,
  borderInlineStart: '4px solid',
  selectors: {
    '&[data-state="open"]': { animation: `${slideIn} ${vars.duration.normal} ease-out` },
    '&[data-state="closed"]': { animation: `${fadeOut} ${vars.duration.fast} ease-in forwards` },
    '&[data-swipe="move"]': { transform: 'translateX(var(--radix-toast-swipe-move-x))' },
    '&[data-swipe="cancel"]': { transform: 'translateX(0)', transition: 'transform 200ms ease-out' },
    '&[data-swipe="end"]': { animation: `${fadeOut} ${vars.duration.fast} ease-out forwards` },
  },
  '@media': { [media.reducedMotion]: { animation: 'none !important' } },
});

export const variant = styleVariants({
  info: [root, { borderInlineStartColor: vars.color.info }],
  success: [root, { borderInlineStartColor: vars.color.success }],
  warning: [root, { borderInlineStartColor: vars.color.warning }],
  error: [root, { borderInlineStartColor: vars.color.danger }],
});

export const title = style({ gridArea: 'title', fontWeight: vars.fontWeight.semibold, fontSize: vars.fontSize.base });

export const description = style({ gridArea: 'description', fontSize: vars.fontSize.sm, color: vars.color.textMuted });

export const action = style({ gridArea: 'action', justifySelf: 'start', marginTop: vars.space[2] });

export const close = style({
  gridArea: 'close',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '2rem',
  height: '2rem',
  border: 0,
  borderRadius: vars.radius.md,
  background: 'transparent',
  color: vars.color.textMuted,
  cursor: 'pointer',
  fontSize: vars.fontSize.xl,
  lineHeight: 1,
  selectors: { '&:hover': { backgroundColor: vars.color.gray[100], color: vars.color.text } },
});
