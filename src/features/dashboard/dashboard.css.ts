import { globalStyle, style } from '@vanilla-extract/css';
import { breakpoints, media, vars } from '#src/styles/theme.css.ts';

// A member's file is titled with the e-mail when there is no name: it must wrap on a phone.
export const title = style({
  fontSize: vars.fontSize['2xl'],
  fontFamily: vars.font.body,
  fontWeight: vars.fontWeight.semibold,
  overflowWrap: 'anywhere',
});

export const text = style({ marginTop: vars.space[3], color: vars.color.textMuted, maxWidth: vars.size.prose });

export const muted = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm });

export const page = style({ display: 'flex', flexDirection: 'column', gap: vars.space[8] });

export const card = style({
  backgroundColor: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  padding: vars.space[5],
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[4],
  minWidth: 0,
});

export const cardTitle = style({ fontSize: vars.fontSize.lg, fontWeight: vars.fontWeight.semibold, margin: 0 });
/** A part of a card under its own sub-title (« Étiquettes », « Sa présentation », « Factures et avoirs »), set apart by a rule. */
export const part = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
  paddingTop: vars.space[4],
  borderTop: `1px solid ${vars.color.border}`,
});
export const partTitle = style({ margin: 0, fontSize: vars.fontSize.base, fontWeight: vars.fontWeight.semibold });

export const grid = style({
  display: 'grid',
  gap: vars.space[6],
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.lg]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});

/* Sign-in */
export const narrow = style({ maxWidth: '28rem', display: 'flex', flexDirection: 'column', gap: vars.space[5] });
export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space[4] });
export const qr = style({
  width: '12rem',
  height: '12rem',
  backgroundColor: vars.color.white,
  padding: vars.space[2],
  border: `1px solid ${vars.color.border}`,
});

/* Funnel */
export const funnel = style({
  display: 'grid',
  gap: vars.space[2],
  gridTemplateColumns: 'repeat(auto-fill, minmax(9rem, 1fr))',
  margin: 0,
  padding: 0,
  listStyle: 'none',
});
export const funnelItem = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[1],
  padding: vars.space[3],
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
});
export const funnelCount = style({ fontSize: vars.fontSize['2xl'], fontWeight: vars.fontWeight.bold, color: vars.color.accent });
export const waiting = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space[4], margin: 0, padding: 0, listStyle: 'none' });
export const waitingItem = style({
  padding: `${vars.space[2]} ${vars.space[3]}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.warningSurface,
  color: vars.color.text,
});

/* Member list */
export const filters = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space[3], alignItems: 'flex-end' });
export const control = style({
  display: 'flex',
  flexDirection: 'column',
  // A select is as wide as its longest option: on a phone it must shrink to the card instead.
  maxWidth: '100%',
  gap: vars.space[1],
  fontSize: vars.fontSize.sm,
  fontWeight: vars.fontWeight.medium,
});
export const input = style({
  minHeight: '2.5rem',
  maxWidth: '100%',
  padding: `${vars.space[2]} ${vars.space[3]}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  fontSize: vars.fontSize.base,
  backgroundColor: vars.color.background,
  color: vars.color.text,
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: '1px' } },
});
export const textarea = style([input, { minHeight: '8rem', resize: 'vertical', fontFamily: vars.font.body }]);
export const tableWrap = style({ overflowX: 'auto' });
export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: vars.fontSize.sm });
globalStyle(`${table} th, ${table} td`, {
  textAlign: 'left',
  padding: `${vars.space[2]} ${vars.space[3]}`,
  borderBottom: `1px solid ${vars.color.gray[200]}`,
  verticalAlign: 'top',
});
globalStyle(`${table} th`, { fontWeight: vars.fontWeight.semibold, color: vars.color.textMuted, whiteSpace: 'nowrap' });
/**
 * A table whose rows become cards below `md` (leads, introductions, billing: six or seven columns do not fit a phone).
 * Each cell names its column from `data-label`; the header row is kept for screen readers only.
 */
