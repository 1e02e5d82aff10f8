import { globalStyle, style } from '@vanilla-extract/css';
import { container } from '#src/styles/global.css.ts';
import { media, vars } from '#src/styles/theme.css.ts';

/** Shared layout and typography of the public pages (content pages, blog, forms). */

export const pageHeader = style({
  paddingBlock: vars.space[10],
  background: `linear-gradient(180deg, ${vars.color.primary[50]} 0%, ${vars.color.background} 100%)`,
  borderBottom: `1px solid ${vars.color.gray[100]}`,
  '@media': { [media.md]: { paddingBlock: vars.space[16] } },
});

export const eyebrow = style({
  fontSize: vars.fontSize.sm,
  fontWeight: vars.fontWeight.semibold,
  color: vars.color.primary[800],
  letterSpacing: '0.04em',
  textTransform: 'uppercase',
  marginBottom: vars.space[3],
});

export const pageTitle = style({
  fontSize: vars.fontSize['3xl'],
  color: vars.color.primary[900],
  maxWidth: '48rem',
  '@media': { [media.md]: { fontSize: vars.fontSize['4xl'] } },
});

export const lead = style({ marginTop: vars.space[4], maxWidth: vars.size.prose, fontSize: vars.fontSize.lg, color: vars.color.textMuted });

export const body = style({ paddingBlock: vars.space[10], '@media': { [media.md]: { paddingBlock: vars.space[12] } } });

/** Content column with an optional aside (forms) from `lg`. */
export const withAside = style({
  display: 'grid',
  gap: vars.space[10],
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.lg]: { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 26rem)', alignItems: 'start' } },
});

export const aside = style({ '@media': { [media.lg]: { position: 'sticky', top: vars.space[6] } } });

/** Rendered Markdown. */
export const prose = style({ maxWidth: vars.size.prose, fontSize: vars.fontSize.lg, lineHeight: vars.lineHeight.relaxed });

globalStyle(`${prose} > * + *`, { marginTop: vars.space[4] });
globalStyle(`${prose} h2`, {
  marginTop: vars.space[10],
  fontSize: vars.fontSize['2xl'],
  color: vars.color.primary[900],
  scrollMarginTop: vars.space[6],
});
globalStyle(`${prose} h3`, {
  marginTop: vars.space[8],
  fontSize: vars.fontSize.xl,
  color: vars.color.primary[800],
  scrollMarginTop: vars.space[6],
});
globalStyle(`${prose} h2 + *, ${prose} h3 + *`, { marginTop: vars.space[3] });
globalStyle(`${prose} > :first-child`, { marginTop: 0 });
globalStyle(`${prose} ul, ${prose} ol`, { paddingInlineStart: vars.space[6], margin: 0 });
globalStyle(`${prose} ul, ${prose} ol`, { marginTop: vars.space[4] });
globalStyle(`${prose} li + li`, { marginTop: vars.space[2] });
globalStyle(`${prose} li::marker`, { color: vars.color.primary[700] });
globalStyle(`${prose} strong`, { fontWeight: vars.fontWeight.semibold });
globalStyle(`${prose} del`, { color: vars.color.textMuted });
globalStyle(`${prose} blockquote`, {
  margin: 0,
  marginTop: vars.space[6],
  paddingBlock: vars.space[4],
  paddingInline: vars.space[6],
  borderInlineStart: `4px solid ${vars.color.primary[600]}`,
  backgroundColor: vars.color.primary[50],
  borderRadius: vars.radius.lg,
  fontStyle: 'italic',
});
globalStyle(`${prose} blockquote p + p`, {
  marginTop: vars.space[2],
  fontStyle: 'normal',
  fontSize: vars.fontSize.base,
  color: vars.color.textMuted,
});
globalStyle(`${prose} table`, {
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: vars.fontSize.base,
  display: 'block',
  overflowX: 'auto',
});
globalStyle(`${prose} th, ${prose} td`, {
  border: `1px solid ${vars.color.gray[300]}`,
  padding: vars.space[2],
  textAlign: 'left',
  verticalAlign: 'top',
});
globalStyle(`${prose} th`, { backgroundColor: vars.color.gray[50] });
globalStyle(`${prose} hr`, { border: 0, borderTop: `1px solid ${vars.color.gray[200]}`, marginBlock: vars.space[8] });

/* The contact page: the agency's details (« Nos coordonnées », first section of contact.md) as one
   card beside the form (decision 130), styled from the Markdown's heading id: no class, no script. */
const detailsCard = {
  backgroundColor: vars.color.primary[50],
  border: `1px solid ${vars.color.primary[100]}`,
  paddingInline: vars.space[6],
} as const;
globalStyle(`${prose} #nos-coordonnees + p`, {
  ...detailsCard,
  borderBottom: 0,
  borderStartStartRadius: vars.radius['2xl'],
  borderStartEndRadius: vars.radius['2xl'],
  paddingTop: vars.space[6],
  color: vars.color.primary[900],
});
globalStyle(`${prose} #nos-coordonnees + p + ul`, {
  ...detailsCard,
  borderTop: 0,
  borderEndStartRadius: vars.radius['2xl'],
  borderEndEndRadius: vars.radius['2xl'],
  marginTop: 0,
  paddingTop: vars.space[3],
  paddingBottom: vars.space[6],
  listStyle: 'none',
});

