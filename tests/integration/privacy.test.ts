import { eq, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '#bff/auth/supabase.ts';
import { fakeClock } from '#bff/clock.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import type { Database } from '#bff/db/database.ts';
import { consents, contractCopies, erasureLog, legalRecords, memberPrivacy } from '#bff/db/privacy-schema.ts';
import { consentRecords } from '#bff/db/public-schema.ts';
import {
  checkoutSessions,
  mailbox,
  mailOutbox,
  members,
  onboardingEvents,
  preSubscriptions,
  rateLimits,
  webhookEvents,
} from '#bff/db/schema.ts';
import { applyOnboardingUpdate } from '#bff/onboarding/apply-update.ts';
import { verifyRecordedPayment } from '#bff/payments/verify-payment.ts';
import { consentTextHash } from '#bff/privacy/consents.ts';
import { runRetention } from '#bff/retention/retention-job.ts';
import { happyPath } from '#tests/support/happy-path.ts';
import { expectedAmountCents, type OfferId } from '#machines/onboarding/plans.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import * as OTPAuth from 'otpauth';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, type TestAgent } from '#tests/support/test-product.ts';
import { signContract } from '#tests/support/contract-signature.ts';
import { signUp } from '#tests/support/sign-up.ts';

// Sessions are checked against real time: the fake clock starts now and only moves forward.
const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
beforeAll(async () => {
  product = await startTestProduct({ clock });
});
afterAll(() => product.stop());

interface Person {
  firstName: string;
  lastName: string;
  phoneRaw: string;
  phone: string;
  address: string;
}
interface TestMember extends Person {
  agent: TestAgent;
  id: string;
  email: string;
  gender: 'homme' | 'femme';
}

const AMINA: Person = {
  firstName: 'Zoubida',
  lastName: 'Haddadine',
  phoneRaw: '06 12 34 56 78',
  phone: '+33612345678',
  address: '12 rue des Tilleuls',
};
const KHADIJA: Person = {
  firstName: 'Khadouja',
  lastName: 'Moussaouine',
  phoneRaw: '07 98 76 54 32',
  phone: '+33798765432',
  address: '5 allée des Cerisiers',
};

/** Staff at aal2, the TOTP code computed at the server's (fake) time. */
async function staffAtAal2() {
  const staff = await signInStaff(product);
  const enrolled = await staff.agent.json<{ factorId: string; secret: string }>(staff.agent.post('/api/v1/auth/mfa/enroll', {}));
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolled.secret), digits: 6, period: 30, algorithm: 'SHA1' });
  const verified = await staff.agent.post('/api/v1/auth/mfa/verify', {
    factorId: enrolled.factorId,
    code: totp.generate({ timestamp: clock.now().getTime() }),
  });
  expect(verified.status).toBe(200);
  return staff;
}

