import { asc, eq, sql } from 'drizzle-orm';
import { adminClient, type AuthConnection } from '#bff/auth/supabase.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import { memberChangeRequests } from '#bff/db/change-requests-schema.ts';
import { contractTerminations } from '#bff/db/credit-notes-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { contractCopies, memberPrivacy } from '#bff/db/privacy-schema.ts';
import { checkoutSessions, members, onboardingEvents, preSubscriptions } from '#bff/db/schema.ts';
import { photosForExport } from '#bff/photos/member-photos.ts';
import { accessLogForMember } from '#bff/auth/access-log.ts';
import { presentationOf } from '#bff/matching/presentation.ts';
import { consentHistory } from '#bff/privacy/consents.ts';
import { guardianForExport, introductionsForExport } from '#bff/privacy/introductions-export.ts';
import { followUpForExport } from '#bff/privacy/follow-up-privacy.ts';
import { contactMessagesForExport, leadFollowUpsForExport } from '#bff/privacy/leads-privacy.ts';
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
  const [row] = await db.select().from(members).where(eq(members.id, memberId));
  if (!row) throw new Error('member missing');
  const [privacy] = await db.select().from(memberPrivacy).where(eq(memberPrivacy.id, memberId));
  const record = row.onboarding as OnboardingRecord;
  const plan = record.selectedPlanId ? planById(record.selectedPlanId) : null;

  const payments = await db
    .select({
      id: checkoutSessions.id,
      offerId: checkoutSessions.offerId,
      amountTotal: checkoutSessions.amountTotal,
      currency: checkoutSessions.currency,
      status: checkoutSessions.status,
      paymentStatus: checkoutSessions.paymentStatus,
      createdAt: checkoutSessions.createdAt,
    })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.memberId, memberId))
    .orderBy(asc(checkoutSessions.createdAt));

  const meetings = await db
    .select({
      startTime: bookings.startTime,
      endTime: bookings.endTime,
      status: bookings.status,
      inviteeName: bookings.inviteeName,
      inviteeEmail: bookings.inviteeEmail,
      rescheduled: bookings.rescheduled,
      bookedAt: bookings.bookedAt,
      canceledAt: bookings.canceledAt,
    })
    .from(bookings)
    .where(eq(bookings.memberId, memberId))
    .orderBy(asc(bookings.startTime));

  const messagesTable = (await db.execute(sql`SELECT to_regclass('direct_messages') IS NOT NULL AS present`)) as unknown as {
    rows: { present: boolean }[];
  };
  const messages = messagesTable.rows[0]?.present
    ? (
        (await db.execute(
          sql`SELECT subject, body, created_at FROM direct_messages WHERE member_id = ${memberId} ORDER BY id`,
        )) as unknown as { rows: { subject: string; body: string; created_at: Date | string }[] }
      ).rows.map((m) => ({
        from: 'l’équipe Union Sincère',
        subject: m.subject,
        body: m.body,
        sentAt: new Date(m.created_at).toISOString(),
      }))
    : [];

  const terminations = await db
    .select()
    .from(contractTerminations)
    .where(eq(contractTerminations.memberId, memberId))
    .orderBy(asc(contractTerminations.requestedAt));
  const terminationProofs = await proofsOf(db, memberId);
  const changeRequests = await db
    .select()
    .from(memberChangeRequests)
    .where(eq(memberChangeRequests.memberId, memberId))
    .orderBy(asc(memberChangeRequests.createdAt));
  const reasonLabels: Readonly<Record<string, string>> = terminationReasonLabels;
  const events = await db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, memberId)).orderBy(asc(onboardingEvents.id));

  const preRegistrations = await db
    .select({
      id: preSubscriptions.id,
      gender: preSubscriptions.gender,
      email: preSubscriptions.email,
      age: preSubscriptions.age,
      zipCode: preSubscriptions.zipCode,
      city: preSubscriptions.city,
      createdAt: preSubscriptions.createdAt,
    })
    .from(preSubscriptions)
    .where(sql`lower(${preSubscriptions.email}) = lower(${row.email}) OR ${preSubscriptions.memberId} = ${row.id}`);

  const preRegistrationFollowUps = await leadFollowUpsForExport(
    db,
    preRegistrations.map((p) => p.id),
    { converted: true },
  );

  const contracts = await db
    .select({ signedAt: contractCopies.signedAt, sha256: contractCopies.sha256 })
    .from(contractCopies)
    .where(eq(contractCopies.memberId, memberId));

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
