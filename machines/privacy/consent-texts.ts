import { WITHDRAWAL_PERIOD_DAYS } from '#machines/onboarding/legal-periods.ts';
import { PRIVACY_POLICY_VERSION } from '#machines/public-site/public-forms.ts';
import { CONSENT_VERSION } from '#machines/public-site/consent.ts';
import { TERMINATION_HOW } from '#machines/onboarding/termination-texts.ts';

/**
 * The exact texts of every consent the agency collects, versioned (decision 070). The SPA shows
 * these strings and the BFF stores, with each consent, the version and the SHA-256 of the text
 * (`bff/privacy/consents.ts`): proof of what the person agreed to (GDPR art. 7(1)).
 *
 * Never edit a text in place: add a new version, make it `current`, keep the old one so that
 * older records can still be matched to their wording.
 */

export const consentKinds = ['privacy_policy', 'sensitive_data', 'contract_terms', 'early_start', 'cookies'] as const;
export type ConsentKind = (typeof consentKinds)[number];

export interface ConsentText {
  version: string;
  /** What the checkbox says (the consent itself). */
  label: string;
  /** The explanation shown beside it, when any. */
  description: string;
}

export interface ConsentKindInfo {
  /** Title shown in « Mon profil ». */
  title: string;
  /** The member can withdraw it from « Mon profil » (`POST /api/v1/user/consents/withdraw`). */
  withdrawable: boolean;
  /** What withdrawing does, or how else the member acts on it. */
  effect: string;
  current: string;
  versions: Record<string, ConsentText>;
}

export const consentTexts: { readonly [K in ConsentKind]: ConsentKindInfo } = {
  privacy_policy: {
    title: 'Politique de confidentialité (pré-inscription)',
    withdrawable: false,
    effect:
      'Vous avez accepté que vos informations de pré-inscription servent à vous recontacter. Pour les faire supprimer, supprimez votre compte ci-dessous ou écrivez-nous.',
    current: PRIVACY_POLICY_VERSION,
    versions: {
      [PRIVACY_POLICY_VERSION]: {
        version: PRIVACY_POLICY_VERSION,
        label:
          'J’accepte que mes informations soient utilisées par Union Sincère pour me recontacter au sujet de mon inscription, selon la politique de confidentialité.',
        description: '',
      },
    },
  },
  sensitive_data: {
    title: 'Traitement de ma pratique religieuse (donnée sensible)',
    withdrawable: true,
    effect:
      'Si vous retirez ce consentement, nous cessons aussitôt d’utiliser votre pratique religieuse : elle est retirée de votre profil et de votre questionnaire, et la recherche de profils compatibles est suspendue. Nous vous contacterons pour voir si l’accompagnement peut se poursuivre.',
    current: '2026-11-21',
    versions: {
      '2026-11-21': {
        version: '2026-11-21',
        label: 'J’accepte que l’agence traite mes informations sur ma pratique religieuse pour me présenter des profils compatibles.',
        description:
          'Votre pratique religieuse est une donnée sensible (article 9 du RGPD). Nous ne la traitons qu’avec votre accord explicite, dans le seul but de vous présenter des personnes compatibles avec vos valeurs. Elle n’est communiquée à personne en dehors de l’agence, et vous pouvez retirer votre consentement à tout moment depuis « Mon profil ».',
      },
    },
  },
  contract_terms: {
    title: 'Contrat, annexe et conditions générales de vente',
    withdrawable: false,
    effect: `Le contrat ne se retire pas comme un consentement : vous pouvez vous rétracter dans le délai légal, puis le résilier pour motif légitime (conditions générales de vente). ${TERMINATION_HOW}`,
    current: '2026-11-21',
    versions: {
      '2026-11-21': {
        version: '2026-11-21',
        label: 'J’ai lu et j’accepte le contrat, son annexe (mon questionnaire) et les conditions générales de vente.',
        description: '',
      },
    },
  },
  early_start: {
    title: 'Démarrage avant la fin du délai de rétractation',
    withdrawable: false,
    effect: `Cette demande ne se retire pas : vous gardez votre droit de rétractation pendant ${WITHDRAWAL_PERIOD_DAYS} jours, en payant alors le service déjà fourni (article L221‑25 du Code de la consommation).`,
    current: '2026-12-07',
    versions: {
      '2026-11-21': {
        version: '2026-11-21',
        label: `Je demande expressément que l’accompagnement commence avant la fin du délai de rétractation de ${WITHDRAWAL_PERIOD_DAYS} jours.`,
        description: `Vous disposez d’un délai de rétractation de ${WITHDRAWAL_PERIOD_DAYS} jours après la signature du contrat. L’entretien de mise en relation n’a lieu qu’à la fin de ce délai. Si vous cochez cette case, l’accompagnement pourra commencer dès le paiement de l’abonnement ; vous pourrez toujours vous rétracter dans les ${WITHDRAWAL_PERIOD_DAYS} jours, mais vous paierez alors le service déjà fourni. Le code de réduction sur les frais de dossier ne sera plus disponible.`,
      },
      // « entretien de rapprochement », the glossary's name of the meeting (decision 198).
      '2026-12-07': {
        version: '2026-12-07',
        label: `Je demande expressément que l’accompagnement commence avant la fin du délai de rétractation de ${WITHDRAWAL_PERIOD_DAYS} jours.`,
        description: `Vous disposez d’un délai de rétractation de ${WITHDRAWAL_PERIOD_DAYS} jours après la signature du contrat. L’entretien de rapprochement n’a lieu qu’à la fin de ce délai. Si vous cochez cette case, l’accompagnement pourra commencer dès le paiement de l’abonnement ; vous pourrez toujours vous rétracter dans les ${WITHDRAWAL_PERIOD_DAYS} jours, mais vous paierez alors le service déjà fourni. Le code de réduction sur les frais de dossier ne sera plus disponible.`,
      },
    },
  },
  cookies: {
    title: 'Cookies et traceurs',
    withdrawable: false,
    effect: 'Votre choix se modifie à tout moment par le lien « Gérer les cookies » en bas de chaque page.',
    current: CONSENT_VERSION,
    versions: {
      [CONSENT_VERSION]: {
        version: CONSENT_VERSION,
        label: 'Choix en matière de cookies par catégorie (fonctionnels, statistiques, marketing, non classés).',
        // The banner's paragraph, shown as is (src/features/consent/consent-banner.tsx).
        description:
          'Union Sincère utilise des cookies nécessaires au fonctionnement du site. Avec votre accord, nous et Google (Tag Manager, Analytics, Ads) utiliserions aussi des traceurs pour mesurer l’audience et l’efficacité de nos campagnes. Vous pouvez tout refuser, tout accepter ou choisir, et changer d’avis à tout moment depuis le lien « Gérer les cookies » en bas de page. Votre choix est conservé 6 mois.',
      },
    },
  },
};

/** The text of a kind's current version. */
export function currentConsentText(kind: ConsentKind): ConsentText {
  const info = consentTexts[kind];
  const text = info.versions[info.current];
  if (!text) throw new Error(`consent text missing: ${kind} ${info.current}`);
  return text;
}

/** The exact string whose SHA-256 is stored with a consent: label, a blank line, description. */
export function consentTextToHash(text: ConsentText): string {
  return text.description ? `${text.label}\n\n${text.description}` : text.label;
}