export const section = style({ paddingBlock: vars.space[12], '@media': { [media.md]: { paddingBlock: vars.space[16] } } });
export const sectionMuted = style([section, { backgroundColor: vars.color.surface }]);

const grid3 = style({
  display: 'grid',
  gap: vars.space[4],
  margin: 0,
  padding: 0,
  listStyle: 'none',
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.md]: { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' } },
});

const card = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
  padding: vars.space[6],
  borderRadius: vars.radius.xl,
  border: `1px solid ${vars.color.gray[200]}`,
  backgroundColor: vars.color.background,
  boxShadow: vars.shadow.sm,
});

export const cardTitle = style({ fontSize: vars.fontSize.xl, color: vars.color.primary[800] });
export const cardText = style({ color: vars.color.textMuted });

export const ctas = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space[3], marginTop: vars.space[6] });

export const ctaBand = style({
  paddingBlock: vars.space[12],
  backgroundColor: vars.color.primary[900],
  color: vars.color.white,
});
export const ctaTitle = style({ fontSize: vars.fontSize['2xl'], color: vars.color.white });
export const ctaText = style({ marginTop: vars.space[3], maxWidth: vars.size.prose, color: vars.color.primary[100] });
/** A light button on the dark band (contrast ≥ 4.5:1). */
export const ctaButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  minHeight: '2.75rem',
  paddingInline: vars.space[5],
  borderRadius: vars.radius.lg,
  backgroundColor: vars.color.white,
  color: vars.color.primary[900],
  fontWeight: vars.fontWeight.semibold,
  textDecoration: 'none',
  selectors: { '&:hover': { backgroundColor: vars.color.primary[100], color: vars.color.primary[950] } },
});
export const ctaLink = style({ color: vars.color.white, selectors: { '&:hover': { color: vars.color.primary[100] } } });

/** Hero of the home page: text and illustration side by side from `lg`. */
export const hero = style({
  paddingBlock: vars.space[12],
  background: `linear-gradient(180deg, ${vars.color.primary[50]} 0%, ${vars.color.background} 100%)`,
  '@media': { [media.md]: { paddingBlock: vars.space[16] } },
});
export const heroGrid = style({
  display: 'grid',
  gap: vars.space[8],
  alignItems: 'center',
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.lg]: { gridTemplateColumns: 'minmax(0, 7fr) minmax(0, 5fr)' } },
});
export const heroTitle = style({
  fontSize: vars.fontSize['3xl'],
  color: vars.color.primary[900],
  '@media': { [media.md]: { fontSize: vars.fontSize['5xl'] } },
});
export const heroImage = style({ width: '100%', height: 'auto', borderRadius: vars.radius['2xl'], boxShadow: vars.shadow.lg });

/** FAQ: native disclosure widgets, a chevron that turns when open. */
export const faqList = style({ display: 'flex', flexDirection: 'column', gap: vars.space[3], maxWidth: '48rem' });
export const faqItem = style({
  borderRadius: vars.radius.xl,
  border: `1px solid ${vars.color.gray[200]}`,
  backgroundColor: vars.color.background,
  boxShadow: vars.shadow.sm,
  selectors: { '&[open]': { borderColor: vars.color.primary[300] } },
});
export const faqQuestion = style({
  cursor: 'pointer',
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  gap: vars.space[4],
  padding: vars.space[5],
  fontWeight: vars.fontWeight.semibold,
  color: vars.color.primary[900],
  listStyle: 'none',
  selectors: {
    '&::-webkit-details-marker': { display: 'none' },
    '&::after': {
      content: '""',
      flexShrink: 0,
      width: '0.6rem',
      height: '0.6rem',
      borderRight: `2px solid ${vars.color.primary[700]}`,
      borderBottom: `2px solid ${vars.color.primary[700]}`,
      transform: 'rotate(45deg)',
      transition: `transform ${vars.duration.fast}`,
    },
    'details[open] > &::after': { transform: 'rotate(-135deg)' },
  },
  '@media': { [media.reducedMotion]: { selectors: { '&::after': { transition: 'none' } } } },
});
export const faqAnswer = style({ paddingInline: vars.space[5], paddingBottom: vars.space[5], color: vars.color.gray[700] });

/** Plans. */
export const price = style({
  fontSize: vars.fontSize['3xl'],
  fontWeight: vars.fontWeight.bold,
  color: vars.color.primary[900],
  fontFamily: vars.font.heading,
});
export const priceCycle = style({
  fontSize: vars.fontSize.base,
  fontWeight: vars.fontWeight.normal,
  color: vars.color.textMuted,
  fontFamily: vars.font.body,
});
export const priceAlt = style({ color: vars.color.gray[700] });
export const badge = style({
  alignSelf: 'flex-start',
  paddingInline: vars.space[2],
  paddingBlock: vars.space[0.5],
  borderRadius: vars.radius.full,
  backgroundColor: vars.color.primary[100],
  color: vars.color.primary[900],
  fontSize: vars.fontSize.sm,
  fontWeight: vars.fontWeight.semibold,
});
export const note = style({ marginTop: vars.space[6], fontSize: vars.fontSize.sm, color: vars.color.textMuted, maxWidth: vars.size.prose });

