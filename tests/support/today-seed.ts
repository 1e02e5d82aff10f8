import { eq, sql } from 'drizzle-orm';
import { adminClient } from '#bff/auth/supabase.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import { members } from '#bff/db/schema.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import type { Product } from '#bff/start.ts';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';

/**
 * One item of every group of « Aujourd’hui » (issue 63, decision 203), written straight into the
 * database for the integration test and the browser walk: a member with a meeting tomorrow, an
 * onboarding meeting past and not noted, three introductions (a proposal past its deadline, one
 * waiting for feedback, a first meeting held), a presentation, a lead to call back since
 * yesterday, an unread message, a termination request, a failed instalment and a refund to make.
 */
const HOUR = 3_600_000;

export function todayClock(nowMs: number) {
  const at = (hours: number) => new Date(nowMs + hours * HOUR);
  const TODAY = parisDayOf(nowMs);
  const dayAfter = (day: string, n: number) => parisDayOf(parisDayStartMs(day) + n * 24 * HOUR + 3 * HOUR);
  const TOMORROW = dayAfter(TODAY, 1);
  return {
    at,
    TODAY,
    YESTERDAY: dayAfter(TODAY, -1),
    TOMORROW,
    /** Tomorrow, 11:00 in Paris: a meeting of the two days whatever the hour now. */
    TOMORROW_11: new Date(parisDayStartMs(TOMORROW) + 11 * HOUR),
    /** Yesterday, 10:00 in Paris: past, and never a meeting of today's or tomorrow's, whatever the hour now. */
    YESTERDAY_10: new Date(parisDayStartMs(dayAfter(TODAY, -1)) + 10 * HOUR),
  };
}

type Seeded = Pick<Product, 'auth' | 'database'>;

let n = 0;

