import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { srOnly } from '#src/styles/global.css.ts';
import { breakpoints, media, vars } from '#src/styles/theme.css.ts';

/* Mes propositions: one card per proposal */
export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space[6] });

export const card = style({
  marginTop: vars.space[6],
  padding: vars.space[5],
  borderRadius: vars.radius.xl,
  border: `1px solid ${vars.color.gray[200]}`,
  backgroundColor: vars.color.surface,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[4],
  minWidth: 0,
  '@media': { [media.md]: { padding: vars.space[6] } },
});

export const cardHeader = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'baseline',
  justifyContent: 'space-between',
  gap: vars.space[2],
});

export const cardTitle = style({ margin: 0, fontSize: vars.fontSize.xl, color: vars.color.primary[900] });

/** A small title inside a card: the text's typeface (the serif is for the larger titles). */
export const sectionTitle = style({
  margin: 0,
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.base,
  fontWeight: vars.fontWeight.semibold,
});

export const muted = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.sm });

export const paragraph = style({ margin: 0, overflowWrap: 'anywhere' });

export const note = style({
  margin: 0,
  padding: vars.space[3],
  borderLeft: `3px solid ${vars.color.primary[300]}`,
  backgroundColor: vars.color.background,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
});

/* Label above value on a phone, side by side from md up */
export const facts = style({
  margin: 0,
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  columnGap: vars.space[4],
  rowGap: vars.space[1],
  '@media': { [media.md]: { gridTemplateColumns: 'max-content minmax(0, 1fr)', rowGap: vars.space[2] } },
});
export const factLabel = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm });
export const factValue = style({
  margin: 0,
  marginBottom: vars.space[2],
  fontWeight: vars.fontWeight.medium,
  overflowWrap: 'anywhere',
  '@media': { [media.md]: { marginBottom: 0 } },
});

export const mark = styleVariants({
  met: { flex: 'none', fontWeight: vars.fontWeight.bold, color: vars.color.success, minWidth: '1.25rem' },
  unmet: { flex: 'none', fontWeight: vars.fontWeight.bold, color: vars.color.danger, minWidth: '1.25rem' },
  check: { flex: 'none', fontWeight: vars.fontWeight.bold, color: vars.color.warning, minWidth: '1.25rem' },
  neutral: { flex: 'none', fontWeight: vars.fontWeight.bold, color: vars.color.textMuted, minWidth: '1.25rem' },
});

/* Mes propositions: the facts of the summary, label beside value even on a phone (the card stays short) */
export const summaryFacts = style({
  margin: 0,
  display: 'grid',
  gridTemplateColumns: 'max-content minmax(0, 1fr)',
  columnGap: vars.space[3],
  rowGap: vars.space[1],
});

export const summaryValue = style({ margin: 0, fontWeight: vars.fontWeight.medium, overflowWrap: 'anywhere' });

/* Mes propositions: why it fits, a few sentences */
export const reasons = style({ margin: 0, paddingLeft: vars.space[5], display: 'flex', flexDirection: 'column', gap: vars.space[1] });

/* Mes propositions: the answer (deadline, Accept, Decline) right after what the member needs to decide, before the longer texts (decision 193) */
export const answerBar = style({
  paddingTop: vars.space[3],
  borderTop: `1px solid ${vars.color.gray[200]}`,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
});

