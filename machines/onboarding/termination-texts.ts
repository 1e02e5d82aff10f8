import type { terminationReasonLabels } from '#machines/onboarding/labels.ts';

/**
 * How a member terminates for a legitimate reason (R224-2, decisions 119 and 189), said once: the
 * signed contract (bff/contract/contract-text.ts), the CGV and the contact page (content/pages,
 * through the build-time texts of bff/content/markdown.ts), « Mon profil » (the contract's consent,
 * machines/privacy/consent-texts.ts) and the member's termination screen all print these
 * sentences; tests/unit/termination-wording.test.ts checks that each carries them and that none
 * still asks for a registered letter.
 *
 * Online, from « Mes droits » (L215-1-1: a contract concluded online is terminated online too);
 * by letter, registered or not (R224-2 names the registered letter; the agency accepts a simple
 * one as well: the member keeps the registered letter's proof of date if she wants it). Staff
 * record a letter in the member's file at the date it was received; then the same review.
 */
export const TERMINATION_HOW =
  'La résiliation pour motif légitime se demande en ligne, depuis la rubrique «\u00a0Mes droits\u00a0» de l’espace membre, ou par courrier adressé à l’agence, recommandé ou non\u00a0: la demande reçue par courrier est enregistrée dans le dossier du membre à sa date de réception, puis examinée de la même façon.';

/** The proof: a file, never a free text; never health data (GDPR art. 9, decision 189). */
export const TERMINATION_PROOF =
  'La demande indique le motif\u00a0; un justificatif de la situation (bail, attestation, acte de mariage…) l’accompagne lorsque le membre en dispose, et toujours pour un déménagement\u00a0: en ligne, un fichier PDF, JPEG ou PNG de 5\u00a0Mo au plus, ou sa copie jointe au courrier. Aucune donnée de santé n’est demandée\u00a0: pour une maladie ou une invalidité, aucun justificatif n’est à fournir et aucun document médical ne doit être joint.';

/** The largest proof accepted: a scanned page or a phone photo of a document. */
export const MAX_PROOF_BYTES = 5 * 1024 * 1024;

/** What the file input offers; the server reads the bytes, never the name nor the declared type. */
export const PROOF_ACCEPT = 'application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png';

type TerminationReason = keyof typeof terminationReasonLabels;

/**
 * Whether each reason asks for a proof: a move always can be shown (a lease, an employer's
 * letter); a change of marital status or another serious reason when the member has a document
 * (an engagement has none); illness or disability never, because the only proof would be health
 * data (GDPR art. 9): no file is taken for it, online or from a letter.
 */
export const PROOF_RULES: Record<TerminationReason, 'required' | 'optional' | 'none'> = {
  demenagement: 'required',
  'changement-situation-matrimoniale': 'optional',
  'maladie-invalidite': 'none',
  'autre-motif-grave': 'optional',
};

const FORMAT_HINT = 'PDF, JPEG ou PNG, 5\u00a0Mo au plus. Ne joignez aucune donnée de santé.';

/** The file field's hint for a reason (or before one is chosen); null when no proof is taken. */
export function proofHint(reason: TerminationReason | null): string | null {
  switch (reason) {
    case 'demenagement':
      return `Un document qui montre votre déménagement (bail, attestation de l’employeur, facture à votre nouvelle adresse…). ${FORMAT_HINT}`;
    case 'changement-situation-matrimoniale':
      return `Par exemple un acte de mariage ou une page du livret de famille, si vous en avez un. ${FORMAT_HINT}`;
    case 'maladie-invalidite':
      return null;
    default:
      return `Un justificatif de votre situation (déménagement, changement de situation…). ${FORMAT_HINT}`;
  }
}

/** What the form says instead of a file field when the reason takes none. */
export const NO_PROOF_FOR_HEALTH =
  'Pour ce motif, aucun justificatif n’est demandé\u00a0: ne joignez aucun document médical. Votre explication suffit\u00a0; l’équipe peut vous appeler si besoin.';

/** The file field's label for a reason. */
export function proofLabel(reason: TerminationReason | null): string {
  return reason !== null && PROOF_RULES[reason] === 'required' ? 'Justificatif (obligatoire)' : 'Justificatif (facultatif)';
}

/** How a request reached the agency, as staff and the member read it. */
export const terminationChannelLabels = {
  online: 'En ligne, depuis l’espace membre',
  letter: 'Par courrier, enregistrée par l’équipe',
} as const;
export type TerminationChannel = keyof typeof terminationChannelLabels;

/** « PDF », « Image JPEG », « Image PNG »: a stored proof's kind as people read it. */
export const proofTypeLabels = {
  'application/pdf': 'PDF',
  'image/jpeg': 'Image JPEG',
  'image/png': 'Image PNG',
} as const;
export type ProofMime = keyof typeof proofTypeLabels;

/** « 120 ko », « 1,4 Mo »: a proof's size as people read it. */
export function proofSizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))}\u00a0ko`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace('.', ',')}\u00a0Mo`;
}
