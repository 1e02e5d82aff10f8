import { eq } from 'drizzle-orm';
import { parisDayOf } from '#machines/paris-time.ts';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { agencyMailsOf, sendUpdate, signUpMember } from '#tests/support/member-walk.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import type { TestProduct } from '#tests/support/test-product.ts';

/**
 * « Manqué » keeps its word (issue 63): an onboarding meeting is noted missed only once its time
 * has come (refused before, in French, nothing changed); then the member gets a mail in the
 * agency's layout and the agenda's slot is freed (the booking cancelled in the agency's books).
 */

const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

describe('an onboarding meeting noted missed', () => {
  it('is refused before its start, then mails the member and frees the slot', async () => {
    clock.set(new Date());
    const member = await signUpMember(product, 'manque');
    const samples = samplePayloads(member, clock.now().getTime());
    for (const context of ['profil', 'questionnaire', 'form_per_inf', 'sel_plan', 'pre_contract_ok', 'onb_meet', 'onb_meet_resa'] as const)
      expect((await sendUpdate(member.agent, samples[context])).status).toBe(200);
    const meetingAt = new Date(samples.onb_meet.date);
    const inviteeUri = `https://calendly.test/invitees/manque-${member.id}`;
    await product.database.db.insert(bookings).values({
      inviteeUri,
      memberId: member.id,
      eventUri: `https://calendly.test/events/manque-${member.id}`,
      startTime: meetingAt,
      endTime: new Date(meetingAt.getTime() + 15 * 60_000),
      status: 'active',
      kind: 'entretien-personnalise',
      bookedAt: clock.now(),
    });
    // The agenda's days are Paris days (from 23:00 UTC in winter the UTC date is the day before).
    const agendaDay = parisDayOf(meetingAt.getTime());
    const agendaKeys = async () => {
      const body = await staff.agent.json<{ items: { key: string }[] }>(
        staff.agent.get(`/api/v1/dashboard/agenda?du=${agendaDay}&au=${agendaDay}`),
      );
      return body.items.map((i) => i.key);
    };
    expect(await agendaKeys()).toContain(`booking:${inviteeUri}`);

    // Before the meeting: the file says why « Entretien manqué » is not offered, and the server refuses it.
    const file = await staff.agent.json<{ actions: { id: string; allowed: boolean; reason: string | null }[] }>(
      staff.agent.get(`/api/v1/dashboard/members/${member.id}`),
    );
    const missed = file.actions.find((a) => a.id === 'onb_meet_missed');
    expect(missed?.allowed).toBe(false);
    expect(missed?.reason).toMatch(
      /^L’entretien est prévu le .+\s: il ne pourra être noté comme manqué qu’à partir de son heure de début\.$/,
    );
    const early = await sendUpdate(staff.agent, { context: 'onb_meet_ok', status: false, uid: member.id });
    expect(early.status).toBe(409);
    expect(early.body.error?.message).toBe(
      'L’entretien n’a pas encore eu lieu\u00a0: il ne peut être noté comme manqué qu’une fois son heure de début passée. Pour le déplacer, annulez le rendez-vous.',
    );
    expect((await agencyMailsOf(product, member.email)).map((m) => m.kind)).not.toContain('agency-meeting-missed');
    expect(await agendaKeys()).toContain(`booking:${inviteeUri}`);

    // Once its time has passed: noted missed, the member is back to booking, mailed, and the slot freed.
    clock.set(new Date(meetingAt.getTime() + 20 * 60_000));
    const noted = await sendUpdate(staff.agent, { context: 'onb_meet_ok', status: false, uid: member.id });
    expect(noted.status, JSON.stringify(noted.body)).toBe(200);
    expect(noted.body.state).toBe('prendre-un-rendez-vous.choix-creneau');
    const mails = (await agencyMailsOf(product, member.email)).filter((m) => m.kind === 'agency-meeting-missed');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Votre entretien personnalisé n’a pas pu avoir lieu');
    expect(mails[0]?.text).toContain('Ce créneau est libéré.');
    expect(mails[0]?.text).toMatch(/^Bonjour/);
    const [booking] = await product.database.db.select().from(bookings).where(eq(bookings.inviteeUri, inviteeUri));
    expect(booking?.status).toBe('canceled');
    expect(booking?.canceledAt?.getTime()).toBe(clock.now().getTime());
    expect(await agendaKeys()).not.toContain(`booking:${inviteeUri}`);
  });
});
