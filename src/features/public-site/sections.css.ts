import { globalStyle, style } from '@vanilla-extract/css';
import { media, vars } from '#src/styles/theme.css.ts';

/**
 * The designed sections of the public pages (home: trust signals, paths, picture and text, what we
 * offer, steps; shared: plans, testimonials, FAQ). Imported by `deferred-sections.tsx`, which the
 * pages load at once, so these rules are inlined in the prerendered pages; the sections' code
 * itself is deferred. Few classes, children styled by selectors: every exported name is bytes of
 * first-load JavaScript.
 */

/** A section's heading block: eyebrow, title, lead; centred. */
export const head = style({ maxWidth: '44rem', marginInline: 'auto', textAlign: 'center', marginBottom: vars.space[10] });
globalStyle(`${head} > p:first-child`, {
  fontSize: vars.fontSize.sm,
  fontWeight: vars.fontWeight.semibold,
  color: vars.color.primary[800],
  letterSpacing: '0.04em',
  textTransform: 'uppercase',
});
globalStyle(`${head} h2`, {
  marginTop: vars.space[2],
  fontSize: vars.fontSize['3xl'],
  color: vars.color.primary[900],
  '@media': { [media.md]: { fontSize: vars.fontSize['4xl'] } },
});
globalStyle(`${head} h2 + p`, { marginTop: vars.space[4], fontSize: vars.fontSize.lg, color: vars.color.textMuted });

/** The heading block aligned to the start (beside a picture). */
export const headStart = style({ textAlign: 'start', marginInline: 0, marginBottom: 0 });

/** A round icon badge. */
export const icon = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  flexShrink: 0,
  width: '3rem',
  height: '3rem',
  borderRadius: vars.radius.xl,
  backgroundColor: vars.color.primary[100],
  color: vars.color.primary[800],
});

