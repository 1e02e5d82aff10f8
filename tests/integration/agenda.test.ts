import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '#bff/auth/supabase.ts';
import { fakeClock } from '#bff/clock.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import { members } from '#bff/db/schema.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import { addDays, mondayOf, parisDayOf, parisDayStartMs } from '#machines/agenda/agenda.ts';
import { type ActiveMember, startWithActiveMembers } from '#tests/support/active-member.ts';
import type { startTestProduct, TestAgent } from '#tests/support/test-product.ts';

/**
 * The staff agenda over HTTP (issue 22, decision 122): onboarding and matchmaking meetings (the
 * scheduling service's bookings) and the introductions' first meetings of a period of Paris days;
 * the period validated (31 days at most) in French; staff only.
 */

const clock = fakeClock(new Date());
// The week two weeks from now (Monday to Sunday, Paris days): the first meeting must be in the future.
const monday = addDays(mondayOf(parisDayOf(clock.now().getTime())), 14);
const day = (n: number) => addDays(monday, n);
/** An instant `minutes` after midnight (Paris) of the week's day n. */
const at = (n: number, minutes: number) => new Date(parisDayStartMs(day(n)) + minutes * 60_000).toISOString();
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: TestAgent;
let amina: ActiveMember;
let youssef: ActiveMember;
let nadiaId: string;
let introductionId: string;

type Item = {
  key: string;
  kind: string;
  kindLabel: string;
  at: string;
  members: { id: string; name: string }[];
  place: string | null;
  introductionId: string | null;
  detail: string | null;
};
const agenda = async (query: string) => {
  const response = await staff.get(`/api/v1/dashboard/agenda?${query}`);
  const body = (await response.json()) as { items: Item[]; error?: { message: string } };
  return { status: response.status, body, cacheControl: response.headers.get('cache-control') };
};

async function book(
  memberId: string,
  uri: string,
  startIso: string,
  status: 'active' | 'canceled' = 'active',
  kind: 'entretien-personnalise' | 'entretien-matchmaking' | null = null,
) {
  const start = new Date(startIso);
  await product.database.db.insert(bookings).values({
    inviteeUri: `https://calendly.test/invitees/${uri}`,
    memberId,
    eventUri: `https://calendly.test/events/${uri}`,
    startTime: start,
    endTime: new Date(start.getTime() + 15 * 60_000),
    status,
    kind,
    bookedAt: clock.now(),
  });
}

beforeAll(async () => {
  ({
    product,
    staff,
    members: [amina, youssef],
  } = await startWithActiveMembers(clock, [
    ['Amina', 'femme', 29],
    ['Youssef', 'homme', 32],
  ]));
  // A new member about to hold the onboarding meeting.
  const nadia = await ensureAccount(adminClient(product.auth), product.database.db, {
    email: `nadia.agenda.${Date.now()}@example.fr`,
    password: 'bismillah-2026',
    kind: 'femme',
  });
  nadiaId = nadia.id;
  await product.database.db
    .update(members)
    .set({ profile: { firstName: 'Nadia', lastName: 'Benali' } })
    .where(eq(members.id, nadiaId));

  // Monday 00:30 in Paris (still Sunday in UTC): in the week. The next Monday 00:30: not.
  await book(nadiaId, 'nadia-1', at(0, 30));
  await book(nadiaId, 'nadia-cancelled', at(1, 600), 'canceled');
  await book(nadiaId, 'nadia-next-week', at(7, 30));
  // Amina is active (her onboarding meeting long held): a new booking is her matchmaking meeting.
  await book(amina.id, 'amina-mm', at(3, 960));
  // Decision 128: a kind stored at recording wins over the record as it is now (Youssef is active,
  // his onboarding meeting held since; this booking was recorded as that meeting).
  await book(youssef.id, 'youssef-onb', at(4, 600), 'active', 'entretien-personnalise');

  const proposed = await staff.post('/api/v1/dashboard/introductions', { a: amina.id, b: youssef.id });
  expect(proposed.status).toBe(201);
  introductionId = ((await proposed.json()) as { introduction: { id: string } }).introduction.id;
  for (const m of [amina, youssef]) {
    clock.advance(60_000);
    expect((await m.agent.post(`/api/v1/user/introductions/${introductionId}/events`, { type: 'ACCEPT' })).status).toBe(200);
  }
  const planned = await staff.post(`/api/v1/dashboard/introductions/${introductionId}/events`, {
    type: 'PLAN_MEETING',
    meetingAt: at(2, 14 * 60),
    place: 'À l’agence, 12 rue de la Paix',
  });
  expect(planned.status, await planned.clone().text()).toBe(200);
}, 120_000);
afterAll(() => product.stop());

