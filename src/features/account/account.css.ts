import { globalStyle, style } from '@vanilla-extract/css';
import { media, vars } from '#src/styles/theme.css.ts';

export const title = style({ fontSize: vars.fontSize['3xl'], color: vars.color.primary[900] });

export const text = style({ marginTop: vars.space[3], color: vars.color.textMuted, maxWidth: vars.size.prose });

export const panel = style({
  marginTop: vars.space[6],
  padding: vars.space[6],
  borderRadius: vars.radius.xl,
  border: `1px solid ${vars.color.gray[200]}`,
  backgroundColor: vars.color.surface,
});

/*
 * A panel's title and sub-titles look like the other sections' of « Mon profil » (« Adresse
 * e-mail », « Mes consentements »), and a sub-title stands apart from the text before it.
 */
globalStyle(`${panel} > h2`, { fontSize: vars.fontSize.xl, color: vars.color.primary[900] });
globalStyle(`${panel} h3`, { marginTop: vars.space[5], fontSize: vars.fontSize.lg });

export const messageList = style({ listStyle: 'none', padding: 0, margin: 0 });

export const messageSubject = style({ fontSize: vars.fontSize.lg, color: vars.color.primary[900], marginBottom: vars.space[4] });

/** The conversation under the « Écrire à l'agence » panel, apart from it. */
export const conversationBlock = style({ marginTop: vars.space[6] });

/* Mon profil: the address and password sections (decision 102) look like its data-rights section. */
export { heading as sectionHeading, section, text as sectionText } from '#src/features/privacy/privacy.css.ts';

/* Label above value on a phone (addresses are long), side by side from md up */
export const facts = style({
  margin: 0,
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  columnGap: vars.space[4],
  rowGap: vars.space[1],
  '@media': { [media.md]: { gridTemplateColumns: 'max-content minmax(0, 1fr)', rowGap: vars.space[2] } },
});

export const factLabel = style({ color: vars.color.textMuted });

export const factValue = style({
  margin: 0,
  marginBottom: vars.space[2],
  fontWeight: vars.fontWeight.semibold,
  overflowWrap: 'anywhere',
  '@media': { [media.md]: { marginBottom: 0 } },
});

export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space[5], maxWidth: '28rem', marginTop: vars.space[4] });

/* /mon-compte/confirmer-email is laid out as /connexion/confirmation: a centred column. */
export { standalone, standaloneActions } from '#src/features/auth/auth.css.ts';

/**
 * Where the account home's lower sections appear once their code has come: at least a screen high
 * meanwhile, so that the footer stays below the fold and does not jump when they are drawn.
 */
export const sectionsPending = style({ minHeight: '100vh' });
