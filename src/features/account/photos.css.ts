import { style } from '@vanilla-extract/css';
import { srOnly } from '#src/styles/global.css.ts';
import { vars } from '#src/styles/theme.css.ts';

/** Members' photos (decision 116): the member's own on « Mon profil », the other's on a released proposal. */

export const grid = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(8rem, 11rem))',
  gap: vars.space[4],
});

export const item = style({ display: 'flex', flexDirection: 'column', gap: vars.space[2], alignItems: 'flex-start' });

export const image = style({
  display: 'block',
  width: '100%',
  height: 'auto',
  aspectRatio: '3 / 4',
  objectFit: 'cover',
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.gray[200]}`,
  backgroundColor: vars.color.gray[100],
});

export const upload = style({ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: vars.space[2] });

/** The file input itself stays in the page (focusable, read by screen readers) but unseen: its label is the button. */
export const fileInput = style([srOnly]);

export const uploadLabel = style({
  cursor: 'pointer',
  selectors: {
    [`${fileInput}:focus-visible + &`]: { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: '2px' },
    [`${fileInput}:disabled + &`]: { opacity: 0.6, cursor: 'progress' },
  },
});

export const hint = style({ margin: 0, fontSize: vars.fontSize.sm, color: vars.color.textMuted, fontWeight: vars.fontWeight.normal });
