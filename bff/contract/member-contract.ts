import * as v from 'valibot';
import { contractTextSha256, type SignatureEvidence } from '#bff/contract/contract-evidence.ts';
import { agencyIdentity, type ContractDocument, contractDocument, contractEndDate } from '#bff/contract/contract-text.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { contractFormEvent } from '#bff/contract/store/contract-form.ts';
import { type MemberRow, recordOf } from '#bff/members/members.ts';
import { contractFormEntries, storedQuestionnaireSchema } from '#machines/onboarding/forms.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { CONTRACT_MAX_MONTHS } from '#machines/onboarding/periods.ts';
import { planById } from '#machines/onboarding/plans.ts';

const StoredContract = v.object({
  fullName: contractFormEntries.fullName,
  address: contractFormEntries.address,
  postcode: contractFormEntries.postcode,
  city: contractFormEntries.city,
  signature: contractFormEntries.signature,
});
const StoredProfile = v.object({ birthDate: v.optional(v.string()), phone: v.optional(v.string()) });
const StoredIdentity = v.object({
  firstName: v.optional(v.string()),
  lastName: v.optional(v.string()),
  postcode: v.optional(v.string()),
  city: v.optional(v.string()),
});

/**
 * What the contract form starts from: the contract's own answers once given, else step 1's name,
 * postcode and city (the street address is asked once, on the contract form, never again).
 */
export function contractDetailsOf(row: MemberRow): { fullName: string; address: string; postcode: string; city: string } {
  const form = v.safeParse(v.partial(StoredContract), row.contract);
  if (form.success && form.output.fullName) {
    return {
      fullName: form.output.fullName,
      address: form.output.address ?? '',
      postcode: form.output.postcode ?? '',
      city: form.output.city ?? '',
    };
  }
  const profile = v.safeParse(StoredIdentity, row.profile);
  const p = profile.success ? profile.output : {};
  return {
    fullName: [p.firstName, p.lastName].filter(Boolean).join(' '),
    address: '',
    postcode: p.postcode ?? '',
    city: p.city ?? '',
  };
}

/** Noon UTC of the Paris calendar day of `instant`: the fixed creation date of a contract PDF. */
function parisNoon(instant: Date): Date {
  const [year, month, day] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(instant).split('-').map(Number) as [
    number,
    number,
    number,
  ];
  return new Date(Date.UTC(year, month - 1, day, 12));
}

export interface MemberContract {
  pdf: Uint8Array;
  /** The text the PDF prints, shown on the signature page. */
  document: ContractDocument;
  fullName: string;
  /** Signature date (`sub_date`), null while not signed. */
  signedAt: Date | null;
  /** SHA-256 of the text signed (bff/contract/contract-evidence.ts): what a signature code is bound to. */
  textSha256: string;
  /** The contract's first and last days if it is (or was) signed on the day it is dated. */
  term: { effectiveFrom: Date; endsOn: Date };
}

/** What the evidence page prints besides the record: the signer's name and the contract's term come from the contract. */
export type RecordedEvidence = Omit<SignatureEvidence, 'signerName' | 'effectiveFrom' | 'endsOn'>;

/**
 * The contract's text before its details are confirmed (the form step), from what the member has
 * already given: read in full before "J'ai lu et j'accepte le contrat" is ticked. Null without a
 * chosen plan.
 */
export function draftContractDocument(row: MemberRow, options: { agency: AgencyIdentity; now: Date }): ContractDocument | null {
  const record = recordOf(row);
  if (record.selectedPlanId === null) return null;
  const details = contractDetailsOf(row);
  // A blank line, as on a paper form: the member fills it in on the page above the text.
  const missing = '…………';
  const questionnaire = v.safeParse(storedQuestionnaireSchema, row.questionnaire);
  const profile = v.safeParse(StoredProfile, row.profile);
  return contractDocument({
    agency: agencyIdentity(options.agency),
    email: row.email,
    form: {
      fullName: details.fullName || missing,
      address: details.address || missing,
      postcode: details.postcode || missing,
      city: details.city || missing,
      signature: details.fullName,
    },
    profile: profile.success ? profile.output : null,
    gender: row.gender === 'femme' || row.gender === 'homme' ? row.gender : null,
    questionnaire: questionnaire.success ? questionnaire.output : null,
    plan: planById(record.selectedPlanId),
    renounced: record.renouncedWithdrawalRight === true,
    couponApplied: record.couponApplied,
    fileFeeDiscountCents: record.fileFeeDiscountCents,
    formCompletedAt: null,
    signedAt: null,
    datedAt: options.now,
  });
}

/**
 * The member's contract as a PDF, from their record, contract form, profile and questionnaire (the
 * annex of qualities sought, R224-1): what the member downloads (`GET /api/v1/user/contract.pdf`)
 * and what is stored at signature (bff/privacy/contract-copy.ts). Null until the contract form is
 * filled in and a plan chosen.
 */
export async function renderMemberContract(
  executor: Db | Transaction,
  row: MemberRow,
  options: {
    agency: AgencyIdentity;
    now: Date;
    /** The evidence record of the signature: the PDF is then the signed copy, with its evidence page (decision 185). */
    evidence?: RecordedEvidence;
  },
): Promise<MemberContract | null> {
  const record = recordOf(row);
  const form = v.safeParse(StoredContract, row.contract);
  if (!record.subscriptionContractFormCompleted || !form.success || record.selectedPlanId === null) return null;
  const event = await contractFormEvent(executor, row.id);
  const questionnaire = v.safeParse(storedQuestionnaireSchema, row.questionnaire);
  const profile = v.safeParse(StoredProfile, row.profile);
  const signedAt = record.subscriptionDate ? new Date(instantMs(record.subscriptionDate)) : null;
  const document = contractDocument({
    agency: agencyIdentity(options.agency),
    email: row.email,
    form: form.output,
    profile: profile.success ? profile.output : null,
    gender: row.gender === 'femme' || row.gender === 'homme' ? row.gender : null,
    questionnaire: questionnaire.success ? questionnaire.output : null,
    plan: planById(record.selectedPlanId),
    renounced: record.renouncedWithdrawalRight === true,
    couponApplied: record.couponApplied,
    fileFeeDiscountCents: record.fileFeeDiscountCents,
    formCompletedAt: event?.createdAt ?? null,
    signedAt,
    datedAt: options.now,
  });
  // pdf-lib (≈ 200 ms to import) is loaded at the first contract, not at start (decision 080).
  const { renderContractPdf } = await import('#bff/contract/contract-pdf.ts');
  const plan = planById(record.selectedPlanId);
  const effectiveFrom = signedAt ?? options.now;
  const term = { effectiveFrom, endsOn: contractEndDate(effectiveFrom, Math.min(plan.durationMonths, CONTRACT_MAX_MONTHS)) };
  const textSha256 = contractTextSha256(document);
  // Before signature, the preview is marked as a draft on every page; the copy signed carries its
  // evidence page (decision 185).
  const mark = options.evidence
    ? { kind: 'signed' as const, evidence: { ...options.evidence, signerName: form.output.fullName, ...term } }
    : signedAt
      ? undefined
      : { kind: 'draft' as const };
  // Dated by its day, not by the instant it is rendered: the same input gives the same bytes.
  const pdf = await renderContractPdf(document, { memberName: form.output.fullName, now: parisNoon(signedAt ?? options.now), mark });
  return { pdf, document, fullName: form.output.fullName, signedAt, textSha256, term };
}
