/**
 * One name for each thing a member reads (decision 198): the screens, the mails, the public site's
 * copy (content/), the contract and the invoices use these words, and
 * `tests/unit/glossary.test.ts` fails on a word listed under `replaced` anywhere a member reads,
 * naming the word to write instead. No import: the public pages' bundle reads it.
 *
 * The journey's steps are not listed here: their number and names come from the onboarding chart
 * (machines/onboarding/steps.ts), which the home page, the registration pages and the app quote.
 */

/** The two meetings of the journey, and the introductions between two members. */
export const MEETINGS = {
  /** Before the contract: 15 minutes to get to know the member (step « Entretien personnalisé »). */
  onboarding: 'entretien personnalisé',
  /**
   * After the withdrawal period: the counsellor and the member go through the questionnaire
   * (« questionnaire de rapprochement ») and the search begins. « Rapprochement » is French, says
   * what the meeting prepares, and differs from « mise en relation », which is the introduction of
   * two members to each other.
   */
  matchmaking: 'entretien de rapprochement',
  /** Two members introduced to each other by the agency. */
  introduction: 'mise en relation',
} as const;

/** The questionnaire of step 2 (the contract's annex, R224-1). */
export const QUESTIONNAIRE = 'questionnaire de rapprochement';

/** The legal periods after signature. */
export const PERIODS = {
  /** 7 days, L224-91: no payment, and the member may renounce. */
  renunciation: 'délai de renonciation',
  /** 14 days, L221-18: the member may withdraw. */
  withdrawal: 'délai de rétractation',
} as const;

/** The member's rights on the contract. */
export const RIGHTS = {
  renunciation: 'renonciation',
  withdrawal: 'rétractation',
  termination: 'résiliation',
} as const;

/** The documents the member receives. */
export const DOCUMENTS = {
  contract: 'contrat de courtage matrimonial',
  invoice: 'facture',
  creditNote: 'avoir',
  preContract: 'informations précontractuelles',
} as const;

/** The badge of the plan the agency puts forward, on the site and in the app alike. */
export const PLAN_BADGE = 'La plus choisie';

/** How a plan is paid. */
export const PLAN_PAYMENTS = { monthly: 'mensualité', inFull: 'paiement en une fois', fileFee: 'frais de dossier' } as const;

/**
 * Words replaced by the glossary's: a pattern (case-insensitive, on French text) and the word to
 * write instead. The test names the replacement when it finds one.
 */
export const replaced: readonly { pattern: RegExp; use: string }[] = [
  { pattern: /entretien de matchmaking/i, use: `« ${MEETINGS.matchmaking} »` },
  { pattern: /entretien de mise en relation/i, use: `« ${MEETINGS.matchmaking} »` },
  { pattern: /questionnaire de matchmaking/i, use: `« ${QUESTIONNAIRE} »` },
  { pattern: /\bRecommandée\b/, use: `« ${PLAN_BADGE} » (le badge de la formule)` },
  { pattern: /délai de réflexion/i, use: `« ${PERIODS.renunciation} » ou « ${PERIODS.withdrawal} »` },
];

/**
 * English words that a French text must not use, and their French: « e-mail » or « adresse e-mail »
 * (never « email » as a word), « connexion », « paiement »…
 */
export const anglicisms: readonly { pattern: RegExp; use: string }[] = [
  { pattern: /(?<![\w@.-])emails?(?![\w@.-])/i, use: '« e-mail » ou « adresse e-mail »' },
  { pattern: /(?<![\w/-])log-?in(?![\w/-])/i, use: '« connexion »' },
  { pattern: /(?<![\w/-])checkout(?![\w/-])/i, use: '« paiement »' },
  { pattern: /(?<![\w/-])matchmaking(?![\w/-])/i, use: `« ${MEETINGS.matchmaking} » ou « ${MEETINGS.introduction} »` },
  { pattern: /(?<![\w/-])(?:newsletter|dashboard|booking|password|upload)(?![\w/-])/i, use: 'le mot français' },
];
