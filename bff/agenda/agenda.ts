import { type AgendaKind, agendaKinds } from '#machines/agenda/agenda.ts';
import { agendaBookingKind, bookingFactsOf } from '#machines/agenda/booking-kind.ts';
import { stateLabel as introductionStateLabel } from '#machines/introductions/labels.ts';
import { agendaKindLabels } from '#machines/onboarding/labels.ts';
import { bookedMeetings, cancelActiveBookingAt, meetingPeople, plannedFirstMeetings } from '#bff/agenda/store/meetings.ts';
import type { Db } from '#bff/db/database.ts';

/**
 * The staff agenda (issue 22, decision 122): the meetings of a period, each with its member(s),
 * kind (in French), time and what staff need to open the file. Three sources, no new table:
 * - the scheduling service's bookings (`bookings`, active ones): the onboarding meeting
 *   (« Entretien personnalisé ») or the matchmaking meeting (« Entretien de rapprochement »), as
 *   stored on the booking when it was recorded (machines/agenda/booking-kind.ts, decision 128);
 * - the introductions' chaperoned first meetings (`introductions.context.meeting`, planned by staff).
 * An erased member's booking is not shown (their name is gone); their introduction's meeting is,
 * with « Membre effacé ».
 */

interface AgendaMember {
  id: string;
  name: string;
}

export interface AgendaItem {
  /** Stable within the answer (the source and its id). */
  key: string;
  kind: AgendaKind;
  kindLabel: string;
  /** The instant it starts (ISO); the page shows it in Paris time. */
  at: string;
  endAt: string | null;
  members: AgendaMember[];
  place: string | null;
  /** For a first meeting: the introduction to open, and its state in French. */
  introductionId: string | null;
  detail: string | null;
}

const ERASED = 'Membre effacé';

function nameOf(profile: unknown, fallback: string): string {
  const p = profile && typeof profile === 'object' ? (profile as Record<string, unknown>) : {};
  const parts = [p.firstName, p.lastName].filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim());
  return parts.length > 0 ? parts.join(' ').slice(0, 160) : fallback;
}

/** Every meeting starting in [fromMs, toMs), by time then kind. */
export async function agendaItems(db: Db, fromMs: number, toMs: number): Promise<AgendaItem[]> {
  const from = new Date(fromMs);
  const to = new Date(toMs);
  const items: AgendaItem[] = [];

  const booked = await bookedMeetings(db, from, to);
  for (const b of booked) {
    if (!b.memberId) continue;
    const kind = agendaBookingKind(b.kind, b.startTime.getTime(), bookingFactsOf(b.onboarding));
    items.push({
      key: `booking:${b.inviteeUri}`,
      kind,
      kindLabel: agendaKindLabels[kind],
      at: b.startTime.toISOString(),
      endAt: b.endTime.toISOString(),
      members: [{ id: b.memberId, name: nameOf(b.profile, b.inviteeName?.trim() || b.email) }],
      place: null,
      introductionId: null,
      detail: null,
    });
  }

  const planned = await plannedFirstMeetings(db, from, to);
  if (planned.length > 0) {
    const ids = [...new Set(planned.flatMap((p) => [p.memberA, p.memberB]))];
    const people = await meetingPeople(db, ids);
    const byId = new Map(people.map((p) => [p.id, p.erasedAt ? ERASED : nameOf(p.profile, p.email)]));
    for (const p of planned) {
      const meeting = (p.context as { meeting?: { at?: unknown; place?: unknown } | null }).meeting;
      if (!meeting || typeof meeting.at !== 'string') continue;
      items.push({
        key: `introduction:${p.id}`,
        kind: 'premiere-rencontre',
        kindLabel: agendaKindLabels['premiere-rencontre'],
        at: new Date(meeting.at).toISOString(),
        endAt: null,
        members: [p.memberA, p.memberB].map((id) => ({ id, name: byId.get(id) ?? ERASED })),
        place: typeof meeting.place === 'string' ? meeting.place : null,
        introductionId: p.id,
        detail: introductionStateLabel(p.state),
      });
    }
  }

  return items.sort(
    (x, y) => x.at.localeCompare(y.at) || agendaKinds.indexOf(x.kind) - agendaKinds.indexOf(y.kind) || x.key.localeCompare(y.key),
  );
}

/**
 * A missed onboarding meeting frees its slot (issue 63): the member's active booking at that time
 * is cancelled in the agency's books, in the transaction that notes the meeting missed, so the
 * agenda no longer shows it. Returns how many bookings it freed.
 */
export async function freeMissedMeetingSlot(
  tx: Pick<Db, 'update'>,
  input: { memberId: string; meetingAt: string; now: Date },
): Promise<number> {
  const freed = await cancelActiveBookingAt(tx, { memberId: input.memberId, startTime: new Date(input.meetingAt), now: input.now });
  return freed.length;
}