/** Trust signals under the hero: icon, strong line, detail. */
export const trust = style({
  display: 'grid',
  gap: vars.space[6],
  margin: 0,
  padding: 0,
  listStyle: 'none',
  gridTemplateColumns: 'minmax(0, 1fr)',
  paddingBlock: vars.space[8],
  '@media': {
    [media.sm]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
    [media.lg]: { gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' },
  },
});
globalStyle(`${trust} > li`, { display: 'flex', gap: vars.space[4], alignItems: 'flex-start' });
globalStyle(`${trust} strong`, { display: 'block', color: vars.color.primary[900] });
globalStyle(`${trust} p > span`, { display: 'block', fontSize: vars.fontSize.sm, color: vars.color.textMuted, marginTop: vars.space[1] });

/** Cards in a responsive grid (1, 2, then `columns` per row). */
const cardGrid = {
  display: 'grid',
  gap: vars.space[6],
  margin: 0,
  padding: 0,
  listStyle: 'none',
  gridTemplateColumns: 'minmax(0, 1fr)',
} as const;
const cardLook = {
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
  padding: vars.space[6],
  borderRadius: vars.radius['2xl'],
  border: `1px solid ${vars.color.gray[200]}`,
  backgroundColor: vars.color.background,
  boxShadow: vars.shadow.sm,
} as const;

export const features = style({
  ...cardGrid,
  '@media': {
    [media.sm]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
    [media.lg]: { gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' },
  },
});
globalStyle(`${features} > li`, cardLook);
globalStyle(`${features} h3`, { fontSize: vars.fontSize.xl, color: vars.color.primary[900] });
globalStyle(`${features} p`, { color: vars.color.textMuted });
globalStyle(`${features} a`, { marginTop: 'auto', fontWeight: vars.fontWeight.semibold });

/** « Comment ça marche » : numbered step cards. */
export const steps = style({
  ...cardGrid,
  counterReset: 'step',
  '@media': {
    [media.md]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
    [media.lg]: { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' },
  },
});
globalStyle(`${steps} > li`, { ...cardLook, position: 'relative', counterIncrement: 'step' });
globalStyle(`${steps} > li::after`, {
  content: 'counter(step)',
  position: 'absolute',
  top: vars.space[4],
  right: vars.space[6],
  fontFamily: vars.font.heading,
  fontSize: vars.fontSize['5xl'],
  lineHeight: 1,
  color: vars.color.primary[100],
});
globalStyle(`${steps} h3`, { fontSize: vars.fontSize.xl, color: vars.color.primary[900] });
globalStyle(`${steps} p`, { color: vars.color.textMuted });
globalStyle(`${steps} li > p:first-of-type`, {
  fontSize: vars.fontSize.sm,
  fontWeight: vars.fontWeight.semibold,
  color: vars.color.primary[800],
});

/** Picture beside text, side by side from `lg`. */
export const split = style({
  display: 'grid',
  gap: vars.space[10],
  alignItems: 'center',
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.lg]: { gridTemplateColumns: 'minmax(0, 5fr) minmax(0, 7fr)', gap: vars.space[16] } },
});
globalStyle(`${split}[data-text-first]`, { '@media': { [media.lg]: { gridTemplateColumns: 'minmax(0, 7fr) minmax(0, 5fr)' } } });
export const picture = style({
  width: '100%',
  height: 'auto',
  aspectRatio: '4 / 3',
  objectFit: 'cover',
  borderRadius: vars.radius['2xl'],
  boxShadow: vars.shadow.lg,
  backgroundColor: vars.color.primary[50],
});

/** Testimonials: quote mark, text, author with initials. */
export const testimonials = style({
  ...cardGrid,
  '@media': { [media.md]: { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' } },
});
globalStyle(`${testimonials} figure`, { ...cardLook, margin: 0, height: '100%', gap: vars.space[4] });
globalStyle(`${testimonials} figure > svg`, { color: vars.color.primary[600] });
globalStyle(`${testimonials} blockquote`, { margin: 0, flexGrow: 1, fontSize: vars.fontSize.lg, color: vars.color.gray[800] });
globalStyle(`${testimonials} figcaption`, { display: 'flex', alignItems: 'center', gap: vars.space[3] });
globalStyle(`${testimonials} figcaption > span:first-child`, {
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  flexShrink: 0,
  width: '2.75rem',
  height: '2.75rem',
  borderRadius: vars.radius.full,
  backgroundColor: vars.color.primary[800],
  color: vars.color.white,
  fontWeight: vars.fontWeight.semibold,
});
globalStyle(`${testimonials} figcaption strong`, { display: 'block', color: vars.color.primary[900] });
globalStyle(`${testimonials} figcaption small`, { display: 'block', fontSize: vars.fontSize.sm, color: vars.color.textMuted });

/** Plans: cards with price, features with ticks, a call to action. */
export const plans = style({
  ...cardGrid,
  alignItems: 'stretch',
  '@media': { [media.lg]: { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' } },
});
globalStyle(`${plans} > li`, { ...cardLook, padding: vars.space[8], gap: vars.space[4] });
globalStyle(`${plans} > li[data-highlight]`, {
  borderColor: vars.color.primary[700],
  borderWidth: '2px',
  boxShadow: vars.shadow.lg,
});
globalStyle(`${plans} ul`, { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: vars.space[2] });
globalStyle(`${plans} ul li`, { display: 'flex', gap: vars.space[2], alignItems: 'flex-start' });
globalStyle(`${plans} ul svg`, { flexShrink: 0, marginTop: '0.2rem', color: vars.color.primary[700] });
globalStyle(`${plans} li > a`, { marginTop: 'auto' });

/** FAQ: the heading beside the questions from `lg`. */
export const faq = style({
  display: 'grid',
  gap: vars.space[8],
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.lg]: { gridTemplateColumns: 'minmax(0, 4fr) minmax(0, 8fr)', gap: vars.space[16] } },
});
globalStyle(`${faq} h2`, { fontSize: vars.fontSize['3xl'], color: vars.color.primary[900] });
globalStyle(`${faq} h2 + p`, { marginTop: vars.space[4], color: vars.color.textMuted });

/* The designed content pages (decision 130): a section's text under its centred heading, three
   cards on one row, steps taken from an ordered list. */
globalStyle(`${head} > div`, { marginTop: vars.space[4], fontSize: vars.fontSize.lg, color: vars.color.textMuted });
globalStyle(`${head} > div > * + *`, { marginTop: vars.space[3] });
globalStyle(`${features}[data-count="3"]`, { '@media': { [media.lg]: { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' } } });
globalStyle(`${features} li > div > * + *, ${steps} li > div > * + *`, { marginTop: vars.space[3] });
globalStyle(`${faq} > h2`, { scrollMarginTop: vars.space[6] });

/** A legal page: its table of contents (from `lg`, sticky) beside one readable column. */
export const doc = style({
  display: 'grid',
  gap: vars.space[12],
  gridTemplateColumns: 'minmax(0, 1fr)',
  justifyContent: 'center',
  '@media': { [media.lg]: { gridTemplateColumns: 'minmax(0, 17rem) minmax(0, 46rem)' } },
});
globalStyle(`${doc} > nav`, {
  display: 'none',
  '@media': {
    [media.lg]: {
      display: 'block',
      position: 'sticky',
      top: vars.space[6],
      alignSelf: 'start',
      maxHeight: 'calc(100vh - 3rem)',
      overflowY: 'auto',
      padding: vars.space[6],
      borderRadius: vars.radius['2xl'],
      border: `1px solid ${vars.color.gray[200]}`,
      backgroundColor: vars.color.surface,
    },
  },
});
globalStyle(`${doc} > nav > p`, {
  fontSize: vars.fontSize.sm,
  fontWeight: vars.fontWeight.semibold,
  color: vars.color.primary[800],
  letterSpacing: '0.04em',
  textTransform: 'uppercase',
});
globalStyle(`${doc} > nav ol`, { listStyle: 'none', margin: 0, marginTop: vars.space[3], padding: 0 });
globalStyle(`${doc} > nav li + li`, { marginTop: vars.space[2] });
globalStyle(`${doc} > nav a`, { color: vars.color.gray[700], textDecoration: 'none', fontSize: vars.fontSize.sm });
globalStyle(`${doc} > nav a:hover`, { color: vars.color.primary[800], textDecoration: 'underline' });
globalStyle(`${doc} > div`, { maxWidth: 'none' });
