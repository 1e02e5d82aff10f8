import { createHash } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { renderContractPdf } from '#bff/contract/contract-pdf.ts';
import { agencyIdentity, contractDocument } from '#bff/contract/contract-text.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { contractCopies, legalRecords } from '#bff/db/privacy-schema.ts';
import { type members, onboardingEvents } from '#bff/db/schema.ts';
import { recordOf } from '#bff/members/members.ts';
import { contractFormEntries, questionnaireSchema } from '#machines/onboarding/forms.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { planById } from '#machines/onboarding/plans.ts';

type Executor = Db | Transaction;
type MemberRow = typeof members.$inferSelect;

const StoredContract = v.object({
  fullName: contractFormEntries.fullName,
  address: contractFormEntries.address,
  postcode: contractFormEntries.postcode,
  city: contractFormEntries.city,
  signature: contractFormEntries.signature,
});
const StoredProfile = v.object({ birthDate: v.optional(v.string()), phone: v.optional(v.string()) });

/**
 * Renders the signed contract of a member as it stands at signature (`sub_date`), with the same
 * text and layout as `GET /api/v1/user/contract.pdf` (bff/contract), and stores it: the copy
 * handed over at conclusion (L224-90), downloadable again later by the member and by staff.
 */
export async function storeSignedContract(tx: Executor, row: MemberRow, options: { agencyEmail: string; now: Date }): Promise<void> {
  const record = recordOf(row);
  const form = v.safeParse(StoredContract, row.contract);
  if (!form.success || record.selectedPlanId === null || record.subscriptionDate === null) return;
  const [event] = await tx
    .select({ createdAt: onboardingEvents.createdAt })
    .from(onboardingEvents)
    .where(and(eq(onboardingEvents.memberId, row.id), eq(onboardingEvents.context, 'contractForm')))
    .orderBy(desc(onboardingEvents.id))
    .limit(1);
  const questionnaire = v.safeParse(questionnaireSchema, row.questionnaire);
  const profile = v.safeParse(StoredProfile, row.profile);
  const signedAt = new Date(instantMs(record.subscriptionDate));
  const document = contractDocument({
    agency: agencyIdentity(options.agencyEmail),
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
  const pdf = await renderContractPdf(document, { memberName: form.output.fullName, now: options.now });
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  await tx.insert(contractCopies).values({ memberId: row.id, signedAt, sha256, pdf, createdAt: options.now });
}

/** The latest signed copy of a member's contract: the stored copy, or after erasure the legal record. */
export async function signedContractOf(
  db: Executor,
  memberId: string,
): Promise<{ pdf: Uint8Array; signedAt: Date; sha256: string } | null> {
  const [copy] = await db
    .select({ pdf: contractCopies.pdf, signedAt: contractCopies.signedAt, sha256: contractCopies.sha256 })
    .from(contractCopies)
    .where(eq(contractCopies.memberId, memberId))
    .orderBy(desc(contractCopies.signedAt))
    .limit(1);
  if (copy) return copy;
  const [legal] = await db
    .select({ pdf: legalRecords.document, signedAt: legalRecords.occurredAt, sha256: legalRecords.reference })
    .from(legalRecords)
    .where(and(eq(legalRecords.memberId, memberId), eq(legalRecords.kind, 'contract')))
    .orderBy(desc(legalRecords.occurredAt))
    .limit(1);
  if (legal?.pdf) return { pdf: legal.pdf, signedAt: legal.signedAt, sha256: legal.sha256 ?? '' };
  return null;
}
