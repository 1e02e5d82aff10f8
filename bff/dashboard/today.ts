import * as v from 'valibot';
import { agendaItems } from '#bff/agenda/agenda.ts';
import {
  counselledAmong,
  failedInstalments,
  firstMeetingsToNote,
  ITEMS_PER_GROUP,
  introductionsAwaitingMembers,
  leadsToCallBack,
  onboardingMeetingsToNote,
  presentationsToReview,
  refundsToMake,
  type TodayFilter,
  terminationsToDecide,
  unreadMessages,
} from '#bff/dashboard/store/today.ts';
import type { Db } from '#bff/db/database.ts';
import { stateLabel as introductionStateLabel } from '#machines/introductions/labels.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';
import type { TodayGroupId } from '#machines/staff/today-groups.ts';

/**
 * The staff's day (issue 63, decision 203): `GET /api/v1/dashboard/today?scope=mine|agency`.
 * Every item that needs a person today, in groups, each computed by one SQL statement that reads
 * only the rows of its group (never every member): meetings of today and tomorrow, meetings to
 * validate once past, answers and feedback awaited, presentations to review, leads to call back,
 * unread messages, termination requests, failed instalments and refunds to make.
 * « mine »: the members whose counsellor is the signed-in staff member, and the leads assigned to
 * them or to nobody. Each item says where the SPA links to (`link`), one click away.
 */

const todayScopes = ['mine', 'agency'] as const;
export type TodayScope = (typeof todayScopes)[number];

export const TodayQuery = v.object({
  scope: v.optional(v.picklist(todayScopes, 'Portée inconnue : « mine » (mes membres) ou « agency » (toute l’agence)'), 'mine'),
});

/** Where an item leads in the back office. */
type TodayLink =
  | { kind: 'member'; memberId: string; section: 'actions' | 'profil' | 'rendez-vous' | 'contrat' | 'paiements' }
  | { kind: 'introduction'; introductionId: string }
  | { kind: 'messages'; memberId: string }
  | { kind: 'leads' };

interface TodayItem {
  /** Stable within the answer. */
  key: string;
  /** What it is, in French (« Entretien personnalisé », « Mensualité n° 3 échouée »…). */
  label: string;
  /** The people it is about (members, or the lead's name). */
  people: string[];
  /** The instant it is about: the meeting, the deadline, the latest message (ISO). */
  at: string | null;
  /** When the instant is a day (a lead's « Relance » date): `YYYY-MM-DD`. */
  day: string | null;
  /** More words (state, amount, count), or null. */
  detail: string | null;
  /** Past its time or deadline. */
  overdue: boolean;
  link: TodayLink;
}

export interface TodayGroup {
  id: TodayGroupId;
  /** How many items the group has (the answer shows at most `ITEMS_PER_GROUP`). */
  total: number;
  items: TodayItem[];
}

const iso = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};
const text = (value: unknown): string => (typeof value === 'string' ? value : String(value ?? ''));
const num = (value: unknown): number => Number(value ?? 0);

const euros = (cents: number) => formatEuros(Math.round(cents));

/** A group: its first items, and `total` counted by the database (every item, not only those shown). */
function group(id: TodayGroupId, items: TodayItem[], total = items.length): TodayGroup {
  return { id, total, items: items.slice(0, ITEMS_PER_GROUP) };
}