let n = 0;
/** A member who pre-registered, created an account, and walked the whole onboarding with meetings, payments and messages. */
async function activeMember(person: Person, renounce: boolean): Promise<TestMember> {
  n += 1;
  const agent = product.agent();
  const email = `donnees.${n}.${Date.now()}@example.fr`;
  const pre = await agent.post('/api/v1/subscription/pre-subscription', {
    gender: 'femme',
    email,
    age: 33,
    zip_code: '69003',
    city: 'Lyon',
    consent: true,
  });
  expect(pre.status).toBe(201);
  const created = await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' });
  expect(created.status).toBe(201);
  const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  const member: TestMember = { ...person, agent, id, email, gender: 'femme' };

  const steps = happyPath(member, { start: clock.now().getTime(), renounce });
  for (const step of steps) {
    clock.set(new Date(step.now));
    const body: Record<string, unknown> = { ...step.body };
    if (step.context === 'profil') Object.assign(body, { firstName: person.firstName, lastName: person.lastName, phone: person.phoneRaw });
    if (step.context === 'contractForm') {
      Object.assign(body, {
        fullName: `${person.firstName} ${person.lastName}`,
        signature: `${person.firstName} ${person.lastName}`,
        address: person.address,
      });
    }
    if (step.context === 'app' || step.context === 'sub') {
      const [row] = await product.database.db.select().from(members).where(eq(members.id, id));
      const record = row?.onboarding as OnboardingRecord;
      const offer = (step.context === 'app' ? 'file_fee' : record.selectedPlanId) as OfferId;
      const amount = expectedAmountCents(offer, { couponApplied: step.context === 'app' && record.couponApplied });
      const csid = `cs_test_${step.context}_${id.slice(0, 8)}`;
      body.csid = csid;
      await product.database.db.insert(checkoutSessions).values({
        id: csid,
        memberId: id,
        offerId: offer,
        amountTotal: amount,
        currency: 'eur',
        status: 'complete',
        paymentStatus: 'paid',
        customerEmail: email,
      });
      await product.database.db.insert(webhookEvents).values({
        provider: 'stripe',
        id: `evt_${csid}`,
        type: 'checkout.session.completed',
        payload: {
          data: { object: { id: csid, customer_details: { email, name: `${person.firstName} ${person.lastName}`, phone: person.phone } } },
        },
      });
    }
    if (step.context === 'sub_date') {
      // Signed with the one-time code sent by e-mail (decision 109).
      await signContract({ agent, email });
    } else if (step.sender === 'member') {
      const answer = await agent.post('/api/v1/user/update', body);
      expect(answer.status, step.context).toBe(200);
    } else {
      await applyOnboardingUpdate(product.database.db, body, {
        actor: { id: null, role: 'staff' },
        callerMemberId: null,
        now: clock.now(),
        verifyPayment: verifyRecordedPayment,
      });
    }
  }
  // A meeting, a message from the team, mails, a contact form message and rate-limit buckets.
  await product.database.db.insert(bookings).values({
    inviteeUri: `https://api.calendly.com/invitees/${id}`,
    memberId: id,
    eventUri: 'https://api.calendly.com/scheduled_events/x',
    startTime: clock.now(),
    endTime: new Date(clock.now().getTime() + 15 * 60_000),
    status: 'active',
    inviteeEmail: email,
    inviteeName: `${person.firstName} ${person.lastName}`,
    cancelUrl: `https://calendly.com/cancellations/${id}`,
  });
  await product.database.db.execute(
    sql`INSERT INTO direct_messages (member_id, subject, body) VALUES (${id}, ${`Bonjour ${person.firstName}`}, ${`Chère ${person.firstName} ${person.lastName}, voici une proposition.`})`,
  );
  const contact = await agent.post('/api/v1/contact', {
    name: `${person.firstName} ${person.lastName}`,
    email,
    subject: 'Mon inscription',
    message: `Bonjour, je suis ${person.firstName}, mon numéro est ${person.phoneRaw}.`,
    consent: true,
  });
  expect(contact.status).toBe(201);
  await product.database.db.insert(mailbox).values({
    fromAddress: 'contact@union-sincere.localhost',
    toAddress: email,
    subject: 'Bienvenue',
    textBody: `Bonjour ${person.firstName}`,
    raw: `To: ${email}`,
  });
  await product.database.db
    .insert(rateLimits)
    .values({ key: `signin-account:${email}`, points: 1, expire: new Date(clock.now().getTime() + 60_000) });
  return member;
}

/** Every text, varchar and jsonb column of every table of the database, with the needles found in it. */
async function findEverywhere(database: Database, needles: string[]): Promise<string[]> {
  const columns = (
    (await database.db.execute(
      sql`SELECT table_schema AS s, table_name AS t, column_name AS c FROM information_schema.columns
          WHERE table_schema IN ('public', 'embedded_auth') AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'USER-DEFINED')`,
    )) as unknown as { rows: { s: string; t: string; c: string }[] }
  ).rows;
  const found: string[] = [];
  for (const { s, t, c } of columns) {
    for (const needle of needles) {
      const result = (await database.db.execute(
        sql.raw(
          `SELECT count(*)::int AS n FROM "${s}"."${t}" WHERE position(lower('${needle.replaceAll("'", "''")}') in lower("${c}"::text)) > 0`,
        ),
      )) as unknown as { rows: { n: number }[] };
      if ((result.rows[0]?.n ?? 0) > 0) found.push(`${s}.${t}.${c} ∋ ${needle}`);
    }
  }
  return found;
}

