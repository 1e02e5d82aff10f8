import { style } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space[1] });

export const label = style({ fontWeight: vars.fontWeight.medium, fontSize: vars.fontSize.sm, color: vars.color.text });

export const hint = style({ fontSize: vars.fontSize.sm, color: vars.color.textMuted });

export const input = style({
  width: '100%',
  minHeight: '2.75rem',
  paddingBlock: vars.space[2],
  paddingInline: vars.space[3],
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.gray[400]}`,
  backgroundColor: vars.color.background,
  fontSize: vars.fontSize.base,
  selectors: {
    '&:hover': { borderColor: vars.color.gray[600] },
    '&[aria-invalid="true"]': { borderColor: vars.color.danger, borderWidth: '2px' },
    '&:read-only': { backgroundColor: vars.color.gray[100] },
  },
});

/** A text area: the input's look, taller, resized by height only. */
export const textarea = style([input, { minHeight: '6rem', paddingBlock: vars.space[3], resize: 'vertical', fontFamily: 'inherit' }]);

export const error = style({
  display: 'flex',
  gap: vars.space[1],
  fontSize: vars.fontSize.sm,
  color: vars.color.danger,
  fontWeight: vars.fontWeight.medium,
});

export const fieldset = style({
  border: 0,
  padding: 0,
  margin: 0,
  minWidth: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[2],
});

export const legend = style([label, { padding: 0, marginBottom: vars.space[1] }]);

export const options = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space[3] });

export const option = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space[2],
  minHeight: '2.75rem',
  paddingInline: vars.space[4],
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.gray[400]}`,
  cursor: 'pointer',
  selectors: {
    '&:has(input:checked)': { borderColor: vars.color.accent, backgroundColor: vars.color.primary[50] },
    '&:has(input:focus-visible)': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: '2px' },
  },
});

export const radio = style({ width: '1.125rem', height: '1.125rem', flexShrink: 0, accentColor: vars.color.accent, margin: 0 });