/* Staff: a candidate's criteria, both sides in one table; below `md` each row a small card (label, then each side) */
export const criteriaTable = style({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: vars.fontSize.sm,
});
const belowMd = `screen and (max-width: ${breakpoints.md - 0.02}px)`;
globalStyle(`${criteriaTable} th, ${criteriaTable} td`, {
  textAlign: 'left',
  verticalAlign: 'top',
  padding: `${vars.space[1]} ${vars.space[2]} ${vars.space[1]} 0`,
  borderBottom: `1px solid ${vars.color.gray[100]}`,
  overflowWrap: 'break-word',
  '@media': { [belowMd]: { display: 'block', borderBottom: 0, padding: `${vars.space[1]} 0` } },
});
globalStyle(`${criteriaTable} thead th`, { color: vars.color.textMuted, fontWeight: vars.fontWeight.semibold });
globalStyle(`${criteriaTable} thead`, {
  '@media': {
    [belowMd]: { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' },
  },
});
globalStyle(`${criteriaTable} tr`, {
  '@media': { [belowMd]: { display: 'block', padding: `${vars.space[2]} 0`, borderBottom: `1px solid ${vars.color.gray[100]}` } },
});
globalStyle(`${criteriaTable} td`, {
  '@media': { [belowMd]: { display: 'grid', gridTemplateColumns: '5.5rem minmax(0, 1fr)', columnGap: vars.space[2] } },
});
globalStyle(`${criteriaTable} td[data-label]::before`, {
  '@media': { [belowMd]: { content: 'attr(data-label)', color: vars.color.textMuted, overflowWrap: 'break-word' } },
});
export const criterionHead = style({ width: '22%' });
export const verdictCell = style({ minWidth: 0 });
export const verdictLine = style({ display: 'flex', gap: vars.space[1], alignItems: 'baseline' });
export const requiredTag = style({
  display: 'inline-block',
  marginTop: vars.space[1],
  padding: `0 ${vars.space[1]}`,
  borderRadius: vars.radius.sm,
  backgroundColor: vars.color.gray[100],
  fontSize: vars.fontSize.xs,
  fontWeight: vars.fontWeight.semibold,
});
export const visuallyHidden = style([srOnly]);
export const modeSwitch = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space[2] });

export { badge } from '#src/components/ui/badge.css.ts';

export const highlight = style({
  padding: vars.space[4],
  borderRadius: vars.radius.lg,
  backgroundColor: vars.color.successSurface,
  border: `1px solid ${vars.color.success}`,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[2],
});

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space[3] });

export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space[4] });

export const control = style({ display: 'flex', flexDirection: 'column', gap: vars.space[1], fontWeight: vars.fontWeight.medium });

export const textarea = style({
  minHeight: '6rem',
  padding: `${vars.space[2]} ${vars.space[3]}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  fontSize: vars.fontSize.base,
  fontFamily: vars.font.body,
  backgroundColor: vars.color.background,
  color: vars.color.text,
  resize: 'vertical',
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: '1px' } },
});
/* Radix dialogs: one look everywhere */

/* Staff: candidates */
export const candidates = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space[4],
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.lg]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});
export const candidate = style({
  padding: vars.space[4],
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.surface,
  border: `1px solid ${vars.color.gray[200]}`,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
  minWidth: 0,
});

export const plainFieldset = style({ border: 0, margin: 0, padding: 0, minWidth: 0 });
export const select = style([textarea, { minHeight: '2.5rem', resize: 'none' }]);

export const groupTitle = style({
  margin: `${vars.space[3]} 0 ${vars.space[2]}`,
  fontSize: vars.fontSize.sm,
  fontWeight: vars.fontWeight.semibold,
  color: vars.color.textMuted,
});

/* Staff: a filter whose long option labels must not widen the card on a phone */
export const fitControl = style({ maxWidth: '100%', minWidth: 0 });
export const fitSelect = style({ maxWidth: '100%', minWidth: 0, textOverflow: 'ellipsis' });

/** A state label, often long: a rounded box (not a pill) that wraps cleanly. */
export const stateBadge = style({
  display: 'inline-block',
  padding: `${vars.space[1]} ${vars.space[2]}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.gray[100],
  fontSize: vars.fontSize.xs,
  lineHeight: 1.4,
  maxWidth: '16rem',
});

export const candidateActions = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space[4] });

export const details = style({ display: 'flex', flexDirection: 'column', gap: vars.space[2] });
globalStyle(`${details} > summary`, { cursor: 'pointer' });
globalStyle(`${details}[open] > summary`, { marginBottom: vars.space[2] });