const needlesOf = (m: TestMember) => [m.email, m.firstName, m.lastName, m.phone, m.phoneRaw, m.address];

/**
 * Staff follow up every lead of the member in the leads inbox (her pre-registration, her contact
 * messages): status, follow-up date, and a note that names her. Returns the leads' ids.
 */
async function followUpLeads(member: TestMember, staff: { agent: TestAgent }, note: string): Promise<string[]> {
  const { items } = await staff.agent.json<{ items: { id: string; kind: string }[] }>(
    staff.agent.get(`/api/v1/dashboard/leads?q=${encodeURIComponent(member.email)}`),
  );
  expect(items.length).toBeGreaterThan(0);
  for (const item of items) {
    // A pre-registration that became an account stays « Converti »; a contact message is « Contacté ».
    const change = item.kind === 'contact' ? { status: 'contacte', followUpOn: '2027-01-04' } : { followUpOn: '2027-01-04' };
    const changed = await staff.agent.request('PATCH', `/api/v1/dashboard/leads/${item.id}`, change);
    expect(changed.status).toBe(200);
    expect((await staff.agent.post(`/api/v1/dashboard/leads/${item.id}/notes`, { body: note })).status).toBe(201);
    // And answers the contact message by mail (decision 211): the answer is hers too.
    if (item.kind === 'contact')
      expect((await staff.agent.post(`/api/v1/dashboard/leads/${item.id}/answers`, { subject: 'Votre message', body: note })).status).toBe(
        201,
      );
  }
  return items.map((i) => i.id);
}

let amina: TestMember;
let khadija: TestMember;
beforeAll(async () => {
  amina = await activeMember(AMINA, true);
  khadija = await activeMember(KHADIJA, false);
}, 60_000);

describe('consents are records', () => {
  it('records each consent where it is given, with its version and the hash of its text', async () => {
    const rows = await product.database.db.select().from(consents).where(eq(consents.memberId, amina.id));
    expect(rows.map((r) => r.kind).sort()).toEqual(['contract_terms', 'early_start', 'sensitive_data']);
    for (const row of rows) {
      expect(row.given).toBe(true);
      expect(row.textHash).toBe(consentTextHash(row.kind));
    }
    // Khadija did not ask to start early: no early_start record.
    const hers = await product.database.db.select().from(consents).where(eq(consents.memberId, khadija.id));
    expect(hers.map((r) => r.kind).sort()).toEqual(['contract_terms', 'sensitive_data']);
    // The privacy policy at pre-registration, linked through the pre-registration's id.
    const list = await amina.agent.json<{
      consents: { kind: string; given: boolean; withdrawable: boolean }[];
      matchmaking: { paused: boolean };
    }>(amina.agent.get('/api/v1/user/consents'));
    expect(list.consents.map((c) => c.kind).sort()).toEqual(['contract_terms', 'early_start', 'privacy_policy', 'sensitive_data']);
    expect(list.consents.find((c) => c.kind === 'sensitive_data')?.withdrawable).toBe(true);
    expect(list.matchmaking.paused).toBe(false);
  });

  it('withdrawing the sensitive-data consent is one request, removes the practice answers and pauses matchmaking', async () => {
    const refused = await khadija.agent.post('/api/v1/user/consents/withdraw', { kind: 'contract_terms' });
    expect(refused.status).toBe(409);
    const answer = await khadija.agent.post('/api/v1/user/consents/withdraw', { kind: 'sensitive_data' });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { matchmaking: { paused: boolean; message: string } };
    expect(body.matchmaking.paused).toBe(true);
    expect(body.matchmaking.message).toMatch(/suspendue/);
    const [row] = await product.database.db.select().from(members).where(eq(members.id, khadija.id));
    expect(row?.profile).not.toHaveProperty('prayerPractice');
    expect(row?.profile).not.toHaveProperty('practiceDetails');
    expect(row?.questionnaire).not.toHaveProperty('soughtPractice');
    expect(row?.profile).toHaveProperty('firstName', KHADIJA.firstName);
    const [privacy] = await product.database.db.select().from(memberPrivacy).where(eq(memberPrivacy.id, khadija.id));
    expect(privacy?.matchmakingPausedAt).toBeInstanceOf(Date);
    const list = await khadija.agent.json<{ consents: { kind: string; given: boolean }[]; matchmaking: { paused: boolean } }>(
      khadija.agent.get('/api/v1/user/consents'),
    );
    expect(list.consents.find((c) => c.kind === 'sensitive_data')?.given).toBe(false);
    expect(list.matchmaking.paused).toBe(true);
    const again = await khadija.agent.post('/api/v1/user/consents/withdraw', { kind: 'sensitive_data' });
    expect(again.status).toBe(409);
  });
});

