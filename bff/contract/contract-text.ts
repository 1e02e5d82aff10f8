import type { ContractForm, Questionnaire, RequirableCriterion } from '#machines/onboarding/forms.ts';
import {
  heightWishText,
  maritalStatusLabelFor,
  professionalSituationLabels,
  regionLabels,
  soughtPracticeLabels,
  wantsChildrenLabels,
} from '#machines/onboarding/labels.ts';
import { CONTRACT_MAX_MONTHS } from '#machines/onboarding/periods.ts';
import { COUNTING_RULE, civilDayText, dayAfterText, untilText } from '#machines/onboarding/deadline-texts.ts';
import { deadlinesOfSignature, NO_PAYMENT_PERIOD_DAYS, WITHDRAWAL_PERIOD_DAYS } from '#machines/onboarding/legal-deadlines.ts';
import { expectedAmountCents, FILE_FEE_CENTS, formatEuros, type Plan } from '#machines/onboarding/plans.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';
import type { Gender } from '#machines/onboarding/record.ts';
import { formatPhone } from '#machines/onboarding/phone-format.ts';
import { agencyValues } from '#machines/public-site/site-tokens.ts';
import { fillTokens } from '#machines/public-site/fill-tokens.ts';
import { AGENCY_IDENTITY_TEXT, MEDIATOR_TEXT } from '#machines/onboarding/pre-contract-info.ts';
import { TERMINATION_HOW, TERMINATION_PROOF } from '#machines/onboarding/termination-texts.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';

/**
 * The text of the matrimonial agency contract (Code de la consommation L224-90 to L224-95,
 * R224-1 and R224-2), with its annex: the qualities of the person sought. Kept apart from the
 * PDF rendering so that its mentions can be read and tested as text. Consistent with the CGV
 * (content/pages/conditions-generales-de-vente.md).
 */

/** The agency's identity as the contract names it (L224-90), from the configuration (decision 106). */
export interface Agency {
  name: string;
  legalForm: string;
  address: string;
  registration: string;
  phone: string;
  email: string;
  mediator: string;
  /** Name, form, seat, registration, phone and e-mail in one sentence, as the pre-contract step prints it. */
  identityLine: string;
}

export function agencyIdentity(identity: AgencyIdentity): Agency {
  const values = agencyValues(identity);
  return {
    name: identity.legalName,
    legalForm: identity.legalForm,
    address: identity.address,
    registration: `${values['agence.rcs']}, SIRET ${values['agence.siret']}`,
    phone: values['agence.telephone'] as string,
    email: identity.email,
    // The same sentences as the pre-contract step's (decision 198).
    mediator: fillTokens(MEDIATOR_TEXT, values),
    identityLine: fillTokens(AGENCY_IDENTITY_TEXT, values),
  };
}

export interface ContractInput {
  agency: Agency;
  email: string;
  form: Pick<ContractForm, 'fullName' | 'address' | 'postcode' | 'city' | 'signature'>;
  /** Step 1 answers, when readable: birth date and phone complete the identity. */
  profile: { birthDate?: string; phone?: string } | null;
  /** The member's gender: the contract writes « née » for a woman, never « né(e) » (decision 198). */
  gender?: Gender | null | undefined;
  questionnaire: Questionnaire | null;
  plan: Plan;
  /** The member's express request to start before the end of the 14-day period (L221-25). */
  renounced: boolean;
  couponApplied: boolean;
  /** What the member's code takes off the file fee (decision 195); absent: the whole fee. */
  fileFeeDiscountCents?: number | null | undefined;
  /** When the contract form was completed, and when the contract was signed (`sub_date`). */
  formCompletedAt: Date | null;
  signedAt: Date | null;
  /** The day an unsigned contract is shown for (its preview is the document signed that day). */
  datedAt: Date;
}

export type Block = string | { bullets: string[] };
export interface Section {
  heading: string;
  blocks: Block[];
}
export interface ContractDocument {
  title: string;
  status: string;
  sections: Section[];
  annex: Section;
  signature: Section;
}

const parisDate = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'long' });
const parisDateTime = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'long', timeStyle: 'short' });

/** The last day of a contract of `months` months starting on `start` (same day number, Paris calendar, minus one day). */
export function contractEndDate(start: Date, months: number): Date {
  const [year, month, dayOfMonth] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(start).split('-').map(Number) as [
    number,
    number,
    number,
  ];
  const end = new Date(Date.UTC(year, month - 1 + months, dayOfMonth, 12));
  end.setUTCDate(end.getUTCDate() - 1);
  return end;
}

function birthDateText(value: string | undefined): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  return parisDate.format(new Date(`${value}T12:00:00Z`));
}

