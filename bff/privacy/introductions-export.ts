import type { Db } from '#bff/db/database.ts';
import { guardianOf } from '#bff/introductions/guardian.ts';
import { introductionEventsOf, introductionsOfMember } from '#bff/privacy/store/introductions.ts';
import type { IntroductionContext, Round } from '#machines/introductions/context.ts';
import { declineReasonLabel, eventLabel, feedbackOutcomeLabels, type Side, stateLabel } from '#machines/introductions/labels.ts';

/**
 * The member's introductions and guardian in their data export (GDPR art. 15 and 20, decision
 * 117). Only the member's own side: their answers, consents, feedback, the agency's notes to
 * them, the meetings and their own events. The other person is « la personne présentée »: no
 * id, no name, nothing of theirs (their data is theirs to ask for).
 */

function sideRound(round: Round, side: Side) {
  const answer = round.answers[side];
  const feedback = round.feedback[side];
  return {
    proposedAt: round.proposedAt,
    answer: {
      status: answer.status === 'accepted' ? 'acceptée' : answer.status === 'declined' ? 'déclinée' : 'sans réponse',
      at: answer.at,
      reason: answer.reason ? declineReasonLabel(answer.reason) : null,
      comment: answer.comment,
    },
    consents: round.consents[side],
    disclosedToThePersonPresented: round.disclosures[side],
    meeting: round.meeting ? { at: round.meeting.at, place: round.meeting.place } : null,
    meetingHeldAt: round.meetingHeldAt,
    feedback: feedback
      ? {
          outcome: feedbackOutcomeLabels[feedback.outcome],
          reason: feedback.reason ? declineReasonLabel(feedback.reason) : null,
          at: feedback.at,
        }
      : null,
  };
}

export async function introductionsForExport(db: Db, memberId: string) {
  const rows = await introductionsOfMember(db, memberId);
  const out = [];
  for (const row of rows) {
    const side: Side = row.memberA.toLowerCase() === memberId.toLowerCase() ? 'a' : 'b';
    const context = row.context as IntroductionContext;
    const events = await introductionEventsOf(db, row.id);
    out.push({
      id: row.id,
      state: stateLabel(row.state),
      withPerson: 'la personne présentée',
      noteFromTheAgency: side === 'a' ? row.noteA : row.noteB,
      summaryConsentAt: context.summaryConsentAt[side],
      current: sideRound(context, side),
      earlierRounds: context.history.map((round) => ({ ...sideRound(round, side), endedIn: stateLabel(round.endedIn) })),
      events: events
        .filter((e) => e.side === null || e.side === side)
        .map((e) => ({
          event: e.event === 'PROPOSE' ? 'Proposition de l’agence' : eventLabel(e.event),
          by: e.side === side ? 'vous' : e.actorRole === 'system' ? 'le système' : 'l’équipe',
          state: stateLabel(e.toState),
          at: e.createdAt.toISOString(),
        })),
    });
  }
  return out;
}

export async function guardianForExport(db: Db, memberId: string) {
  const guardian = await guardianOf(db, memberId);
  if (!guardian) return null;
  return {
    name: guardian.name,
    relation: guardian.relationLabel,
    email: guardian.email,
    phone: guardian.phone,
    receives: guardian.receivesLabel,
    updatedAt: guardian.updatedAt,
  };
}