describe('signed contract copy', () => {
  it('is stored at signature and downloadable again by the member and by staff only', async () => {
    const copies = await product.database.db.select().from(contractCopies).where(eq(contractCopies.memberId, amina.id));
    expect(copies).toHaveLength(1);
    const mine = await amina.agent.get('/api/v1/user/contract/signed.pdf');
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await mine.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    expect(Buffer.from(bytes).equals(Buffer.from(copies[0]?.pdf ?? []))).toBe(true);

    expect((await khadija.agent.get(`/api/v1/dashboard/members/${amina.id}/contract.pdf`)).status).toBe(403);
    expect((await product.agent().get(`/api/v1/dashboard/members/${amina.id}/contract.pdf`)).status).toBe(401);
    const aal1 = await signInStaff(product);
    expect((await aal1.agent.get(`/api/v1/dashboard/members/${amina.id}/contract.pdf`)).status).toBe(403);
    const staff = await staffAtAal2();
    const theirs = await staff.agent.get(`/api/v1/dashboard/members/${amina.id}/contract.pdf`);
    expect(theirs.status).toBe(200);
    expect(Buffer.from(await theirs.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('export', () => {
  it('contains everything about the member and nothing about anyone else', async () => {
    const staff = await staffAtAal2();
    await followUpLeads(amina, staff, `Rappelé ${AMINA.firstName} au ${AMINA.phoneRaw} : rappeler en janvier.`);
    await followUpLeads(khadija, staff, `Note sur ${KHADIJA.firstName}.`);
    const response = await amina.agent.get('/api/v1/user/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="union-sincere-mes-donnees-.*\.json"$/);
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: the export is checked field by field
    const data = JSON.parse(text) as Record<string, any>;
    expect(data.account.id).toBe(amina.id);
    expect(data.account.email).toBe(amina.email);
    expect(data.account.auth.email).toBe(amina.email);
    expect(data.profile.firstName).toBe(AMINA.firstName);
    expect(data.profile.prayerPractice).toBe('cinq-prieres');
    expect(data.questionnaire.soughtRegions).toContain('ile-de-france');
    expect(data.contract.fullName).toBe(`${AMINA.firstName} ${AMINA.lastName}`);
    expect(data.plan.id).toBe('plan_serenity_month');
    expect(data.payments.map((p: { offerId: string }) => p.offerId).sort()).toEqual(['file_fee', 'plan_serenity_month']);
    expect(data.meetings).toHaveLength(1);
    expect(data.messages).toHaveLength(1);
    expect(data.messages[0].body).toContain(AMINA.firstName);
    expect(data.consents.map((c: { kind: string }) => c.kind)).toContain('privacy_policy');
    expect(data.preRegistrations).toHaveLength(1);
    // The leads inbox (decision 155): her contact message and staff's follow-up of each lead, in French, staff not named.
    const followUp = {
      status: 'Converti',
      followUpOn: '2027-01-04',
      notes: [
        { text: `Rappelé ${AMINA.firstName} au ${AMINA.phoneRaw} : rappeler en janvier.`, writtenAt: expect.any(String), by: 'l’équipe' },
      ],
    };
    expect(data.preRegistrations[0]).toMatchObject({ city: 'Lyon', followUp });
    followUp.status = 'Contacté';
    expect(data.preRegistrations[0].id).toBeUndefined();
    expect(data.contactMessages).toEqual([
      {
        name: `${AMINA.firstName} ${AMINA.lastName}`,
        email: amina.email,
        subject: 'Mon inscription',
        message: `Bonjour, je suis ${AMINA.firstName}, mon numéro est ${AMINA.phoneRaw}.`,
        sentAt: expect.any(String),
        // The answer mailed from the inbox (decision 211) is hers too.
        followUp: {
          ...followUp,
          answers: [
            {
              subject: 'Votre message',
              text: `Rappelé ${AMINA.firstName} au ${AMINA.phoneRaw} : rappeler en janvier.`,
              sentAt: expect.any(String),
            },
          ],
        },
      },
    ]);
    expect(data.signedContracts).toHaveLength(1);
    const events = await product.database.db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, amina.id));
    expect(data.eventLog).toHaveLength(events.length);
    for (const needle of [...needlesOf(khadija), khadija.id]) expect(text.toLowerCase()).not.toContain(needle.toLowerCase());
    // Staff who acted are never named.
    const staffIds = events.map((e) => e.actorId).filter((a): a is string => a !== null && a !== amina.id);
    for (const staffId of staffIds) expect(text).not.toContain(staffId);
  });

  it('needs a signed-in member', async () => {
    expect((await product.agent().get('/api/v1/user/export')).status).toBe(401);
  });
});

describe('retention job', () => {
  it('purges what the privacy policy says, when it says, with a controllable clock', async () => {
    const db = product.database.db;
    const resume = clock.now();
    const t0 = new Date(resume.getTime() + 86_400_000);
    const old = new Date(t0.getTime() - 1000);
    await db.insert(preSubscriptions).values([
      {
        gender: 'homme',
        email: 'jamais.inscrit@example.fr',
        age: 40,
        zipCode: '75011',
        city: 'Paris',
        consentVersion: 'x',
        createdAt: old,
      },
      { gender: 'femme', email: amina.email, age: 33, zipCode: '69003', city: 'Lyon', consentVersion: 'x', createdAt: old },
    ]);
    const [neverConverted] = await db.select().from(preSubscriptions).where(eq(preSubscriptions.email, 'jamais.inscrit@example.fr'));
    await db.insert(consents).values({
      anonymousId: neverConverted?.id,
      kind: 'privacy_policy',
      version: 'x',
      textHash: 'a'.repeat(64),
      given: true,
      createdAt: old,
    });
    await db.insert(mailOutbox).values([
      { toAddress: 'a@example.fr', subject: 'envoyé', textBody: 'x', kind: 'test', status: 'sent', createdAt: old, sentAt: old },
      { toAddress: 'b@example.fr', subject: 'en attente', textBody: 'x', kind: 'test', status: 'pending', createdAt: old },
      { toAddress: 'c@example.fr', subject: 'abandonné', textBody: 'x', kind: 'test', status: 'dropped', createdAt: old },
    ]);
    await db
      .insert(mailbox)
      .values({ fromAddress: 'x@example.fr', toAddress: 'y@example.fr', subject: 'vieux', textBody: 'x', raw: 'x', receivedAt: old });
    await db.insert(rateLimits).values([
      { key: 'retention:expired', points: 3, expire: new Date(t0.getTime() + 60_000) },
      { key: 'retention:forever', points: 3, expire: null },
    ]);
    await db.insert(consentRecords).values({
      anonymousId: '00000000-0000-4000-8000-000000000001',
      version: 'v',
      choices: { functional: true, statistic: false, marketing: false, unclassified: false },
      createdAt: old,
    });
    await db
      .insert(webhookEvents)
      .values({ provider: 'stripe', id: 'evt_retention_old', type: 't', payload: { email: 'z@example.fr' }, receivedAt: old });

    const count = async (table: PgTable, where: ReturnType<typeof sql>) =>
      ((await db.execute(sql`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`)) as unknown as { rows: { n: number }[] }).rows[0]?.n;

    // 11 months later: nothing is due yet (except the rate-limit bucket, expired since).
    clock.set(new Date(t0.getTime() + 11 * 30 * 86_400_000));
    let report = await runRetention({ db, clock });
    expect(report.preSubscriptions).toBe(0);
    expect(report.mailOutbox).toBe(0);
    expect(report.mailbox).toBe(0);
    expect(report.cookieProofs).toBe(0);
    expect(await count(rateLimits, sql`key = 'retention:expired'`)).toBe(0);
    expect(await count(rateLimits, sql`key = 'retention:forever'`)).toBe(1);

    // 12 months and a day later.
    clock.set(new Date(t0.getTime() + 366 * 86_400_000));
    report = await runRetention({ db, clock });
    expect(report.preSubscriptions).toBeGreaterThanOrEqual(1);
    expect(await count(preSubscriptions, sql`email = 'jamais.inscrit@example.fr'`)).toBe(0);
    expect(await count(consents, sql`anonymous_id = ${neverConverted?.id}`)).toBe(0);
    // Converted (an account exists with this address): kept with the member's data.
    expect(await count(preSubscriptions, sql`lower(email) = lower(${amina.email})`)).toBeGreaterThanOrEqual(1);
    expect(await count(mailOutbox, sql`subject = 'envoyé'`)).toBe(0);
    expect(await count(mailOutbox, sql`subject = 'abandonné'`)).toBe(0);
    expect(await count(mailOutbox, sql`subject = 'en attente'`)).toBe(1);
    expect(await count(mailbox, sql`subject = 'vieux'`)).toBe(0);
    expect(await count(consentRecords, sql`anonymous_id = '00000000-0000-4000-8000-000000000001'`)).toBe(0);
    const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, 'evt_retention_old'));
    expect(event?.payload).toEqual({ erased: true });
    // Both contracts (12 months) are over: practice and search criteria leave the active record.
    expect(report.contractsEnded).toBe(2);
    const [ended] = await db.select().from(members).where(eq(members.id, amina.id));
    expect(ended?.questionnaire).toBeNull();
    expect(ended?.profile).not.toHaveProperty('prayerPractice');
    expect(ended?.profile).toHaveProperty('lastName', AMINA.lastName);
    expect(report.membersErased).toBe(0);
    clock.set(resume);
  });

  it('erases a member 3 years after their last activity when they never signed a contract', async () => {
    const db = product.database.db;
    const resume = clock.now();
    const agent = product.agent();
    const email = `sans.contrat.${Date.now()}@example.fr`;
    expect((await signUp(agent, { context: 'init', email, role: 'homme', password: 'bismillah-2026' })).status).toBe(201);
    const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
    // The sign-up's mails are delivered long before three years pass (the dispatcher may be
    // mid-delivery now: a mail landing in the mailbox after the erasure would be left behind).
    await product.flushMail();

    clock.set(new Date(resume.getTime() + 35 * 30 * 86_400_000));
    expect((await runRetention({ db, clock, auth: product.auth })).membersErased).toBe(0);
    clock.set(new Date(resume.getTime() + 37 * 31 * 86_400_000));
    const report = await runRetention({ db, clock, auth: product.auth });
    expect(report.membersErased).toBe(1);
    const [row] = await db.select().from(members).where(eq(members.id, id));
    expect(row?.email).not.toBe(email);
    const [log] = await db.select().from(erasureLog).where(eq(erasureLog.memberId, id));
    expect(log).toMatchObject({ requestedBy: 'retention', summary: expect.objectContaining({ authUser: 1 }) });
    expect((await adminClient(product.auth).auth.admin.getUserById(id)).data.user).toBeNull();
    expect(await findEverywhere(product.database, [email])).toEqual([]);
    // The members with a contract are not due yet (contract end + 3 years).
    const [still] = await db.select().from(memberPrivacy).where(eq(memberPrivacy.id, khadija.id));
    expect(still?.erasedAt).toBeNull();
    clock.set(resume);
  });
});

describe('erasure', () => {
  let aminaLeads: string[] = [];
  // The retention run above, a year ahead by the clock, ended her idle session; an ended session
  // is refused at once (decision 100): she signs in again.
  beforeAll(async () => {
    expect((await amina.agent.post('/api/v1/auth/signin', { email: amina.email, password: 'bismillah-2026' })).status).toBe(200);
    // A contact message sent since the retention run (which purged the first, 12 months old), followed up by staff.
    const contact = await amina.agent.post('/api/v1/contact', {
      name: `${AMINA.firstName} ${AMINA.lastName}`,
      email: amina.email,
      subject: 'Ma demande',
      message: `Je m’appelle ${AMINA.lastName}, habitant ${AMINA.address}.`,
      consent: true,
    });
    expect(contact.status).toBe(201);
    // Her leads: this message and her pre-registrations (the retention test made a second one).
    aminaLeads = await followUpLeads(amina, await staffAtAal2(), `Échange avec ${AMINA.firstName} ${AMINA.lastName}.`);
    expect(aminaLeads.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a re-typed address that does not match', async () => {
    const answer = await amina.agent.post('/api/v1/user/erase', { email: khadija.email });
    expect(answer.status).toBe(400);
    const [row] = await product.database.db.select().from(members).where(eq(members.id, amina.id));
    expect(row?.email).toBe(amina.email);
  });

  // Two scans of every text and jsonb column of every table: longer than the suite's 30 s on a loaded host.
  it('leaves no personal data in any table nor in the auth store, keeps the legal records, ends the sessions', async () => {
    const db = product.database.db;
    const before = await findEverywhere(product.database, needlesOf(amina));
    expect(before.length).toBeGreaterThan(5);
    const second = product.agent();
    expect((await second.post('/api/v1/auth/signin', { email: amina.email, password: 'bismillah-2026' })).status).toBe(200);

    // The mails already queued about her delivered first: one still in flight when she asks would
    // reach the local mailbox after the erasure emptied it (as it would reach her real inbox).
    await product.flushMail();
    const answer = await amina.agent.post('/api/v1/user/erase', { email: amina.email.toUpperCase() });
    expect(answer.status).toBe(200);
    // Cookies cleared in this browser, the other session refused.
    expect([...amina.agent.cookies.keys()].filter((k) => k.startsWith('sb-'))).toEqual([]);
    expect((await amina.agent.get('/api/v1/user/settings')).status).toBe(401);
    expect((await second.get('/api/v1/user/settings')).status).toBe(401);

    // Nothing of her anywhere: every text and jsonb column of every table, auth schema included.
    expect(await findEverywhere(product.database, needlesOf(amina))).toEqual([]);
    // …while the other member's data is untouched (the scan does find data when it is there).
    expect((await findEverywhere(product.database, [khadija.email, KHADIJA.lastName])).length).toBeGreaterThan(3);

    const { data, error } = await adminClient(product.auth).auth.admin.getUserById(amina.id);
    expect(data.user).toBeNull();
    expect(error?.status).toBe(404);

    // The anonymised member row keeps its id; the answers are gone.
    const [row] = await db.select().from(members).where(eq(members.id, amina.id));
    expect(row).toMatchObject({ profile: null, questionnaire: null, contract: null, disabled: true });
    const [privacy] = await db.select().from(memberPrivacy).where(eq(memberPrivacy.id, amina.id));
    expect(privacy?.erasedAt).toBeInstanceOf(Date);
    // Event log: every row still there, payloads replaced.
    const events = await db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, amina.id));
    expect(events.length).toBeGreaterThan(10);
    for (const e of events) expect(e.payload).toMatchObject({ erased: true });
    // Consents kept as anonymous proofs.
    expect(await db.select().from(consents).where(eq(consents.memberId, amina.id))).toEqual([]);
    // Bookings kept without who.
    const [booking] = await db.select().from(bookings).where(eq(bookings.memberId, amina.id));
    expect(booking).toMatchObject({ inviteeEmail: null, inviteeName: null, status: 'active' });

    // Legal records: the signed contract and both payments, with their legal basis, for 10 years.
    const kept = await db.select().from(legalRecords).where(eq(legalRecords.memberId, amina.id));
    expect(kept.map((k) => k.kind).sort()).toEqual(['contract', 'payment', 'payment']);
    for (const k of kept) {
      expect(k.legalBasis).toMatch(/L123\u201122/);
      expect(k.retainUntil.getUTCFullYear()).toBe(k.occurredAt.getUTCFullYear() + 10);
    }
    expect(kept.find((k) => k.kind === 'contract')?.document?.length).toBeGreaterThan(1000);
    // The leads inbox (decision 155): her contact message, and staff's follow-up, notes and history of both her leads.
    for (const table of ['lead_follow_ups', 'lead_notes', 'lead_events', 'lead_answers']) {
      const left = (await db.execute(
        sql.raw(`SELECT count(*)::int AS n FROM ${table} WHERE lead_id IN (${aminaLeads.map((id) => `'${id}'`).join(', ')})`),
      )) as unknown as { rows: { n: number }[] };
      expect(left.rows[0]?.n, table).toBe(0);
    }
    const [log] = await db.select().from(erasureLog).where(eq(erasureLog.memberId, amina.id));
    expect(log).toMatchObject({
      requestedBy: 'member',
      summary: expect.objectContaining({
        authUser: 1,
        onboarding_events: events.length,
        contact_messages: 1,
        lead_follow_ups: aminaLeads.length,
        lead_answers: 1,
      }),
    });

    // Signing in again is impossible (this attempt itself opens a short rate-limit bucket, purged by the retention job).
    expect((await second.post('/api/v1/auth/signin', { email: amina.email, password: 'bismillah-2026' })).status).toBeGreaterThanOrEqual(
      400,
    );

    // Staff can still obtain the kept contract.
    const staff = await staffAtAal2();
    expect((await staff.agent.get(`/api/v1/dashboard/members/${amina.id}/contract.pdf`)).status).toBe(200);
  }, 60_000);

  it('keeps the event log append-only outside an erasure', async () => {
    const failure = async (run: () => Promise<unknown>) => {
      try {
        await run();
        return 'no error';
      } catch (error) {
        const cause = (error as { cause?: { message?: string } }).cause;
        return `${(error as Error).message} ${cause?.message ?? ''}`;
      }
    };
    expect(
      await failure(() =>
        product.database.db.execute(sql`UPDATE onboarding_events SET payload = '{"erased": true}'::jsonb WHERE member_id = ${khadija.id}`),
      ),
    ).toMatch(/append-only/);
    // Declaring another member's erasure does not open this member's rows either.
    expect(
      await failure(() =>
        product.database.db.transaction(async (tx) => {
          await tx.execute(sql`SELECT set_config('app.erasure_member', ${amina.id}, true)`);
          await tx.execute(sql`UPDATE onboarding_events SET payload = '{"erased": true}'::jsonb WHERE member_id = ${khadija.id}`);
        }),
      ),
    ).toMatch(/append-only/);
  });
});
