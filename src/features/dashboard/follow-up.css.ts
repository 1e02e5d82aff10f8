import { style } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

/** The member page's « Suivi interne » card (decision 124): tags as removable chips. */
export const tagList = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space[2],
});
export const tag = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space[1],
  padding: `0 0 0 ${vars.space[3]}`,
  borderRadius: vars.radius.full,
  backgroundColor: vars.color.primary[50],
  border: `1px solid ${vars.color.primary[200]}`,
  color: vars.color.primary[900],
  fontSize: vars.fontSize.sm,
  maxWidth: '100%',
  overflowWrap: 'anywhere',
});
export const tagRemove = style({
  minWidth: '2.25rem',
  minHeight: '2.25rem',
  border: 0,
  borderRadius: vars.radius.full,
  background: 'transparent',
  color: 'inherit',
  fontSize: vars.fontSize.lg,
  cursor: 'pointer',
  ':hover': { backgroundColor: vars.color.primary[100] },
  ':focus-visible': { outline: `2px solid ${vars.color.primary[700]}`, outlineOffset: '1px' },
});

/** A part of the card (tags, notes): set apart from the one above, its title smaller than the card's. */