export async function staffToday(db: Db, input: { scope: TodayScope; staffId: string; now: Date }): Promise<TodayGroup[]> {
  const nowMs = input.now.getTime();
  const now = input.now.toISOString();
  const mine = input.scope === 'mine';
  const staffId = input.staffId;
  const today = parisDayOf(nowMs);
  const fromMs = parisDayStartMs(today);
  const toMs = parisDayStartMs(parisDayOf(fromMs + 2 * DAY_MS + 3 * 3_600_000));
  const filter: TodayFilter = { now, today, counsellorId: mine ? staffId : null };

  const [meetings, toValidate, firstMeetingsPast, answers, presentations, leads, messages, terminations, instalments, refunds] =
    await Promise.all([
      // Meetings of today and tomorrow (the agenda's sources, bounded by the two days), kept to « mine » below.
      agendaItems(db, fromMs, toMs),
      // Onboarding meetings whose time has passed, still waiting for « effectué » or « manqué » (an index holds only them).
      onboardingMeetingsToNote(db, filter),
      // Introductions' first meetings that have taken place, to be noted as held.
      firstMeetingsToNote(db, filter),
      // Introductions waiting on a member: an answer to a proposal, or feedback after the meeting.
      introductionsAwaitingMembers(db, filter),
      // Presentations written or changed, not reviewed yet (decision 200).
      presentationsToReview(db, filter),
      // Leads whose « Relance » date has come, not converted or closed; « mine »: assigned to me or to nobody.
      leadsToCallBack(db, filter),
      // Messages members wrote to the agency that nobody has read yet, by member.
      unreadMessages(db, filter),
      // Termination requests waiting for the staff's decision, with their two-month deadline (decision 119).
      terminationsToDecide(db, filter),
      // Instalments whose payment failed (decision 120).
      failedInstalments(db, filter),
      // Money to give back: refunds not made yet, or whose attempt failed (decisions 118, 119, 175).
      refundsToMake(db, filter),
    ]);

  // The meetings of the two days, kept to « mine » with one look-up of the counsellors of their members.
  let dayMeetings = meetings;
  if (mine && meetings.length > 0) {
    const ids = [...new Set(meetings.flatMap((m) => m.members.map((p) => p.id)))];
    const assigned = await counselledAmong(db, staffId, ids);
    const set = new Set(assigned.map((r) => text(r.id)));
    dayMeetings = meetings.filter((m) => m.members.some((p) => set.has(p.id)));
  }

  const meetingItems: TodayItem[] = dayMeetings.map((m) => ({
    key: m.key,
    label: m.kindLabel,
    people: m.members.map((p) => p.name),
    at: m.at,
    day: null,
    detail: m.place ?? m.detail,
    overdue: false,
    link:
      m.introductionId !== null
        ? { kind: 'introduction', introductionId: m.introductionId }
        : { kind: 'member', memberId: m.members[0]?.id ?? '', section: 'rendez-vous' },
  }));

  const toValidateItems: TodayItem[] = [
    ...toValidate.rows.map(
      (r): TodayItem => ({
        key: `onboarding:${text(r.id)}`,
        label: 'Entretien personnalisé à noter (effectué ou manqué)',
        people: [text(r.name)],
        at: iso(r.at),
        day: null,
        detail: null,
        overdue: true,
        link: { kind: 'member', memberId: text(r.id), section: 'actions' },
      }),
    ),
    ...firstMeetingsPast.rows.map(
      (r): TodayItem => ({
        key: `first-meeting:${text(r.id)}`,
        label: 'Première rencontre à noter comme tenue',
        people: [text(r.name_a), text(r.name_b)],
        at: iso(r.at),
        day: null,
        detail: null,
        overdue: true,
        link: { kind: 'introduction', introductionId: text(r.id) },
      }),
    ),
  ].sort((x, y) => (x.at ?? '').localeCompare(y.at ?? '') || x.key.localeCompare(y.key));

  const answerItems: TodayItem[] = answers.rows.map((r) => {
    const feedback = text(r.state) === 'retours';
    const waiting = [r.waits_a === true ? text(r.name_a) : null, r.waits_b === true ? text(r.name_b) : null].filter(
      (x): x is string => x !== null,
    );
    const deadline = iso(r.deadline);
    return {
      key: `introduction:${text(r.id)}`,
      label: feedback ? 'Retour après la première rencontre attendu' : 'Réponse à une proposition attendue',
      people: [text(r.name_a), text(r.name_b)],
      at: feedback ? iso(r.held_at) : deadline,
      day: null,
      detail: `${introductionStateLabel(text(r.state))}${waiting.length > 0 ? ` — ${feedback ? 'retour attendu' : 'réponse attendue'} : ${waiting.join(' et ')}` : ''}`,
      overdue: !feedback && deadline !== null && Date.parse(deadline) <= nowMs,
      link: { kind: 'introduction', introductionId: text(r.id) },
    };
  });

  const presentationItems: TodayItem[] = presentations.rows.map((r) => ({
    key: `presentation:${text(r.id)}`,
    label: 'Présentation à relire',
    people: [text(r.name)],
    at: iso(r.at),
    day: null,
    detail: null,
    overdue: false,
    link: { kind: 'member', memberId: text(r.id), section: 'profil' },
  }));

  const leadItems: TodayItem[] = leads.rows.map((r) => ({
    key: `lead:${text(r.id)}`,
    label: text(r.kind) === 'contact' ? 'Message de contact à relancer' : 'Pré-inscription à relancer',
    people: [text(r.name)],
    at: null,
    day: text(r.day),
    detail: typeof r.subject === 'string' && r.subject.trim() !== '' ? `Objet : ${r.subject.trim()}` : null,
    overdue: text(r.day) < today,
    link: { kind: 'leads' },
  }));

  const messageItems: TodayItem[] = messages.rows.map((r) => ({
    key: `messages:${text(r.id)}`,
    label: num(r.n) > 1 ? `${num(r.n)} messages non lus` : '1 message non lu',
    people: [text(r.name)],
    at: iso(r.at),
    day: null,
    detail: typeof r.subject === 'string' && r.subject.trim() !== '' ? `Objet : ${r.subject.trim()}` : null,
    overdue: false,
    link: { kind: 'messages', memberId: text(r.id) },
  }));

  const terminationItems: TodayItem[] = terminations.rows.map((r) => {
    const due = iso(r.due);
    return {
      key: `termination:${text(r.key)}`,
      label: 'Demande de résiliation à décider',
      people: [text(r.name)],
      at: due,
      day: null,
      detail: null,
      overdue: due !== null && Date.parse(due) <= nowMs,
      link: { kind: 'member', memberId: text(r.id), section: 'contrat' },
    };
  });

  const paymentItems: TodayItem[] = [
    ...instalments.rows.map(
      (r): TodayItem => ({
        key: `instalment:${text(r.key)}`,
        label: `Mensualité n°\u00a0${num(r.number)} échouée`,
        people: [text(r.name)],
        at: iso(r.at),
        day: null,
        detail: `${euros(num(r.cents))}, ${num(r.failures) > 1 ? `${num(r.failures)} échecs` : '1 échec'}`,
        overdue: true,
        link: { kind: 'member', memberId: text(r.id), section: 'paiements' },
      }),
    ),
    ...refunds.rows.map((r): TodayItem => {
      const due = iso(r.due);
      return {
        key: `refund:${text(r.key)}`,
        label: text(r.status) === 'failed' ? 'Remboursement échoué, à refaire' : 'Remboursement à effectuer',
        people: [text(r.name)],
        at: due,
        day: null,
        detail: euros(num(r.cents)),
        overdue: text(r.status) === 'failed' || (due !== null && Date.parse(due) <= nowMs),
        link: { kind: 'member', memberId: text(r.id), section: 'paiements' },
      };
    }),
  ];

  return [
    group('meetings', meetingItems),
    group('toValidate', toValidateItems, toValidate.total + firstMeetingsPast.total),
    group('answers', answerItems, answers.total),
    group('presentations', presentationItems, presentations.total),
    group('leads', leadItems, leads.total),
    group('messages', messageItems, messages.total),
    group('terminations', terminationItems, terminations.total),
    group('payments', paymentItems, instalments.total + refunds.total),
  ];
}
