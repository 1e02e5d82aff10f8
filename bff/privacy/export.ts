import { adminClient, type AuthConnection } from '#bff/auth/supabase.ts';
import type { Db } from '#bff/db/database.ts';
import { photosForExport } from '#bff/photos/member-photos.ts';
import { accessLogForMember } from '#bff/auth/access-log.ts';
import { presentationOf } from '#bff/matching/presentation.ts';
import { consentHistory } from '#bff/privacy/consents.ts';
import { guardianForExport, introductionsForExport } from '#bff/privacy/introductions-export.ts';
import { followUpForExport } from '#bff/privacy/follow-up-privacy.ts';
import { contactMessagesForExport, leadFollowUpsForExport } from '#bff/privacy/leads-privacy.ts';
import {
  changeRequestsOf,
  contractCopiesOf,
  directMessagesOf,
  meetingsOf,
  memberRowOf,
  onboardingEventsOf,
  paymentsOf,
  preRegistrationsOf,
  terminationsOf,
} from '#bff/privacy/store/member-export.ts';
import { privacyOf } from '#bff/privacy/store/member-privacy.ts';
import { terminationReasonLabels } from '#machines/onboarding/labels.ts';
import { type ProofMime, proofTypeLabels, terminationChannelLabels } from '#machines/onboarding/termination-texts.ts';
import { memberProofUrl, proofsOf } from '#bff/contract/termination-proofs.ts';
import { planById } from '#machines/onboarding/plans.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';

/**
 * Everything the agency holds about one member (GDPR art. 15 and 20), as structured JSON, and
 * nothing about anyone else: staff who acted are shown as « l'équipe », never by id; other
 * members never appear (every query is keyed by this member's id or address).
 */
