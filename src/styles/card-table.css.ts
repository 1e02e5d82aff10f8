import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

/**
 * A table that becomes a list of cards on a phone (decision 198): below 640 px each row is a card
 * and each cell a line « label : value », its label from the cell's `data-label` (the column's
 * header); from 640 px, a table. A cell never breaks a word or a number (« Mens/ualité »,
 * « 85,0/0 € »): it wraps between words only.
 */
export const cardTable = style({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: vars.fontSize.sm,
});

globalStyle(`${cardTable} caption`, { textAlign: 'start', fontWeight: vars.fontWeight.semibold, marginBottom: vars.space[2] });
globalStyle(`${cardTable} th, ${cardTable} td`, {
  overflowWrap: 'normal',
  wordBreak: 'normal',
  hyphens: 'manual',
  textAlign: 'start',
  verticalAlign: 'top',
});

globalStyle(`${cardTable} thead`, {
  '@media': {
    'screen and (max-width: 639.98px)': {
      position: 'absolute',
      width: '1px',
      height: '1px',
      overflow: 'hidden',
      clip: 'rect(0 0 0 0)',
      whiteSpace: 'nowrap',
    },
  },
});

globalStyle(`${cardTable} tr`, {
  '@media': {
    'screen and (max-width: 639.98px)': {
      display: 'block',
      padding: vars.space[3],
      marginBottom: vars.space[3],
      border: `1px solid ${vars.color.border}`,
      borderRadius: vars.radius.md,
    },
  },
});

globalStyle(`${cardTable} td`, {
  padding: `${vars.space[2]} ${vars.space[3]}`,
  borderBottom: `1px solid ${vars.color.border}`,
  '@media': {
    'screen and (max-width: 639.98px)': {
      display: 'grid',
      gridTemplateColumns: '7.5rem minmax(0, 1fr)',
      columnGap: vars.space[3],
      padding: `${vars.space[1]} 0`,
      borderBottom: 0,
    },
  },
});

globalStyle(`${cardTable} td::before`, {
  '@media': {
    'screen and (max-width: 639.98px)': { content: 'attr(data-label)', color: vars.color.textMuted },
  },
});

globalStyle(`${cardTable} th`, {
  padding: `${vars.space[2]} ${vars.space[3]}`,
  borderBottom: `2px solid ${vars.color.border}`,
  fontWeight: vars.fontWeight.semibold,
});
