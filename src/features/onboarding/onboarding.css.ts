import { globalStyle, style } from '@vanilla-extract/css';
import { media, vars } from '#src/styles/theme.css.ts';

export const title = style({ fontSize: vars.fontSize['3xl'], color: vars.color.primary[900] });

export const text = style({
  marginTop: vars.space[3],
  color: vars.color.textMuted,
  maxWidth: vars.size.prose,
  lineHeight: vars.lineHeight.relaxed,
});

export const form = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[5],
  marginTop: vars.space[6],
  maxWidth: vars.size.prose,
});

export const section = style({
  marginTop: vars.space[6],
  padding: vars.space[6],
  borderRadius: vars.radius.xl,
  border: `1px solid ${vars.color.gray[200]}`,
  backgroundColor: vars.color.surface,
  maxWidth: vars.size.prose,
});

/** Paragraphs and lists of a section stand apart, as in the contract (the reset takes every margin). */
globalStyle(`${section} > :is(p, ul, ol) + :is(p, ul, ol)`, { marginTop: vars.space[3] });

export const sectionTitle = style({ fontSize: vars.fontSize.xl, color: vars.color.primary[900], marginBottom: vars.space[3] });

export const list = style({
  paddingInlineStart: vars.space[5],
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[2],
  lineHeight: vars.lineHeight.normal,
});

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space[3], marginTop: vars.space[5], alignItems: 'center' });

/* Progress indicator */
export const progress = style({ marginTop: vars.space[4], marginBottom: vars.space[2] });
export const progressLabel = style({ margin: 0, fontWeight: vars.fontWeight.semibold, color: vars.color.primary[800] });
export const progressHeader = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space[2],
});
/** The disclosure of the folded list: a phone only (below `sm`). */
export const progressToggle = style({
  flexShrink: 0,
  minHeight: '2.75rem',
  padding: `0 ${vars.space[2]}`,
  border: 'none',
  background: 'none',
  color: vars.color.primary[800],
  fontSize: vars.fontSize.sm,
  textDecoration: 'underline',
  cursor: 'pointer',
  '@media': { [media.sm]: { display: 'none' } },
});
export const progressBar = style({
  height: '0.375rem',
  marginTop: vars.space[1],
  borderRadius: vars.radius.full,
  backgroundColor: vars.color.gray[200],
  overflow: 'hidden',
  '@media': { [media.sm]: { display: 'none' } },
});
export const progressBarFill = style({ height: '100%', backgroundColor: vars.color.accent });
export const progressList = style({
  listStyle: 'none',
  padding: 0,
  margin: `${vars.space[3]} 0 0`,
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(9rem, 1fr))',
  gap: vars.space[2],
  fontSize: vars.fontSize.sm,
});
/** Folded on a phone until the button opens it; always shown from `sm` up. */
export const progressListFolded = style([progressList, { display: 'none', '@media': { [media.sm]: { display: 'grid' } } }]);
const progressItemBase = style({
  display: 'flex',
  gap: vars.space[2],
  alignItems: 'center',
  padding: vars.space[2],
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.gray[200]}`,
});
export const progressDone = style([progressItemBase, { color: vars.color.primary[800], backgroundColor: vars.color.primary[50] }]);
export const progressCurrent = style([
  progressItemBase,
  { color: vars.color.white, backgroundColor: vars.color.accent, borderColor: vars.color.accent, fontWeight: vars.fontWeight.semibold },
]);
export const progressNext = style([progressItemBase, { color: vars.color.textMuted }]);
export const progressNumber = style({
  display: 'inline-flex',
  justifyContent: 'center',
  alignItems: 'center',
  minWidth: '1.5rem',
  height: '1.5rem',
  borderRadius: vars.radius.full,
  border: '1px solid currentColor',
  fontSize: vars.fontSize.xs,
});

/* Cards (plans, file fee) */
export const cards = style({
  listStyle: 'none',
  padding: 0,
  display: 'grid',
  gap: vars.space[4],
  marginTop: vars.space[6],
  gridTemplateColumns: '1fr',
  '@media': { [media.md]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});
export const card = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
  padding: vars.space[5],
  borderRadius: vars.radius.xl,
  border: `1px solid ${vars.color.gray[300]}`,
  backgroundColor: vars.color.background,
});
export const cardHighlight = style([card, { borderColor: vars.color.accent, borderWidth: '2px', boxShadow: vars.shadow.md }]);
export const cardTitle = style({ fontSize: vars.fontSize.xl, color: vars.color.primary[900] });
export const badge = style({
  alignSelf: 'flex-start',
  padding: `${vars.space[1]} ${vars.space[2]}`,
  borderRadius: vars.radius.full,
  backgroundColor: vars.color.primary[100],
  color: vars.color.primary[900],
  fontSize: vars.fontSize.xs,
  fontWeight: vars.fontWeight.semibold,
});
export const price = style({ fontSize: vars.fontSize['2xl'], fontWeight: vars.fontWeight.bold, color: vars.color.text });
export const cycle = style({ fontSize: vars.fontSize.sm, color: vars.color.textMuted, fontWeight: vars.fontWeight.normal });
export const features = style({
  paddingInlineStart: vars.space[5],
  fontSize: vars.fontSize.sm,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[1],
});
export const cardFooter = style({ marginTop: 'auto' });

export const twoColumns = style({
  display: 'grid',
  gap: vars.space[4],
  gridTemplateColumns: '1fr',
  '@media': { [media.sm]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});
export const countdown = style({
  fontSize: vars.fontSize['2xl'],
  fontWeight: vars.fontWeight.bold,
  color: vars.color.primary[800],
  marginTop: vars.space[2],
});
export const frame = style({
  width: '100%',
  minHeight: '44rem',
  border: `1px solid ${vars.color.gray[200]}`,
  borderRadius: vars.radius.lg,
  marginTop: vars.space[4],
});

/* The questionnaire (decision 193): a criterion and its « Indispensable » box, kept together */
export const hint = style({ margin: 0, fontSize: vars.fontSize.sm, color: vars.color.textMuted, maxWidth: vars.size.prose });
export const criterionBlock = style({ display: 'flex', flexDirection: 'column', gap: vars.space[3] });
export const requiredToggle = style({
  padding: `${vars.space[2]} ${vars.space[3]}`,
  borderRadius: vars.radius.md,
  backgroundColor: vars.color.gray[50],
  fontSize: vars.fontSize.sm,
});

/**
 * The contract on screen with the PDF's structure (decision 198): the title, then each article
 * under its heading, apart from the next by a rule and space; the annex likewise.
 */
export const contractDocument = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[6],
  maxWidth: '46rem',
  lineHeight: vars.lineHeight.relaxed,
});

globalStyle(`${contractDocument} > section`, {
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
  paddingTop: vars.space[5],
  borderTop: `1px solid ${vars.color.border}`,
});

globalStyle(`${contractDocument} h3`, {
  fontSize: vars.fontSize.lg,
  fontWeight: vars.fontWeight.bold,
  color: vars.color.primary[900],
});

globalStyle(`${contractDocument} > p`, { fontWeight: vars.fontWeight.medium });
globalStyle(`${contractDocument} ul`, { margin: 0, paddingInlineStart: vars.space[6] });