function priceBlocks(input: ContractInput): Block[] {
  const { plan } = input;
  const fee = expectedAmountCents('file_fee', input);
  const planLine =
    plan.type === 'monthly'
      ? `Prix de la formule : ${formatEuros(plan.priceCents)} par mois pendant ${plan.installments} mois, soit ${formatEuros(plan.totalCents)} au total, toutes taxes comprises.`
      : `Prix de la formule : ${formatEuros(plan.totalCents)} toutes taxes comprises, payé en une seule fois${plan.discount ? ` (10 % de moins que les mensualités de la même formule, qui font ${formatEuros(plan.discount.originalPriceCents)})` : ''}.`;
  const terms =
    plan.type === 'monthly'
      ? `La première mensualité est payée par carte bancaire à l’ouverture du paiement dans l’espace membre ; les suivantes sont prélevées automatiquement sur la même carte, chaque mois à la même date. Les prélèvements s’arrêtent d’eux-mêmes après la ${plan.installments}e mensualité.`
      : `Le prix est payé par carte bancaire, en une fois, à l’ouverture du paiement dans l’espace membre.`;
  return [
    planLine,
    terms,
    `Aucun paiement ni aucun versement, sous quelque forme que ce soit, n’est demandé au titre du présent contrat avant l’expiration du délai de renonciation de ${NO_PAYMENT_PERIOD_DAYS} jours qui suit sa signature (article L224‑91) : le paiement n’est ouvert qu’à l’issue de ce délai.`,
    `Frais de dossier, distincts du prix de la formule et payés avec elle (ou avec sa première mensualité) à l’issue du délai de renonciation : ${formatEuros(FILE_FEE_CENTS)}${input.couponApplied ? ` ; le code avantage appliqué en retire ${formatEuros(FILE_FEE_CENTS - fee)}, soit ${formatEuros(fee)} à payer` : ''}.`,
    'Aucun autre frais que les frais de dossier et le prix de la formule n’est facturé au titre de l’accompagnement.',
  ];
}

function annexBlocks(questionnaire: Questionnaire | null, member: Gender | null): Block[] {
  // The person sought is of the other gender: « Divorcé » for a woman's search, never « Divorcé(e) ».
  const sought: Gender | null = member === 'femme' ? 'homme' : member === 'homme' ? 'femme' : null;
  const ready = member === 'femme' ? 'Prête' : member === 'homme' ? 'Prêt' : 'Prêt ou prête';
  if (!questionnaire) return ['Le questionnaire de rapprochement du membre n’est pas disponible.'];
  const list = (values: readonly string[], labels: Record<string, string>) => values.map((value) => labels[value] ?? value).join(', ');
  // Decision 193: the criteria the member marked indispensable say so (questionnaires saved before carry no mark).
  const heightWish = heightWishText(questionnaire.soughtHeightMin, questionnaire.soughtHeightMax);
  const required = (criterion: RequirableCriterion) => (questionnaire.requiredCriteria?.includes(criterion) ? ' (indispensable)' : '');
  return [
    'Qualités de la personne recherchée, telles que le membre les a indiquées dans son questionnaire de rapprochement (article R224‑1 du Code de la consommation) :',
    {
      bullets: [
        `Tranche d’âge : de ${questionnaire.soughtAgeMin} à ${questionnaire.soughtAgeMax} ans${required('age')}`,
        `Région : ${list(questionnaire.soughtRegions, regionLabels)}${required('region')}`,
        `Situation familiale : ${questionnaire.soughtFamilySituations.map((value) => maritalStatusLabelFor(value, sought)).join(', ')}${required('situation-familiale')}${questionnaire.acceptsChildren ? ', enfants acceptés' : ', sans enfants'}${required('enfants')}`,
        `Situation professionnelle : ${professionalSituationLabels[questionnaire.soughtProfessionalSituation]}`,
        `Pratique religieuse : ${soughtPracticeLabels[questionnaire.soughtPractice]}${required('pratique')}`,
        ...(questionnaire.wantsChildren
          ? [`Désir d’enfants du membre : ${wantsChildrenLabels[questionnaire.wantsChildren]}${required('desir-enfants')}`]
          : []),
        ...(questionnaire.readyToRelocate === undefined
          ? []
          : [`${ready} à déménager : ${questionnaire.readyToRelocate ? 'oui' : 'non'}${required('demenagement')}`]),
        // Decision 212: the wished height, a wish only (printed only when given).
        ...(heightWish ? [`Taille souhaitée :${heightWish}`] : []),
        `Autres qualités essentielles : ${questionnaire.otherQualities}`,
      ],
    },
    ...(questionnaire.requiredCriteria
      ? [
          'Un critère indiqué comme indispensable n’est jamais écarté par une proposition de l’agence, sauf explication écrite adressée au membre ; les autres critères sont des souhaits qui orientent les propositions.',
        ]
      : []),
  ];
}