/** Forms. */
export const formCard = style([card, { padding: vars.space[6], gap: vars.space[5], '@media': { [media.md]: { padding: vars.space[8] } } }]);
export const formTitle = style({ fontSize: vars.fontSize.xl, color: vars.color.primary[900] });
export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space[5] });
export const formNarrow = style({ maxWidth: '36rem' });
export const textarea = style({ minHeight: '10rem', resize: 'vertical', lineHeight: vars.lineHeight.normal });
export const formFootnote = style({ fontSize: vars.fontSize.sm, color: vars.color.textMuted });
export const twoFields = style({
  display: 'grid',
  gap: vars.space[5],
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { [media.sm]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' } },
});

/** Blog. */
export const articleList = style([grid3, { rowGap: vars.space[8] }]);
export const articleCard = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
  position: 'relative',
  overflow: 'hidden',
  paddingBottom: vars.space[6],
  borderRadius: vars.radius['2xl'],
  border: `1px solid ${vars.color.gray[200]}`,
  backgroundColor: vars.color.background,
  boxShadow: vars.shadow.sm,
  selectors: { '&:hover': { boxShadow: vars.shadow.lg } },
});
globalStyle(`${articleCard} > :not(img)`, { marginInline: vars.space[6] });
globalStyle(`${articleCard} > img`, { borderRadius: 0 });
export const articleCardImage = style({
  width: '100%',
  height: 'auto',
  aspectRatio: '1200 / 630',
  borderRadius: vars.radius.xl,
  backgroundColor: vars.color.gray[100],
});
export const articleCardTitle = style({ fontSize: vars.fontSize.xl });
export const articleCardLink = style({
  color: vars.color.primary[900],
  textDecoration: 'none',
  selectors: {
    '&::after': { content: '""', position: 'absolute', inset: 0 },
    '&:hover': { textDecoration: 'underline', color: vars.color.primary[800] },
  },
});
export const articleMeta = style({ fontSize: vars.fontSize.sm, color: vars.color.textMuted });
export const articleCover = style({
  width: '100%',
  height: 'auto',
  aspectRatio: '1200 / 630',
  borderRadius: vars.radius['2xl'],
  marginTop: vars.space[8],
  maxWidth: '56rem',
});
export const draftBadge = style([badge, { backgroundColor: vars.color.warningSurface, color: vars.color.warning }]);
export const backLink = style({ display: 'inline-block', marginTop: vars.space[10], fontWeight: vars.fontWeight.semibold });

/** Bio page (no layout). */
export const bioPage = style({
  minHeight: '100vh',
  display: 'flex',
  justifyContent: 'center',
  paddingBlock: vars.space[12],
  paddingInline: vars.space[4],
  background: `linear-gradient(180deg, ${vars.color.primary[50]} 0%, ${vars.color.background} 60%)`,
  outline: 'none',
});
export const bioCard = style({
  width: '100%',
  maxWidth: '28rem',
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[5],
  textAlign: 'center',
});
export const bioLogo = style({ width: '5rem', height: '5rem', marginInline: 'auto' });
export const bioTitle = style({ fontSize: vars.fontSize['3xl'], color: vars.color.primary[900] });
export const bioContent = style({});
globalStyle(`${bioContent} ul`, {
  listStyle: 'none',
  margin: 0,
  marginTop: vars.space[5],
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[3],
});
globalStyle(`${bioContent} h2`, { fontSize: vars.fontSize.lg, color: vars.color.primary[800], marginTop: vars.space[6] });
globalStyle(`${bioContent} p`, { color: vars.color.gray[700] });
globalStyle(`${bioContent} p + p, ${bioContent} ul + p`, { marginTop: vars.space[5], fontSize: vars.fontSize.sm });
globalStyle(`${bioContent} a`, {
  display: 'block',
  padding: vars.space[3],
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.primary[700]}`,
  backgroundColor: vars.color.background,
  fontWeight: vars.fontWeight.semibold,
  textDecoration: 'none',
  color: vars.color.primary[800],
});
globalStyle(`${bioContent} a:hover`, { backgroundColor: vars.color.primary[50] });
globalStyle(`${bioContent} li:first-child a`, {
  backgroundColor: vars.color.accent,
  color: vars.color.accentText,
  borderColor: vars.color.accent,
});
export const bioFooter = style({
  fontSize: vars.fontSize.sm,
  color: vars.color.textMuted,
  display: 'flex',
  justifyContent: 'center',
  gap: vars.space[4],
  flexWrap: 'wrap',
});

/* A blog article: header, cover and text in one centred reading column (decision 130), not a
   column pinned to the left of a wide screen. CSS only: no class name in the first load. */
globalStyle(`article > ${pageHeader} > ${container}, article > ${body}`, { maxWidth: '48rem' });
globalStyle(`article > ${body} > ${prose}`, { maxWidth: 'none' });
