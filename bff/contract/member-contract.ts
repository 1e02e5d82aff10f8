import { and, desc, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { agencyIdentity, contractDocument } from '#bff/contract/contract-text.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { onboardingEvents } from '#bff/db/schema.ts';
import { type MemberRow, recordOf } from '#bff/members/members.ts';
import { contractFormEntries, questionnaireSchema } from '#machines/onboarding/forms.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { planById } from '#machines/onboarding/plans.ts';

const StoredContract = v.object({
  fullName: contractFormEntries.fullName,
  address: contractFormEntries.address,
  postcode: contractFormEntries.postcode,
  city: contractFormEntries.city,
  signature: contractFormEntries.signature,
});
const StoredProfile = v.object({ birthDate: v.optional(v.string()), phone: v.optional(v.string()) });

export interface MemberContract {
  pdf: Uint8Array;
  fullName: string;
  /** Signature date (`sub_date`), null while not signed. */
  signedAt: Date | null;
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
  options: { agency: AgencyIdentity; now: Date },
): Promise<MemberContract | null> {
  const record = recordOf(row);
  const form = v.safeParse(StoredContract, row.contract);
  if (!record.subscriptionContractFormCompleted || !form.success || record.selectedPlanId === null) return null;
  const [event] = await executor
    .select({ createdAt: onboardingEvents.createdAt })
    .from(onboardingEvents)
    .where(and(eq(onboardingEvents.memberId, row.id), eq(onboardingEvents.context, 'contractForm')))
    .orderBy(desc(onboardingEvents.id))
    .limit(1);
  const questionnaire = v.safeParse(questionnaireSchema, row.questionnaire);
  const profile = v.safeParse(StoredProfile, row.profile);
  const signedAt = record.subscriptionDate ? new Date(instantMs(record.subscriptionDate)) : null;
  const document = contractDocument({
    agency: agencyIdentity(options.agency),
    email: row.email,
    form: form.output,
    profile: profile.success ? profile.output : null,
    questionnaire: questionnaire.success ? questionnaire.output : null,
    plan: planById(record.selectedPlanId),
    renounced: record.renouncedWithdrawalRight === true,
    couponApplied: record.couponApplied,
    formCompletedAt: event?.createdAt ?? null,
    signedAt,
  });
  // pdf-lib (≈ 200 ms to import) is loaded at the first contract, not at start (decision 080).
  const { renderContractPdf } = await import('#bff/contract/contract-pdf.ts');
  const pdf = await renderContractPdf(document, { memberName: form.output.fullName, now: options.now });
  return { pdf, fullName: form.output.fullName, signedAt };
}
