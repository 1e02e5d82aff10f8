import type { Db } from '#bff/db/database.ts';
import type { IntroductionRow } from '#bff/db/introductions-schema.ts';
import { introductionById, introductionsByDeadline } from '#bff/introductions/store/introductions.ts';
import { profileRows } from '#bff/introductions/store/people.ts';
import { contactChoiceOf } from '#bff/introductions/guardian.ts';
import { feedbackRecordersOf } from '#bff/introductions/feedback.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import type { IntroductionContext } from '#machines/introductions/context.ts';
import { contactViaLabels } from '#machines/introductions/guardian.ts';
import { type Side, type SideNames, sideLabels, stateLabel, stateLabels } from '#machines/introductions/labels.ts';
import { isOpen } from '#machines/introductions/rules.ts';
import { UUID } from '#bff/introductions/introduction-core.ts';
import { eventsOf, sentenceOf } from '#bff/introductions/member-introduction-views.ts';

// ---------------------------------------------------------------------------
// Staff's views

export interface StaffIntroductionItem {
  id: string;
  state: string;
  stateLabel: string;
  open: boolean;
  members: Record<Side, { id: string; firstName: string | null }>;
  answers: Record<Side, string>;
  proposedAt: string;
  deadlineAt: string;
  version: number;
}

export async function firstNames(db: Db, ids: string[]): Promise<Map<string, string | null>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await profileRows(db, unique);
  return new Map(rows.map((r) => [r.id.toLowerCase(), firstNameOf(r.profile)]));
}

function staffItem(row: IntroductionRow, names: Map<string, string | null>): StaffIntroductionItem {
  const context = row.context as IntroductionContext;
  return {
    id: row.id,
    state: row.state,
    stateLabel: stateLabel(row.state),
    open: isOpen(row.state),
    members: {
      a: { id: row.memberA, firstName: names.get(row.memberA.toLowerCase()) ?? null },
      b: { id: row.memberB, firstName: names.get(row.memberB.toLowerCase()) ?? null },
    },
    answers: { a: context.answers.a.status, b: context.answers.b.status },
    proposedAt: row.proposedAt.toISOString(),
    deadlineAt: row.deadlineAt.toISOString(),
    version: row.version,
  };
}

export const stateFilters = [...Object.keys(stateLabels), 'ouvertes', 'toutes'] as const;

/** Introductions for staff: the open ones by default (nearest deadline first), or those in one state. */
export async function staffIntroductions(db: Db, filter: string = 'ouvertes'): Promise<StaffIntroductionItem[]> {
  const rows = await introductionsByDeadline(db);
  const chosen = rows.filter((row) =>
    filter === 'toutes' ? true : filter === 'ouvertes' ? isOpen(row.state) : row.state === filter || row.state.startsWith(`${filter}.`),
  );
  const names = await firstNames(
    db,
    chosen.flatMap((r) => [r.memberA.toLowerCase(), r.memberB.toLowerCase()]),
  );
  return chosen.map((row) => staffItem(row, names));
}

/** One introduction for staff: the item, notes, the whole context (proof of consents) and its log. */
export async function staffIntroduction(db: Db, id: string) {
  if (!UUID.test(id)) return null;
  const row = await introductionById(db, id.toLowerCase());
  if (!row) return null;
  const names = await firstNames(db, [row.memberA.toLowerCase(), row.memberB.toLowerCase()]);
  const events = await eventsOf(db, row.id);
  const sideNames: SideNames = {
    a: names.get(row.memberA.toLowerCase()) ?? sideLabels.a,
    b: names.get(row.memberB.toLowerCase()) ?? sideLabels.b,
  };
  // Each side's walī and how the other reaches them (decision 196): staff see both on the introduction.
  const contactOfSide = async (memberId: string, choice: string | null) => {
    const c = await contactChoiceOf(db, memberId, choice);
    return {
      via: c.via,
      label: contactViaLabels[c.via],
      fromSettings: c.fromSettings,
      guardian: c.guardian
        ? {
            name: c.guardian.name,
            relation: c.guardian.relationLabel,
            phone: c.guardian.phone,
            email: c.guardian.email,
            receives: c.guardian.receivesLabel,
          }
        : null,
    };
  };
  return {
    ...staffItem(row, names),
    contact: { a: await contactOfSide(row.memberA, row.contactViaA), b: await contactOfSide(row.memberB, row.contactViaB) },
    notes: { a: row.noteA, b: row.noteB },
    context: row.context as IntroductionContext,
    feedbackRecordedBy: await feedbackRecordersOf(db, row.context as IntroductionContext),
    events: events.map((e) => ({
      event: e.event,
      actorRole: e.actorRole,
      side: e.side,
      fromState: e.fromState,
      toState: e.toState,
      toStateLabel: stateLabel(e.toState),
      payload: e.payload,
      version: e.version,
      at: e.createdAt.toISOString(),
      sentence: sentenceOf(e, sideNames),
    })),
  };
}