export function contractDocument(input: ContractInput): ContractDocument {
  const { agency, plan, form } = input;
  const birth = birthDateText(input.profile?.birthDate);
  const months = Math.min(plan.durationMonths, CONTRACT_MAX_MONTHS);
  // The document is dated by its day (Paris), never by an instant: the preview shown on the day
  // of signature is byte for byte the PDF signed, mailed and stored (decision 109). The periods
  // are civil days (decision 165): they depend on that day only, so the preview states them too.
  const day = input.signedAt ?? input.datedAt;
  const deadlines = deadlinesOfSignature(day.getTime());
  const signedOn = civilDayText(deadlines.signedOnDay);
  const sections: Section[] = [
    {
      heading: 'Entre les soussignés',
      blocks: [
        `${agency.identityLine}, agence matrimoniale soumise aux articles L224‑90 à L224‑95 et R224‑1 à R224‑3 du Code de la consommation, ci-après « l’agence » ;`,
        `et ${form.fullName}${birth ? `, ${input.gender === 'femme' ? 'née' : input.gender === 'homme' ? 'né' : 'né(e)'} le ${birth}` : ''}, demeurant ${form.address}, ${form.postcode} ${form.city}, e-mail ${input.email}${input.profile?.phone ? `, téléphone ${formatPhone(input.profile.phone)}` : ''}, ci-après « le membre ».`,
      ],
    },
    {
      heading: 'Article 1 — Nature des prestations',
      blocks: [
        'L’agence accompagne le membre dans sa recherche d’un conjoint, dans le respect des valeurs musulmanes, en lui proposant la rencontre de personnes dont les attentes sont compatibles avec les siennes. L’accompagnement comprend :',
        {
          bullets: [
            'l’étude du dossier et du questionnaire de rapprochement du membre ;',
            'un entretien de rapprochement avec une conseillère ou un conseiller ;',
            'la recherche, parmi les personnes accompagnées par l’agence, de profils correspondant aux qualités figurant en annexe ;',
            'la présentation de propositions, sous forme de résumés anonymes, et l’organisation d’une première prise de contact lorsque les deux personnes l’acceptent ;',
            'des conseils et un suivi pendant toute la durée du contrat.',
          ],
        },
        `Formule choisie : ${plan.title} (${plan.durationMonths} mois). L’agence est tenue d’une obligation de moyens : elle ne peut garantir ni un nombre déterminé de propositions, ni la conclusion d’un mariage.`,
      ],
    },
    { heading: 'Article 2 — Prix et modalités de paiement', blocks: priceBlocks(input) },
    {
      heading: 'Article 3 — Durée',
      blocks: [
        `Le contrat est conclu pour une durée déterminée de ${months} mois à compter de sa signature ; cette durée n’excède en aucun cas ${CONTRACT_MAX_MONTHS} mois (article L224‑90). Il prend fin de plein droit à son terme et n’est pas reconduit tacitement. Le membre qui souhaite poursuivre peut conclure un nouveau contrat.`,
      ],
    },
    {
      heading: `Article 4 — Faculté de renonciation de ${NO_PAYMENT_PERIOD_DAYS} jours`,
      blocks: [
        `Dans un délai de ${NO_PAYMENT_PERIOD_DAYS} jours à compter de la signature du contrat, le membre peut revenir sur son engagement sans avoir à donner de motif ni à payer d’indemnité (article L224‑91), par une déclaration dénuée d’ambiguïté adressée à l’agence (formulaire de contact, e-mail ou courrier). Aucun paiement n’étant demandé pendant ce délai, la renonciation n’entraîne aucun remboursement au titre de la formule.`,
        `Les délais du présent contrat se comptent en jours calendaires : ${COUNTING_RULE} (règlement (CEE, Euratom) n° 1182/71, article L221‑19). Pour un contrat signé le ${signedOn}, la renonciation est possible ${untilText(deadlines.renunciation)} et le paiement s’ouvre ${dayAfterText(deadlines.renunciation)}.`,
      ],
    },
    {
      heading: `Article 5 — Droit de rétractation de ${WITHDRAWAL_PERIOD_DAYS} jours`,
      blocks: [
        `Le contrat étant conclu à distance, le membre dispose en outre d’un délai de ${WITHDRAWAL_PERIOD_DAYS} jours à compter de sa conclusion pour se rétracter sans motif (article L221‑18), compté comme à l’article 4 (article L221‑19) : pour un contrat signé le ${signedOn}, la rétractation est possible ${untilText(deadlines.withdrawal)}. Les sommes versées sont remboursées au plus tard ${WITHDRAWAL_PERIOD_DAYS} jours après que l’agence a été informée de sa décision (article L221‑24).`,
        input.renounced
          ? `Le membre a demandé expressément, en cochant la case prévue à l’étape « Formules », que l’accompagnement commence avant la fin de ce délai (article L221‑25). Il conserve son droit de rétractation ; s’il l’exerce après le début de l’accompagnement, il reste redevable d’un montant proportionnel aux prestations fournies jusqu’à la communication de sa décision, calculé sur le prix total convenu.`
          : `L’accompagnement ne peut commencer avant la fin de ce délai que sur demande expresse du membre (article L221‑25). Le membre n’en a pas fait la demande : l’accompagnement commence à l’expiration du délai, et aucune somme n’est due en cas de rétractation dans le délai.`,
      ],
    },
    {
      heading: 'Modèle de formulaire de rétractation (article R221‑1 du Code de la consommation)',
      blocks: [
        'Veuillez compléter et renvoyer le présent formulaire uniquement si vous souhaitez vous rétracter du contrat.',
        `À l’attention de ${agency.name}, ${agency.address}, e-mail ${agency.email} :`,
        'Je vous notifie par la présente ma rétractation du contrat portant sur la prestation de services ci-dessous :',
        {
          bullets: [
            `Contrat de courtage matrimonial, formule ${plan.title}`,
            'Commandé le : …',
            'Nom du membre : …',
            'Adresse du membre : …',
            'Signature du membre (uniquement en cas de notification du présent formulaire sur papier) : …',
            'Date : …',
          ],
        },
      ],
    },
    {
      heading: 'Article 6 — Résiliation pour motif légitime',
      blocks: [
        'Chacune des parties peut résilier le contrat pour un motif légitime (article L224‑90), notamment un mariage ou des fiançailles, un changement important de situation personnelle, familiale ou professionnelle, une maladie ou un déménagement rendant l’accompagnement impossible, ou, pour l’agence, un manquement grave du membre à ses engagements.',
        TERMINATION_HOW,
        TERMINATION_PROOF,
        'Le prix est alors réduit à proportion de la durée écoulée jusqu’à la demande (article R224‑2) ; les sommes perçues au-delà sont remboursées dans un délai de 2 mois à compter de sa réception et les mensualités restantes ne sont pas prélevées.',
      ],
    },
    {
      heading: 'Article 7 — Conditions générales et données personnelles',
      blocks: [
        'Les conditions générales de vente, acceptées par le membre, complètent le présent contrat, qui prévaut en cas de contradiction. Les données personnelles du membre, y compris sa pratique religieuse traitée avec son consentement explicite, sont protégées conformément à la politique de confidentialité de l’agence.',
        `En cas de litige non résolu par une réclamation écrite auprès de l’agence, le membre peut recourir gratuitement au médiateur de la consommation dont relève l’agence (articles L612‑1 et suivants du Code de la consommation) : ${agency.mediator}.`,
      ],
    },
  ];
  const end = contractEndDate(day, months);
  const dated = `Contrat établi le ${parisDate.format(day)} : s’il est signé ce jour, il prend effet le ${parisDate.format(day)} et prend fin le ${parisDate.format(end)}, sans reconduction tacite.`;
  return {
    title: 'Contrat de courtage matrimonial',
    status: `Exemplaire du membre — ${parisDate.format(day)}`,
    sections,
    annex: { heading: 'Annexe — Qualités de la personne recherchée', blocks: annexBlocks(input.questionnaire, input.gender ?? null) },
    signature: {
      heading: 'Signatures',
      blocks: [
        `Le membre : ${form.fullName}`,
        input.formCompletedAt ? `Formulaire du contrat rempli le ${parisDateTime.format(input.formCompletedAt)} (heure de Paris).` : '',
        dated,
        'Signature électronique simple (article 1367 du Code civil, article 25 du règlement eIDAS n° 910/2014) : le membre signe dans son espace membre après avoir lu le présent contrat, en saisissant un code à usage unique envoyé à son adresse e-mail. L’agence conserve la preuve de la signature : l’empreinte SHA-256 de ce document, la date et l’heure, l’adresse IP et le navigateur utilisés, et la vérification du code.',
        `Pour l’agence : ${agency.name}.`,
        'Un exemplaire du présent contrat est remis au membre dans son espace membre, au format PDF.',
      ].filter((line) => line !== ''),
    },
  };
}
