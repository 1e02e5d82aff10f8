import type { StepId } from '#machines/onboarding/step-ids.ts';

/** The heading and introduction of an onboarding screen that shows the same ones to every member. */
export interface StepFrame {
  title: string;
  intro: string;
}

/**
 * The frames of the steps whose heading and introduction never change: each step's page draws
 * them (`StepPage`), and the step's prerendered shell paints them before the page's code has run
 * (`scripts/prerender.ts`, decision 142), so that a member opening the step reads it at once.
 */
export const STEP_FRAMES = {
  profil: {
    title: 'Vos informations personnelles',
    intro:
      'Ces informations nous permettent d’étudier votre dossier et de vous présenter des profils compatibles. Tous les champs sont obligatoires, sauf mention contraire.',
  },
  'questionnaire-profil': {
    title: 'Questionnaire de rencontre',
    intro: 'Décrivez la personne que vous souhaitez rencontrer. Ce questionnaire sera annexé à votre contrat.',
  },
  formules: {
    title: 'Choisissez votre formule',
    intro:
      'Deux accompagnements, Horizon (6 mois) et Sérénité (12 mois), à régler chaque mois ou en une seule fois. Le contrat est à durée déterminée, sans reconduction tacite.',
  },
  'informations-et-tarifs': {
    title: 'Informations précontractuelles',
    intro: 'Avant de prendre rendez-vous, prenez connaissance des conditions essentielles de votre futur contrat.',
  },
  'prendre-un-rendez-vous': {
    title: 'Prenez rendez-vous',
    intro:
      'Choisissez un créneau pour votre entretien personnalisé avec une conseillère (15 minutes, par téléphone ou en visioconférence).',
  },
} as const satisfies Partial<Record<StepId, StepFrame>>;

export type FramedStep = keyof typeof STEP_FRAMES;

/** `/mon-compte/inscription/profil` → `profil`; a path of no framed step → `undefined`. */
export function framedStepOf(path: string): FramedStep | undefined {
  const match = /^\/mon-compte\/inscription\/([a-z-]+)$/.exec(path);
  const step = match?.[1];
  return step !== undefined && Object.hasOwn(STEP_FRAMES, step) ? (step as FramedStep) : undefined;
}