export const stackedTable = style({});
const belowMd = `screen and (max-width: ${breakpoints.md - 0.02}px)`;
globalStyle(`${stackedTable} thead`, {
  '@media': {
    [belowMd]: { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' },
  },
});
globalStyle(`${stackedTable} tr`, {
  '@media': {
    [belowMd]: { display: 'block', borderBottom: `1px solid ${vars.color.gray[200]}`, padding: `${vars.space[2]} 0` },
  },
});
globalStyle(`${stackedTable} td`, {
  '@media': {
    [belowMd]: {
      display: 'grid',
      gridTemplateColumns: '7rem minmax(0, 1fr)',
      gap: vars.space[2],
      borderBottom: 0,
      padding: `${vars.space[1]} ${vars.space[2]}`,
      overflowWrap: 'anywhere',
    },
  },
});
globalStyle(`${stackedTable} td[data-label]::before`, {
  '@media': { [belowMd]: { content: 'attr(data-label)', fontWeight: vars.fontWeight.semibold, color: vars.color.textMuted } },
});
export const pager = style({ display: 'flex', alignItems: 'center', gap: vars.space[3], flexWrap: 'wrap' });
export { badge } from '#src/components/ui/badge.css.ts';

/* Member page */
export const header = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space[3] });
export const idLine = style({ display: 'flex', alignItems: 'center', gap: vars.space[2], flexWrap: 'wrap' });
export const code = style({ fontFamily: vars.font.mono, fontSize: vars.fontSize.sm });
/** Labels take at most 40 % of the width: a long label must not squeeze its value to a letter a line on a phone. */
export const definitions = style({
  display: 'grid',
  gridTemplateColumns: 'fit-content(40%) minmax(0, 1fr)',
  gap: `${vars.space[1]} ${vars.space[4]}`,
  margin: 0,
});
globalStyle(`${definitions} dt`, { color: vars.color.textMuted, fontSize: vars.fontSize.sm });
globalStyle(`${definitions} dd`, { margin: 0, overflowWrap: 'anywhere' });
export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space[2] });
export const chart = style({ margin: 0, paddingLeft: vars.space[6], display: 'flex', flexDirection: 'column', gap: vars.space[1] });
export const chartState = style({
  padding: `${vars.space[1]} ${vars.space[2]}`,
  borderRadius: vars.radius.md,
  border: '1px solid transparent',
  selectors: {
    '&[aria-current="step"]': {
      borderColor: vars.color.accent,
      backgroundColor: vars.color.primary[50],
      fontWeight: vars.fontWeight.semibold,
    },
  },
});
export const chartEvents = style({
  display: 'block',
  fontSize: vars.fontSize.xs,
  color: vars.color.textMuted,
  fontWeight: vars.fontWeight.normal,
});

export const timeline = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  borderLeft: `2px solid ${vars.color.gray[200]}`,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
});
export const timelineItem = style({ paddingLeft: vars.space[4], position: 'relative', fontSize: vars.fontSize.sm });
export const pre = style({ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: vars.font.body });

/* Radix dialogs: one look everywhere */
export { dialog, dialogTitle, dialogWarning, overlay } from '#src/components/ui/dialog.css.ts';

/* Messages */
export const messages = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space[3] });
export const message = style({
  padding: vars.space[3],
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.surface,
  border: `1px solid ${vars.color.gray[200]}`,
});
export const caption = style([muted, { textAlign: 'left', paddingBottom: vars.space[2] }]);
export const radios = style({ display: 'flex', flexDirection: 'column', gap: vars.space[2], border: 0, margin: 0, padding: 0 });
export const contents = style({ display: 'contents' });

/** Stacked on a phone (an address needs the whole width), side by side from md. */
export const teamDefinitions = style([
  definitions,
  {
    gridTemplateColumns: 'minmax(0, 1fr)',
    '@media': { [media.md]: { gridTemplateColumns: 'minmax(8rem, max-content) minmax(0, 1fr)' } },
  },
]);
export const teamList = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space[4],
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.lg]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});

/** A long address breaks rather than widening a narrow screen (the invitation page, decision 126). */
export const breakAnywhere = style({ overflowWrap: 'anywhere' });
