import { and, desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { requireCaller } from '#bff/auth/guards.ts';
import { renderContractPdf } from '#bff/contract/contract-pdf.ts';
import { agencyIdentity, contractDocument } from '#bff/contract/contract-text.ts';
import { onboardingEvents } from '#bff/db/schema.ts';
import { ApiError } from '#bff/http/errors.ts';
import { recordOf } from '#bff/members/members.ts';
import { contractFormEntries, questionnaireSchema } from '#machines/onboarding/forms.ts';
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

function asciiFileName(name: string): string {
  const ascii = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `contrat-union-sincere${ascii ? `-${ascii.toLowerCase()}` : ''}.pdf`;
}

/**
 * `GET /api/v1/user/contract.pdf`: the member's copy of their contract (L224-90: handed over at
 * conclusion), once the contract form is completed; with the annex of qualities sought (R224-1).
 */
export function contractRoutes(deps: ApiDeps) {
  const guardDeps = { db: deps.database.db, auth: deps.auth };
  return new Hono().get('/user/contract.pdf', async (c) => {
    const caller = await requireCaller(c, guardDeps);
    if (caller.role === 'staff') throw new ApiError(404, 'CONTRACT_NOT_FOUND', 'Aucun contrat pour ce compte.');
    const row = caller.member;
    const record = recordOf(row);
    const form = v.safeParse(StoredContract, row.contract);
    if (!record.subscriptionContractFormCompleted || !form.success || record.selectedPlanId === null) {
      throw new ApiError(409, 'CONTRACT_NOT_READY', 'Le contrat sera disponible une fois son formulaire rempli.');
    }
    const [event] = await deps.database.db
      .select({ createdAt: onboardingEvents.createdAt })
      .from(onboardingEvents)
      .where(and(eq(onboardingEvents.memberId, row.id), eq(onboardingEvents.context, 'contractForm')))
      .orderBy(desc(onboardingEvents.id))
      .limit(1);
    const questionnaire = v.safeParse(questionnaireSchema, row.questionnaire);
    const profile = v.safeParse(StoredProfile, row.profile);
    const document = contractDocument({
      agency: agencyIdentity(deps.config.agencyEmail),
      email: row.email,
      form: form.output,
      profile: profile.success ? profile.output : null,
      questionnaire: questionnaire.success ? questionnaire.output : null,
      plan: planById(record.selectedPlanId),
      renounced: record.renouncedWithdrawalRight === true,
      couponApplied: record.couponApplied,
      formCompletedAt: event?.createdAt ?? null,
      signedAt: record.subscriptionDate ? new Date(instantMs(record.subscriptionDate)) : null,
    });
    const bytes = await renderContractPdf(document, { memberName: form.output.fullName, now: deps.clock.now() });
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', `inline; filename="${asciiFileName(form.output.fullName)}"`);
    c.header('Cache-Control', 'private, no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200);
  });
}