export async function exportMemberData(deps: { db: Db; auth: AuthConnection }, memberId: string, now: Date) {
  const { db } = deps;
  const row = await memberRowOf(db, memberId);
  if (!row) throw new Error('member missing');
  const privacy = await privacyOf(db, memberId);
  const record = row.onboarding as OnboardingRecord;
  const plan = record.selectedPlanId ? planById(record.selectedPlanId) : null;

  const payments = await paymentsOf(db, memberId);

  const meetings = await meetingsOf(db, memberId);

  const messages = (await directMessagesOf(db, memberId)).map((m) => ({
    from: 'l’équipe Union Sincère',
    subject: m.subject,
    body: m.body,
    sentAt: new Date(m.created_at).toISOString(),
  }));

  const terminations = await terminationsOf(db, memberId);
  const terminationProofs = await proofsOf(db, memberId);
  const changeRequests = await changeRequestsOf(db, memberId);
  const reasonLabels: Readonly<Record<string, string>> = terminationReasonLabels;
  const events = await onboardingEventsOf(db, memberId);

  const preRegistrations = await preRegistrationsOf(db, row);

  const preRegistrationFollowUps = await leadFollowUpsForExport(
    db,
    preRegistrations.map((p) => p.id),
    { converted: true },
  );

  const contracts = await contractCopiesOf(db, memberId);

  const { data: authData } = await adminClient(deps.auth).auth.admin.getUserById(memberId);
  const user = authData?.user;

  return {
    format: 'union-sincere/export',
    version: 1,
    exportedAt: now.toISOString(),
    notice:
      'Copie de toutes les données personnelles que Union Sincère détient sur vous (RGPD, articles 15 et 20). Les personnes de l’équipe qui ont agi sur votre dossier ou l’ont consulté (staffAccess) ne sont pas nommées.',
    account: {
      id: row.id,
      email: row.email,
      role: row.gender,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      disabled: row.disabled,
      matchmakingPausedAt: privacy?.matchmakingPausedAt?.toISOString() ?? null,
      auth: user
        ? {
            email: user.email ?? null,
            createdAt: user.created_at,
            emailConfirmedAt: user.email_confirmed_at ?? null,
            lastSignInAt: user.last_sign_in_at ?? null,
            secondFactors: (user.factors ?? []).map((f) => ({ type: f.factor_type, status: f.status, createdAt: f.created_at })),
          }
        : null,
    },
    onboarding: record,
    profile: row.profile,
    questionnaire: row.questionnaire,
    contract: row.contract,
    plan,
    signedContracts: contracts.map((c) => ({
      signedAt: c.signedAt.toISOString(),
      sha256: c.sha256,
      download: '/api/v1/user/contract/signed.pdf',
    })),
    /** Your short presentation (decision 128), as shown in a proposal's anonymised summary. */
    presentation: await presentationOf(db, memberId),
    /** Your photos (decision 116): what was stored, and where to download each while your account exists. */
    photos: await photosForExport(db, memberId),
    payments: payments.map((p) => ({ ...p, createdAt: p.createdAt.toISOString() })),
    meetings: meetings.map((m) => ({
      ...m,
      startTime: m.startTime.toISOString(),
      endTime: m.endTime.toISOString(),
      bookedAt: m.bookedAt?.toISOString() ?? null,
      canceledAt: m.canceledAt?.toISOString() ?? null,
    })),
    messages,
    /** The agency's introductions (issue 22): your side only; the person presented is not named. */
    introductions: await introductionsForExport(db, memberId),
    /** The guardian (wali) or close relative you chose to associate, and what they receive. */
    guardian: await guardianForExport(db, memberId),
    consents: await consentHistory(db, memberId, row.email),
    /** Every time the agency's staff read your file (GDPR art. 5(2)): when and what, by role. */
    staffAccess: await accessLogForMember(db, memberId),
    /** Your pre-registrations, each with staff's follow-up of it (decision 155); staff not named. */
    preRegistrations: preRegistrations.map(({ id, ...p }) => ({
      ...p,
      createdAt: p.createdAt.toISOString(),
      followUp: preRegistrationFollowUps.get(id),
    })),
    /** What you wrote through the site's contact form with your address, and staff's follow-up of it (decision 155). */
    contactMessages: await contactMessagesForExport(db, row.email),
    /** Your requests to terminate for a legitimate reason (decision 119) and the agency's answers; staff not named. */
    terminations: terminations.map((t) => ({
      requestedAt: t.requestedAt.toISOString(),
      reason: reasonLabels[t.reason] ?? t.reason,
      explanation: t.explanation,
      channel: terminationChannelLabels[t.channel],
      // The file itself at its URL (as the signed contract and the photos): the export stays a small JSON.
      proof: terminationProofs.has(t.id)
        ? {
            type: proofTypeLabels[(terminationProofs.get(t.id) as { mime: ProofMime }).mime],
            sizeBytes: terminationProofs.get(t.id)?.sizeBytes,
            uploadedAt: terminationProofs.get(t.id)?.uploadedAt.toISOString(),
            url: memberProofUrl(t.id),
          }
        : null,
      decisionDueBy: t.dueBy.toISOString(),
      decision: t.decision === 'accepted' ? 'acceptée' : t.decision === 'refused' ? 'refusée' : 'en attente',
      decidedAt: t.decidedAt?.toISOString() ?? null,
      refusalReason: t.refusalReason,
    })),
    /** Your change requests once the contract was signed (decision 123), and the agency's answers; staff not named. */
    changeRequests: changeRequests.map((r) => ({
      section: r.section === 'profil' ? 'informations personnelles' : 'questionnaire',
      changes: r.changes,
      note: r.note,
      status: r.status === 'applied' ? 'appliquée' : r.status === 'declined' ? 'refusée' : 'en attente',
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      answer: r.decisionNote,
    })),
    /** Staff's follow-up of your file (decision 124): internal notes, counsellor, tags; authors not named. */
    staffFollowUp: await followUpForExport(db, memberId),
    eventLog: events.map((e) => ({
      context: e.context,
      event: e.event,
      payload: e.payload,
      fromState: e.fromState,
      toState: e.toState,
      by: e.actorRole === 'member' ? 'vous' : e.actorRole === 'staff' ? 'l’équipe' : 'le système',
      at: e.createdAt.toISOString(),
    })),
  };
}