describe('the staff agenda', () => {
  it('lists the week’s meetings by time in Paris days, each with its kind in French, its members and their links', async () => {
    const { status, body, cacheControl } = await agenda(`du=${day(0)}&au=${day(6)}`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(cacheControl).toBe('private, no-store');
    expect(body.items.map((i) => [i.kindLabel, i.at, i.members.map((m) => m.name)])).toEqual([
      ['Entretien personnalisé', at(0, 30), ['Nadia Benali']],
      ['Première rencontre (mise en relation)', at(2, 14 * 60), ['Amina Exemple', 'Youssef Exemple']],
      ['Entretien de rapprochement', at(3, 960), ['Amina Exemple']],
      ['Entretien personnalisé', at(4, 600), ['Youssef Exemple']],
    ]);
    const [onboarding, first, matchmaking] = body.items;
    expect(onboarding?.members[0]?.id).toBe(nadiaId);
    expect(onboarding?.kind).toBe('entretien-personnalise');
    expect(first).toMatchObject({
      kind: 'premiere-rencontre',
      introductionId,
      place: 'À l’agence, 12 rue de la Paix',
      detail: 'Première rencontre planifiée',
    });
    expect(first?.members.map((m) => m.id)).toEqual([amina.id, youssef.id]);
    expect(matchmaking?.kind).toBe('entretien-matchmaking');
  });

  it('a day is a Paris day; an empty period is an empty list', async () => {
    const wednesday = await agenda(`du=${day(2)}&au=${day(2)}`);
    expect(wednesday.body.items.map((i) => i.kind)).toEqual(['premiere-rencontre']);
    // Just after midnight on the next Monday (Paris) belongs to that Monday, not to the week.
    const nextMonday = await agenda(`du=${day(7)}&au=${day(7)}`);
    expect(nextMonday.body.items.map((i) => i.key)).toEqual(['booking:https://calendly.test/invitees/nadia-next-week']);
    expect((await agenda(`du=${day(14)}&au=${day(20)}`)).body.items).toEqual([]);
  });

  it('refuses a bad period in French (400), whatever the shape', async () => {
    const cases: [string, string | RegExp][] = [
      ['du=2026-11-01&au=2026-12-02', 'Une période de 31 jours au plus.'],
      ['du=2026-11-25&au=2026-11-24', 'La fin de la période doit suivre son début.'],
      ['du=2026-11-25', 'Indiquez le début (du) et la fin (au) de la période, au format AAAA-MM-JJ.'],
      ['', 'Indiquez le début (du) et la fin (au) de la période, au format AAAA-MM-JJ.'],
      ['du=2026-02-30&au=2026-03-01', /^Début\s: date invalide/],
      ['du=25%2F11%2F2026&au=2026-11-30', /^Début\s: date invalide/],
      ['du=2026-11-01&au=9999-12-31', 'Une période de 31 jours au plus.'],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await agenda(query);
      expect(status, query).toBe(400);
      if (typeof message === 'string') expect(body.error?.message, query).toBe(message);
      else expect(body.error?.message, query).toMatch(message);
    }
    expect((await agenda('du=2026-11-01&au=2026-12-01')).status).toBe(200);
  });

  it('is staff only: a member gets a French 403, nobody signed in a 401', async () => {
    const asMember = await amina.agent.get(`/api/v1/dashboard/agenda?du=${day(0)}&au=${day(6)}`);
    expect(asMember.status).toBe(403);
    const anonymous = await product.agent().get(`/api/v1/dashboard/agenda?du=${day(0)}&au=${day(6)}`);
    expect(anonymous.status).toBe(401);
  });
});
