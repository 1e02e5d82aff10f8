import { style } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

/** Unread count next to a navigation link (member area and dashboard). */
export const unreadBadge = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  minWidth: '1.5rem',
  height: '1.5rem',
  marginInlineStart: vars.space[2],
  paddingInline: vars.space[1],
  borderRadius: vars.radius.full,
  backgroundColor: vars.color.primary[700],
  color: '#ffffff',
  fontSize: vars.fontSize.xs,
  fontWeight: vars.fontWeight.bold,
  lineHeight: 1,
});

export const conversation = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
});

const bubble = {
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  padding: vars.space[4],
  maxWidth: '42rem',
  minWidth: 0,
  overflowWrap: 'anywhere',
} as const;

export const fromAgency = style({ ...bubble, backgroundColor: vars.color.background, alignSelf: 'flex-start' });
export const fromMember = style({ ...bubble, backgroundColor: vars.color.primary[50], alignSelf: 'flex-end' });
export const meta = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.sm });
export const subject = style({ margin: `${vars.space[1]} 0 0`, fontWeight: vars.fontWeight.semibold });
export const body = style({ margin: `${vars.space[2]} 0 0`, whiteSpace: 'pre-wrap' });
export const newTag = style({ marginInlineStart: vars.space[2], color: vars.color.primary[800], fontWeight: vars.fontWeight.semibold });

/* The recipient combobox (ARIA 1.2) */
export const combobox = style({ position: 'relative' });
export const comboInput = style({ width: '100%', boxSizing: 'border-box' });
export const listbox = style({
  position: 'absolute',
  zIndex: 10,
  insetInline: 0,
  top: 'calc(100% + 4px)',
  margin: 0,
  padding: vars.space[1],
  listStyle: 'none',
  backgroundColor: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: '0 8px 24px rgb(3 7 18 / 0.12)',
  maxHeight: '18rem',
  overflowY: 'auto',
});
export const option = style({
  padding: `${vars.space[2]} ${vars.space[3]}`,
  borderRadius: vars.radius.sm,
  cursor: 'pointer',
  overflowWrap: 'anywhere',
  selectors: {
    '&[aria-selected="true"]': {
      backgroundColor: vars.color.primary[50],
      color: vars.color.primary[900],
      outline: `2px solid ${vars.color.primary[700]}`,
    },
    '&:hover': { backgroundColor: vars.color.gray[100] },
  },
});
export const optionEmail = style({ display: 'block', color: vars.color.textMuted, fontSize: vars.fontSize.sm });

export const wrap = style({ overflowWrap: 'anywhere', minWidth: 0 });
