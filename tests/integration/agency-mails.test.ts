import { createHmac, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { mailbox, mailOutbox, members } from '#bff/db/schema.ts';
import { agencyJobs } from '#bff/agency-jobs.ts';
import { parseConfig } from '#bff/config.ts';
import { queueAgencyMailsForUpdate, runAgencyMailJob, termEndOf } from '#bff/mail/agency-mail-triggers.ts';
import { jobRegistry } from '#bff/scheduled-jobs.ts';
import { type AgencyMailSite, renunciationPeriodOverMail } from '#bff/mail/agency-mails.ts';
import { enqueueMailOnce } from '#bff/mail/outbox.ts';
import { recordOf } from '#bff/members/members.ts';
import { CALENDLY_STAND_IN_KEY, standInSecret } from '#bff/db/stand-in-secrets.ts';
import { DAY_MS, instantMs, toIsoInstant } from '#machines/onboarding/instant.ts';
import { civilDayText } from '#machines/onboarding/deadline-texts.ts';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { contractEndsAtMs } from '#machines/onboarding/periods.ts';
import { planById } from '#machines/onboarding/plans.ts';
import { agencyMailsOf, payOnCheckout, sendUpdate, signUpMember } from '#tests/support/member-walk.ts';
import { walkOnboarding, walkToPayment } from '#tests/support/onboarding-walk.ts';
import { TEST_SITE, testAgencySite, type TestProduct } from '#tests/support/test-product.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';

const HOUR_MS = 60 * 60 * 1000;
const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
const site: AgencyMailSite = testAgencySite();
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

const newMember = () => signUpMember(product, 'agence');

const outboxOf = (email: string) => agencyMailsOf(product, email);
const kindsOf = async (email: string) => (await outboxOf(email)).map((m) => m.kind);

const job = () => runAgencyMailJob({ db: product.database.db, clock, site });

describe('the agency’s own mails (decision 111)', () => {
  it('walks a member from sign-up to the end of the term: each mail queued once, in order, at its time', async () => {
    clock.set(new Date());
    const member = await newMember();
    expect(await kindsOf(member.email)).toEqual(['agency-welcome']);

    const { signedAt } = await walkToPayment({ member, staff, clock });
    expect(await kindsOf(member.email)).toEqual(['agency-welcome', 'agency-meeting-booked', 'agency-contract-ready']);

    // The renunciation period ends at 24:00 Paris on its last day (civil days, decision 165): a
    // millisecond before, no mail; then the walk's clock, as payment opens: the mail, once.
    const deadlines = deadlinesOfSignature(signedAt);
    expect(clock.now().getTime()).toBe(deadlines.paymentOpensAtMs);
    clock.set(new Date(deadlines.paymentOpensAtMs - 1));
    expect((await job()).queued).toBe(0);
    clock.set(new Date(deadlines.paymentOpensAtMs));
    await job();
    expect((await job()).queued).toBe(0);
    expect((await kindsOf(member.email)).at(-1)).toBe('agency-renunciation-period-over');
    expect((await outboxOf(member.email)).at(-1)?.text.replace(/\s/g, ' ')).toContain(
      `a pris fin le ${civilDayText(deadlines.renunciation.lastDay)} à 24 heures`.replace(/\s/g, ' '),
    );

    const csid = await payOnCheckout(member.agent, 'file_fee', member.email);
    expect((await sendUpdate(member.agent, { context: 'app', email: member.email, csid })).status).toBe(200);
    // A replay of the same payment is refused and mails nothing more.
    expect((await sendUpdate(member.agent, { context: 'app', email: member.email, csid })).status).toBe(409);
    const subCsid = await payOnCheckout(member.agent, 'plan_serenity_month', member.email);
    expect((await sendUpdate(member.agent, { context: 'sub', email: member.email, csid: subCsid })).body.state).toBe(
      'attente.delai-retractation',
    );
    const payments = (await outboxOf(member.email)).filter((m) => m.kind === 'agency-payment-received');
    expect(payments.map((m) => m.text.match(/paiement de ([\d\s,]+€)/)?.[1]?.replace(/\s/g, ' '))).toEqual(['169,00 €', '85,00 €']);

    // Before the end of the withdrawal period's last day, 24:00 Paris: nothing; then the mail, once.
    clock.set(new Date(signedAt + 13 * DAY_MS));
    await job();
    expect(await kindsOf(member.email)).not.toContain('agency-withdrawal-period-over');
    clock.set(new Date(deadlines.withdrawal.endsAtMs - 1));
    await job();
    expect(await kindsOf(member.email)).not.toContain('agency-withdrawal-period-over');
    clock.set(new Date(deadlines.withdrawal.endsAtMs));
    await job();
    expect((await job()).queued).toBe(0);

    const active = await sendUpdate(staff.agent, { context: 'meeting_mm', uid: member.id });
    expect(active.body.state).toBe('membre-actif');
    const activeAt = clock.now().getTime();
    // The job sees the member active too, but the mail was queued by the event: not again.
    expect((await job()).queued).toBe(0);

    expect(activeAt).toBeGreaterThan(signedAt);
    // The term (decision 118): the signature + the plan's months (serenity: 12), as the contract says,
    // from the one function the chart reads.
    const [row] = await product.database.db.select().from(members).where(eq(members.id, member.id));
    const endsAt = await termEndOf(product.database.db, member.id, recordOf(row as typeof members.$inferSelect));
    const expectedEnd = contractEndsAtMs(toIsoInstant(signedAt), planById('plan_serenity_month').durationMonths);
    expect(endsAt?.getTime()).toBe(expectedEnd);
    const end = expectedEnd ?? 0;

    clock.set(new Date(end - 31 * DAY_MS));
    expect((await job()).queued).toBe(0);
    clock.set(new Date(end - 30 * DAY_MS));
    await job();
    expect((await job()).queued).toBe(0);
    clock.set(new Date(end - 7 * DAY_MS + HOUR_MS));
    await job();
    expect((await job()).queued).toBe(0);
    clock.set(new Date(end - HOUR_MS));
    expect((await job()).queued).toBe(0);
    // At the end: the chart is in contrat-termine, and the term-ended mail goes once.
    clock.set(new Date(end + HOUR_MS));
    expect((await job()).queued).toBe(1);
    expect((await job()).queued).toBe(0);
    expect((await member.agent.json<{ state: string }>(member.agent.get('/api/v1/user/settings'))).state).toBe('contrat-termine');

    const mails = await outboxOf(member.email);
    expect(mails.map((m) => m.kind)).toEqual([
      'agency-welcome',
      'agency-meeting-booked',
      'agency-contract-ready',
      'agency-renunciation-period-over',
      'agency-payment-received',
      'agency-payment-received',
      'agency-withdrawal-period-over',
      'agency-active-member',
      'agency-term-ending',
      'agency-term-ending',
      'agency-term-ended',
    ]);
    expect(mails.slice(-3).map((m) => m.subject)).toEqual([
      'Votre contrat prend fin dans 30 jours',
      'Votre contrat prend fin dans 7 jours',
      'Votre accompagnement est terminé',
    ]);
    // Every key names the member; the first name (from the profile) greets them after step 1.
    for (const mail of mails) expect(mail.key).toContain(member.id);
    expect(mails[0]?.text.startsWith('Bonjour,\n')).toBe(true);
    expect(mails[1]?.text).toMatch(/^Bonjour Amina,\n/);
  });

  it('sends the day-before reminder of the onboarding meeting once, the day before', async () => {
    clock.set(new Date());
    const member = await newMember();
    await walkOnboarding({ member, staff, clock, until: 'onb_meet_resa' });
    const [row] = await product.database.db.select().from(members).where(eq(members.id, member.id));
    const meeting = recordOf(row as typeof members.$inferSelect).onboardingMeetingDate as string;
    const at = instantMs(meeting);

    clock.set(new Date(at - DAY_MS - HOUR_MS));
    await job();
    expect(await kindsOf(member.email)).not.toContain('agency-meeting-reminder');
    clock.set(new Date(at - 20 * HOUR_MS));
    // The product closing (its jobs' signal aborted): the pass finds the member due but reads no batch.
    const closing = new AbortController();
    closing.abort();
    const stopped = await runAgencyMailJob({ db: product.database.db, clock, site, stopping: closing.signal });
    expect(stopped.members).toBeGreaterThan(0);
    expect(stopped.queued).toBe(0);
    expect(await kindsOf(member.email)).not.toContain('agency-meeting-reminder');
    await job();
    clock.set(new Date(at - HOUR_MS));
    expect((await job()).queued).toBe(0);
    const reminders = (await outboxOf(member.email)).filter((m) => m.kind === 'agency-meeting-reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]?.key).toBe(`agency-meeting-reminder:${member.id}:${meeting}`);
    expect(reminders[0]?.subject).toBe('Rappel : votre entretien personnalisé a lieu demain');
  });

  it('runs on a timer in the server: a pass queues what is due and pokes the dispatcher', async () => {
    clock.set(new Date());
    const member = await newMember();
    await walkToPayment({ member, staff, clock });
    let pokes = 0;
    // The product's own job (bff/agency-jobs.ts), on a timer firing at once.
    const agencyMails = agencyJobs({
      config: parseConfig({ NODE_ENV: 'test', PORT: '3999', PUBLIC_SITE_URL: TEST_SITE }),
      db: product.database.db,
      clock,
      auth: product.auth,
      dispatch: (request) => product.app.fetch(request),
      mailQueued: () => (pokes += 1),
    }).find((job) => job.name === 'agency-mails');
    if (!agencyMails) throw new Error('agency-mails job missing');
    const running = jobRegistry([{ ...agencyMails, firstDelayMs: 0, intervalMs: 60_000 }]);
    running.startTimers();
    try {
      await expect
        .poll(async () => (await kindsOf(member.email)).includes('agency-renunciation-period-over'), { timeout: 5_000 })
        .toBe(true);
      await expect.poll(() => pokes, { timeout: 5_000 }).toBe(1);
    } finally {
      await running.stop();
    }
  });

  it('queues an event’s mail once even when the same event is replayed in another transaction', async () => {
    clock.set(new Date());
    const member = await newMember();
    await walkOnboarding({ member, staff, clock, until: 'onb_meet_ok' });
    const [row] = await product.database.db.select().from(members).where(eq(members.id, member.id));
    const stored = row as typeof members.$inferSelect;
    const replay = () =>
      product.database.db.transaction((tx) =>
        queueAgencyMailsForUpdate(tx, {
          site,
          update: { context: 'onb_meet_ok', status: true, uid: member.id },
          previous: recordOf(stored),
          row: stored,
          fromState: 'attente-entretien-personnalise',
          toState: 'attente-contrat.formulaire-contrat',
          now: clock.now(),
        }),
      );
    await replay();
    await replay();
    expect((await kindsOf(member.email)).filter((k) => k === 'agency-contract-ready')).toHaveLength(1);
  });

  it('mails « meeting booked » once from the booking webhook, even when Calendly delivers it twice', async () => {
    clock.set(new Date());
    const member = await newMember();
    await walkOnboarding({ member, staff, clock, until: 'pre_contract_ok' });
    const start = new Date(Math.floor(clock.now().getTime() / DAY_MS) * DAY_MS + 3 * DAY_MS + 9 * HOUR_MS);
    const eventUri = `https://api.calendly.com/scheduled_events/${randomUUID()}`;
    const event = {
      event: 'invitee.created',
      created_at: clock.now().toISOString(),
      created_by: 'https://api.calendly.com/users/AGENCE',
      payload: {
        uri: `${eventUri}/invitees/${randomUUID()}`,
        email: member.email,
        name: 'Amina Benali',
        status: 'active',
        timezone: 'Europe/Paris',
        scheduled_event: {
          uri: eventUri,
          name: 'Entretien découverte (15 min)',
          start_time: start.toISOString(),
          end_time: new Date(start.getTime() + 15 * 60_000).toISOString(),
        },
        tracking: { utm_campaign: null, utm_source: null, utm_medium: null, utm_content: member.id, utm_term: null, salesforce_uuid: null },
        cancel_url: 'https://calendly.com/cancellations/x',
        reschedule_url: 'https://calendly.com/reschedulings/x',
        rescheduled: false,
        questions_and_answers: [],
        created_at: clock.now().toISOString(),
        updated_at: clock.now().toISOString(),
      },
    };
    const key = await standInSecret(product.database.db, CALENDLY_STAND_IN_KEY, '');
    const deliver = () => {
      const body = JSON.stringify(event);
      const t = Math.floor(clock.now().getTime() / 1000);
      const sig = `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
      return product.app.request(`${TEST_SITE}/api/v1/webhooks/calendly`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Calendly-Webhook-Signature': sig },
        body,
      });
    };
    expect((await deliver()).status).toBe(200);
    expect((await deliver()).status).toBe(200);
    const booked = (await outboxOf(member.email)).filter((m) => m.kind === 'agency-meeting-booked');
    expect(booked).toHaveLength(1);
    expect(booked[0]?.key).toBe(`agency-meeting-booked:${member.id}:${toIsoInstant(start.getTime())}`);
  });

  it('mails nothing for an update the chart refuses, and nothing for a sign-up that fails', async () => {
    const member = await newMember();
    const refused = await sendUpdate(member.agent, { context: 'onb_meet_resa', status: true, uid: member.id });
    expect(refused.status).toBe(409);
    expect(await kindsOf(member.email)).toEqual(['agency-welcome']);
    // A registration with an address that has an account creates nothing (decision 187): no
    // second welcome, only the « someone tried » notice (not an agency mail of the member's walk).
    const again = await member.agent.post('/api/v1/dashboard/subscription', {
      context: 'init',
      email: member.email,
      role: 'femme',
      password: 'bismillah-2026',
    });
    expect(again.status).toBe(202);
    expect(await kindsOf(member.email)).toEqual(['agency-welcome']);
  });

  it('sends a scheduled mail only if it still applies when it goes: queued, the state changes, then dropped and kept as such (decision 191)', async () => {
    clock.set(new Date());
    const member = await newMember();
    const { signedAt } = await walkOnboarding({ member, staff, clock, until: 'sub_date' });
    if (signedAt === null) throw new Error('not signed');
    const [row] = await product.database.db.select().from(members).where(eq(members.id, member.id));
    const subDate = recordOf(row as NonNullable<typeof row>).subscriptionDate ?? '';
    // Day 7 comes: the job queues « le paiement est ouvert », and the member withdraws before the
    // dispatcher sends it. (Written the other way round, the withdrawal first, so that the
    // dispatcher's own timer cannot send the mail in between: what it finds is the same.)
    clock.set(new Date(deadlinesOfSignature(signedAt).paymentOpensAtMs));
    expect((await sendUpdate(member.agent, { context: 'withdraw', confirm: true })).body.state).toBe('retracte');
    const queued = renunciationPeriodOverMail(site, { to: member.email, firstName: 'Amina' }, { lastDay: '2027-01-01' });
    await enqueueMailOnce(product.database.db, queued, `${queued.kind}:${member.id}:${subDate}`);
    await product.flushMail();
    const [dropped] = await product.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.subject, queued.subject), eq(mailOutbox.toAddress, member.email)));
    expect(dropped).toMatchObject({ kind: 'agency-renunciation-period-over', status: 'dropped', sentAt: null, dedupeKey: null });
    expect(dropped?.lastError).toBe('ne s’applique plus à l’état retracte');
    const delivered = await product.database.db.select().from(mailbox).where(eq(mailbox.toAddress, member.email));
    expect(delivered.map((m) => m.subject)).not.toContain(queued.subject);
    // The withdrawal's own confirmation is sent.
    expect(delivered.map((m) => m.subject)).toContain('Confirmation de votre rétractation');
  });
});