export function todaySeeder(product: Seeded, nowMs: number) {
  const { at, YESTERDAY, TOMORROW_11, YESTERDAY_10 } = todayClock(nowMs);
  async function person(firstName: string, counsellor: string | null) {
    n += 1;
    const { id } = await ensureAccount(adminClient(product.auth), product.database.db, {
      email: `${firstName.toLowerCase()}.today.${n}.${Date.now()}@example.fr`,
      password: 'bismillah-2026',
      kind: 'femme',
    });
    await product.database.db
      .update(members)
      .set({ profile: { firstName, lastName: 'Test' } })
      .where(eq(members.id, id));
    if (counsellor)
      await product.database.db.execute(
        sql`INSERT INTO member_counsellors (member_id, counsellor_id) VALUES (${id}::uuid, ${counsellor}::uuid)`,
      );
    return id;
  }

  async function introduction(a: string, b: string, state: string, context: Record<string, unknown>, deadline: Date) {
    const id = crypto.randomUUID();
    await product.database.db.execute(sql`INSERT INTO introductions (id, member_a, member_b, state, context, version, proposed_at, deadline_at)
      VALUES (${id}::uuid, ${a}::uuid, ${b}::uuid, ${state}, ${JSON.stringify(context)}::jsonb, 1, ${at(-24 * 6).toISOString()}::timestamptz, ${deadline.toISOString()}::timestamptz)`);
    return id;
  }

  /** One item of every group for `owner` (named `name`), assigned to `counsellor`. */
  async function seedAll(name: string, counsellor: string) {
    const db = product.database.db;
    const owner = await person(name, counsellor);
    const partners = [await person(`${name}Un`, null), await person(`${name}Deux`, null), await person(`${name}Trois`, null)];
    // Tomorrow, 11:00 Paris: a meeting of the two days.
    await db.insert(bookings).values({
      inviteeUri: `https://calendly.test/invitees/${owner}`,
      memberId: owner,
      eventUri: `https://calendly.test/events/${owner}`,
      startTime: TOMORROW_11,
      endTime: new Date(TOMORROW_11.getTime() + HOUR / 4),
      status: 'active',
      kind: 'entretien-matchmaking',
      bookedAt: at(-48),
    });
    // The onboarding meeting was two hours ago, not noted yet.
    await db.execute(
      sql`UPDATE members SET onboarding = onboarding || ${JSON.stringify({
        onboardingMeetingDateSelected: true,
        onboardingMeetingReserved: true,
        onboardingMeetingDate: at(-2).toISOString(),
        onboardingMeetingDone: false,
        // A signature date: the file shows the contract's card, where a termination is decided.
        subscriptionDate: at(-24 * 60).toISOString(),
      })}::jsonb WHERE id = ${owner}::uuid`,
    );
    const proposal = await introduction(
      owner,
      partners[0] as string,
      'proposee.acceptee-par-un',
      { answers: { a: { status: 'pending' }, b: { status: 'accepted' } } },
      at(-1),
    );
    const feedback = await introduction(
      owner,
      partners[1] as string,
      'retours',
      { meetingHeldAt: at(-30).toISOString(), feedback: { a: { outcome: 'continuer' }, b: null } },
      at(-24 * 20),
    );
    const firstMeeting = await introduction(
      owner,
      partners[2] as string,
      'rencontre-planifiee',
      // Yesterday morning, not « 20 hours ago »: after 20:00 in Paris that was today, and the meeting
      // joined the day's meetings ahead of tomorrow's (the walk opened it instead of the file).
      { meeting: { at: YESTERDAY_10.toISOString(), place: 'À l’agence' } },
      at(-24 * 20),
    );
    await db.execute(
      sql`INSERT INTO member_presentations (member_id, body, status) VALUES (${owner}::uuid, 'Ma présentation.', 'en-attente')`,
    );
    const lead = crypto.randomUUID();
    await db.execute(
      sql`INSERT INTO contact_messages (id, name, email, subject, message) VALUES (${lead}::uuid, ${`Prospect ${name}`}, 'p@example.fr', 'Renseignements', 'Bonjour')`,
    );
    await db.execute(
      sql`INSERT INTO lead_follow_ups (lead_id, kind, status, assignee_id, follow_up_on) VALUES (${lead}::uuid, 'contact', 'contacte', ${counsellor}::uuid, ${YESTERDAY}::date)`,
    );
    await db.execute(
      sql`INSERT INTO direct_messages (member_id, author_id, direction, subject, body) VALUES (${owner}::uuid, ${owner}::uuid, 'to_agency', 'Une question', 'Bonjour')`,
    );
    await db.execute(sql`INSERT INTO contract_terminations (member_id, requested_at, reason, explanation, due_by)
      VALUES (${owner}::uuid, ${at(-24 * 10).toISOString()}::timestamptz, 'demenagement', 'Je déménage.', ${at(24 * 50).toISOString()}::timestamptz)`);
    await db.execute(sql`INSERT INTO instalments (member_id, subscription_id, provider_invoice_id, offer_id, number, amount_cents, currency, status, failed_at, failures, created_at, updated_at)
      VALUES (${owner}::uuid, ${`sub_${owner}`}, ${`in_${owner}`}, 'plan_serenity_month', 3, 4500, 'eur', 'failed', ${at(-5).toISOString()}::timestamptz, 2, now(), now())`);
    await db.execute(
      sql`INSERT INTO checkout_sessions (id, member_id, amount_total, currency, status, payment_status) VALUES (${`cs_${owner}`}, ${owner}::uuid, 10000, 'eur', 'complete', 'paid')`,
    );
    await db.execute(sql`INSERT INTO refunds (member_id, checkout_session_id, reason, amount_cents, currency, paid_cents, kept_cents, requested_at, due_by, status, attempts)
      VALUES (${owner}::uuid, ${`cs_${owner}`}, 'withdrawal', 6000, 'eur', 10000, 4000, ${at(-24).toISOString()}::timestamptz, ${at(24 * 13).toISOString()}::timestamptz, 'pending', 0)`);
    return { owner, proposal, feedback, firstMeeting };
  }
  return { person, introduction, seedAll };
}
