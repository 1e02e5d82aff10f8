import { createHmac, randomUUID } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { PDFDocument, PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import { members, onboardingEvents } from '#bff/db/schema.ts';
import { applyOnboardingUpdate } from '#bff/onboarding/apply-update.ts';
import { verifyRecordedPayment } from '#bff/payments/verify-payment.ts';
import { CALENDLY_STAND_IN_KEY, standInSecret } from '#bff/db/stand-in-secrets.ts';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { startTestProduct, TEST_SITE, type TestAgent } from '#tests/support/test-product.ts';
import { signContract } from '#tests/support/contract-signature.ts';
import { signUp } from '#tests/support/sign-up.ts';

const DAY = 24 * 60 * 60 * 1000;
const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let signingKey: string;
beforeAll(async () => {
  product = await startTestProduct({ clock });
  signingKey = await standInSecret(product.database.db, CALENDLY_STAND_IN_KEY, '');
});
afterAll(() => product.stop());

type Member = { agent: TestAgent; id: string; email: string; gender: 'femme' };
let n = 0;
async function newMember(): Promise<Member> {
  n += 1;
  const agent = product.agent();
  const email = `rdv.${n}.${Date.now()}@example.fr`;
  expect((await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' })).status).toBe(201);
  const settings = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  return { agent, id: settings.id, email, gender: 'femme' };
}

/** What `POST /api/v1/user/update` answers: the settings with the state, or the error shape. */
type ApiAnswer = { state?: string; error: { code: string; message: string } };

async function send(agent: TestAgent, body: unknown) {
  const response = await agent.post('/api/v1/user/update', body);
  return { status: response.status, body: (await response.json()) as ApiAnswer };
}

async function state(member: Member): Promise<string> {
  return (await member.agent.json<{ state: string }>(member.agent.get('/api/v1/user/settings'))).state;
}

/** Steps 1-4 (nothing is paid before the contract: decision 105): the member is on `prendre-un-rendez-vous`. */
async function toBooking(member: Member) {
  const sample = samplePayloads(member, clock.now().getTime());
  for (const body of [sample.profil, sample.questionnaire, sample.form_per_inf, sample.sel_plan, sample.pre_contract_ok]) {
    const answer = await send(member.agent, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }
  expect(await state(member)).toBe('prendre-un-rendez-vous.choix-creneau');
}

/** An invitee webhook body in Calendly's shape (integrations reference §2). */
function inviteeEvent(
  event: 'invitee.created' | 'invitee.canceled',
  invitee: { uuid: string; eventUuid: string; start: Date; memberId: string | null; email?: string; bookedAt?: Date },
  extra: Record<string, unknown> = {},
) {
  const eventUri = `https://api.calendly.com/scheduled_events/${invitee.eventUuid}`;
  return {
    event,
    created_at: clock.now().toISOString(),
    created_by: 'https://api.calendly.com/users/AGENCE',
    payload: {
      uri: `${eventUri}/invitees/${invitee.uuid}`,
      email: invitee.email ?? 'amina@example.fr',
      name: 'Amina Benali',
      status: event === 'invitee.created' ? 'active' : 'canceled',
      timezone: 'Europe/Paris',
      scheduled_event: {
        uri: eventUri,
        name: 'Entretien découverte (15 min)',
        start_time: invitee.start.toISOString(),
        end_time: new Date(invitee.start.getTime() + 15 * 60_000).toISOString(),
      },
      tracking: {
        utm_campaign: null,
        utm_source: null,
        utm_medium: null,
        utm_content: invitee.memberId,
        utm_term: null,
        salesforce_uuid: null,
      },
      cancel_url: `https://calendly.com/cancellations/${invitee.uuid}`,
      reschedule_url: `https://calendly.com/reschedulings/${invitee.uuid}`,
      rescheduled: false,
      questions_and_answers: [],
      created_at: (invitee.bookedAt ?? clock.now()).toISOString(),
      updated_at: clock.now().toISOString(),
      ...extra,
    },
  };
}

function signature(body: string, key = signingKey, t = Math.floor(clock.now().getTime() / 1000)) {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

async function deliver(event: unknown, header?: string | null) {
  const body = JSON.stringify(event);
  const value = header === undefined ? signature(body) : header;
  return product.app.request(`${TEST_SITE}/api/v1/webhooks/calendly`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(value === null ? {} : { 'Calendly-Webhook-Signature': value }) },
    body,
  });
}

const slot = (days: number, hours = 9) => new Date(Math.floor(clock.now().getTime() / DAY) * DAY + days * DAY + hours * 3600_000);
const booking = (member: Member, start: Date, bookedAt?: Date) => ({
  uuid: randomUUID(),
  eventUuid: randomUUID(),
  start,
  memberId: member.id,
  bookedAt,
});

async function bookingRows(member: Member) {
  return product.database.db.select().from(bookings).where(eq(bookings.memberId, member.id));
}

async function eventsOf(member: Member) {
  return product.database.db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, member.id));
}

describe('GET /api/v1/user/booking-link', () => {
  it('prefills the scheduling page with the member’s name, e-mail and id (utm_content), only on the booking step', async () => {
    const member = await newMember();
    expect((await member.agent.get('/api/v1/user/booking-link')).status).toBe(409);
    await toBooking(member);
    const { url, origin } = await member.agent.json<{ url: string; origin: string }>(member.agent.get('/api/v1/user/booking-link'));
    const link = new URL(url);
    expect(`${link.origin}${link.pathname}`).toBe(`${TEST_SITE}/_local/booking`);
    expect(origin).toBe(TEST_SITE);
    expect(Object.fromEntries(link.searchParams)).toEqual({
      name: 'Amina Benali',
      email: member.email,
      utm_content: member.id,
      embed_domain: 'localhost:3999',
    });
    expect((await product.agent().get('/api/v1/user/booking-link')).status).toBe(401);
  });
});

describe('POST /api/v1/webhooks/calendly', () => {
  it('accepts a valid signature: invitee.created books the meeting (onb_meet, onb_meet_resa) and moves the member on', async () => {
    const member = await newMember();
    await toBooking(member);
    const invitee = booking(member, slot(2));
    const response = await deliver(inviteeEvent('invitee.created', invitee));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      received: true,
      outcome: 'recorded',
      applied: ['onb_meet', 'onb_meet_resa'],
      refused: null,
    });
    expect(await state(member)).toBe('attente-entretien-personnalise');
    const settings = await member.agent.json<{ subscription: { onboardingMeetingDate: string } }>(
      member.agent.get('/api/v1/user/settings'),
    );
    expect(settings.subscription.onboardingMeetingDate).toBe(invitee.start.toISOString());
    const log = await eventsOf(member);
    expect(log.slice(-2).map((e) => [e.context, e.actorRole])).toEqual([
      ['onb_meet', 'system'],
      ['onb_meet_resa', 'system'],
    ]);
    const mine = await member.agent.json<{ booking: { startTime: string; cancelUrl: string } }>(member.agent.get('/api/v1/user/booking'));
    expect(mine.booking).toMatchObject({
      startTime: invitee.start.toISOString(),
      cancelUrl: `https://calendly.com/cancellations/${invitee.uuid}`,
    });

    // Duplicates are harmless.
    const before = (await eventsOf(member)).length;
    for (let i = 0; i < 3; i += 1) {
      const again = await deliver(inviteeEvent('invitee.created', invitee));
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ outcome: 'duplicate', applied: [] });
    }
    expect((await eventsOf(member)).length).toBe(before);
    expect(await bookingRows(member)).toHaveLength(1);
    // Decision 128: which meeting it is was decided and stored when first recorded.
    expect((await bookingRows(member))[0]?.kind).toBe('entretien-personnalise');
  });

  it('stores a booking made once the onboarding meeting is held as the matchmaking meeting (decision 128), and keeps the first kind', async () => {
    const member = await newMember();
    await toBooking(member);
    const first = booking(member, slot(2));
    expect((await deliver(inviteeEvent('invitee.created', first))).status).toBe(200);
    // The onboarding meeting is then held (as staff would mark it): its booking stays what it was.
    const [row] = await product.database.db.select({ onboarding: members.onboarding }).from(members).where(eq(members.id, member.id));
    await product.database.db
      .update(members)
      .set({ onboarding: { ...(row?.onboarding as Record<string, unknown>), onboardingMeetingDone: true } })
      .where(eq(members.id, member.id));
    expect((await deliver(inviteeEvent('invitee.created', first))).status).toBe(200);
    const later = booking(member, slot(20));
    expect((await deliver(inviteeEvent('invitee.created', later))).status).toBe(200);
    const kinds = new Map((await bookingRows(member)).map((b) => [b.startTime.toISOString(), b.kind]));
    expect(kinds.get(first.start.toISOString())).toBe('entretien-personnalise');
    expect(kinds.get(later.start.toISOString())).toBe('entretien-matchmaking');
  });

  it('refuses a bad, stale, future, malformed or missing signature with 400 and stores nothing', async () => {
    const member = await newMember();
    await toBooking(member);
    const event = inviteeEvent('invitee.created', booking(member, slot(2)));
    const body = JSON.stringify(event);
    const now = Math.floor(clock.now().getTime() / 1000);
    for (const header of [
      signature(body, 'not-the-signing-key'),
      signature(body, signingKey, now - 181),
      signature(body, signingKey, now + 600),
      'v1=abc',
      `t=${now},v1=zz`,
      null,
    ]) {
      const response = await deliver(event, header);
      expect(response.status, String(header)).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'INVALID_SIGNATURE' } });
    }
    // A tampered body with a signature of the original.
    const tampered = await product.app.request(`${TEST_SITE}/api/v1/webhooks/calendly`, {
      method: 'POST',
      headers: { 'Calendly-Webhook-Signature': signature(body) },
      body: body.replace('Amina', 'Eve'),
    });
    expect(tampered.status).toBe(400);
    // Still within the 180 s tolerance: accepted.
    expect(await bookingRows(member)).toHaveLength(0);
    expect(await state(member)).toBe('prendre-un-rendez-vous.choix-creneau');
    expect((await deliver(event, signature(body, signingKey, now - 170))).status).toBe(200);
  });

  it('answers 4xx to signed nonsense, 200 to other events, and records a booking without a member', async () => {
    const nonsense = '{"event":"invitee.created","payload":{"uri":42}}';
    const bad = await product.app.request(`${TEST_SITE}/api/v1/webhooks/calendly`, {
      method: 'POST',
      headers: { 'Calendly-Webhook-Signature': signature(nonsense) },
      body: nonsense,
    });
    expect(bad.status).toBe(400);
    const other = await deliver({ event: 'invitee_no_show.created', payload: {} });
    expect(await other.json()).toMatchObject({ outcome: 'ignored' });
    const stranger = await deliver(
      inviteeEvent('invitee.created', { uuid: randomUUID(), eventUuid: randomUUID(), start: slot(3), memberId: 'not-a-member' }),
    );
    expect(stranger.status).toBe(200);
    expect(await stranger.json()).toMatchObject({ outcome: 'recorded', applied: [] });
  });

  it('invitee.canceled returns the member to booking; duplicates harmless', async () => {
    const member = await newMember();
    await toBooking(member);
    const invitee = booking(member, slot(2));
    await deliver(inviteeEvent('invitee.created', invitee));
    expect(await state(member)).toBe('attente-entretien-personnalise');
    const cancel = inviteeEvent('invitee.canceled', invitee, {
      cancellation: { canceled_by: 'Amina Benali', reason: 'Empêchement', canceler_type: 'invitee' },
    });
    const response = await deliver(cancel);
    expect(await response.json()).toMatchObject({ outcome: 'recorded', applied: ['onb_meet_cancel'] });
    expect(await state(member)).toBe('prendre-un-rendez-vous.choix-creneau');
    expect(await deliver(cancel).then((r) => r.json())).toMatchObject({ outcome: 'duplicate', applied: [] });
    // A late duplicate of the creation does not book the canceled meeting again.
    expect(await deliver(inviteeEvent('invitee.created', invitee)).then((r) => r.json())).toMatchObject({
      outcome: 'duplicate',
      applied: [],
    });
    expect(await state(member)).toBe('prendre-un-rendez-vous.choix-creneau');
    const [row] = await bookingRows(member);
    expect(row?.status).toBe('canceled');
  });

  it('is order-tolerant: a reschedule whose new booking arrives before the old one’s cancellation, and a cancel before its create', async () => {
    const member = await newMember();
    await toBooking(member);
    const first = booking(member, slot(2), new Date(clock.now().getTime() - 60_000));
    const second = booking(member, slot(3), clock.now());
    await deliver(inviteeEvent('invitee.created', first));
    // Reschedule: the new invitee first, then the old one's cancellation (rescheduled: true).
    expect(await deliver(inviteeEvent('invitee.created', second)).then((r) => r.json())).toMatchObject({
      applied: ['onb_meet_cancel', 'onb_meet', 'onb_meet_resa'],
    });
    expect(await deliver(inviteeEvent('invitee.canceled', first, { rescheduled: true })).then((r) => r.json())).toMatchObject({
      applied: [],
    });
    const settings = await member.agent.json<{ state: string; subscription: { onboardingMeetingDate: string } }>(
      member.agent.get('/api/v1/user/settings'),
    );
    expect(settings.state).toBe('attente-entretien-personnalise');
    expect(settings.subscription.onboardingMeetingDate).toBe(second.start.toISOString());

    // Its cancellation arrives before its creation: nothing is booked.
    const other = await newMember();
    await toBooking(other);
    const third = booking(other, slot(4));
    await deliver(inviteeEvent('invitee.canceled', third));
    expect(await deliver(inviteeEvent('invitee.created', third)).then((r) => r.json())).toMatchObject({ outcome: 'recorded', applied: [] });
    expect(await state(other)).toBe('prendre-un-rendez-vous.choix-creneau');
    const [row] = await bookingRows(other);
    expect(row?.status).toBe('canceled');
  });

  it('logs a refusal by the chart and still answers 200 (a booking for a member who is not on the booking step)', async () => {
    const member = await newMember();
    const response = await deliver(inviteeEvent('invitee.created', booking(member, slot(2))));
    expect(response.status).toBe(200);
    expect(await state(member)).toBe('profil');
    expect(await eventsOf(member)).toHaveLength(0);
  });
});

describe('embedded scheduling stand-in', () => {
  it('books over HTTP: page with slots, signed invitee.created, confirmation that messages the embedding page; then cancels', async () => {
    const member = await newMember();
    await toBooking(member);
    const { url } = await member.agent.json<{ url: string }>(member.agent.get('/api/v1/user/booking-link'));
    const link = new URL(url);
    const page = await member.agent.get(`${link.pathname}${link.search}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    const html = await page.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('value="Amina Benali"');
    expect(html).toContain('<script src="/_local/booking.js" defer></script>');
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    const starts = [...html.matchAll(/name="start" value="([^"]+)"/g)].map((m) => m[1] as string);
    expect(starts.length).toBeGreaterThanOrEqual(8);
    expect(new Date(starts[0] as string).getTime()).toBeGreaterThan(clock.now().getTime());

    const form = new URLSearchParams({
      start: starts[1] as string,
      name: 'Amina Benali',
      email: member.email,
      utm_content: link.searchParams.get('utm_content') ?? '',
      embed_domain: link.searchParams.get('embed_domain') ?? '',
      reschedule: '',
    });
    const booked = await member.agent.request('POST', '/_local/booking', form.toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      origin: TEST_SITE,
    });
    expect(booked.status).toBe(303);
    expect(await state(member)).toBe('attente-entretien-personnalise');
    const confirmation = await member.agent.get(booked.headers.get('location') ?? '');
    const confirmationHtml = await confirmation.text();
    expect(confirmationHtml).toContain('data-page="scheduled"');
    expect(confirmationHtml).toContain(`data-target-origin="${TEST_SITE}"`);
    expect(confirmationHtml).toMatch(/data-event-uri="[^"]+\/scheduled_events\/[0-9a-f-]+"/);
    expect(confirmationHtml).toMatch(/data-invitee-uri="[^"]+\/invitees\/[0-9a-f-]+"/);
    const script = await member.agent.get('/_local/booking.js');
    expect(script.headers.get('content-type')).toContain('javascript');
    const scriptText = await script.text();
    expect(scriptText).toContain("event: 'calendly.event_scheduled'");
    expect(scriptText).toContain('postMessage(message, origin)');

    const [row] = await bookingRows(member);
    expect(row).toMatchObject({ status: 'active', inviteeEmail: member.email, startTime: new Date(starts[1] as string) });
    // Cancel through the link Calendly would mail.
    const cancelUrl = new URL(row?.cancelUrl ?? '');
    expect((await member.agent.get(cancelUrl.pathname)).status).toBe(200);
    const canceled = await member.agent.request('POST', cancelUrl.pathname, 'reason=Emp%C3%AAchement', {
      'content-type': 'application/x-www-form-urlencoded',
      origin: TEST_SITE,
    });
    expect(canceled.status).toBe(200);
    expect(await state(member)).toBe('prendre-un-rendez-vous.choix-creneau');
  });

  it('reschedules through the reschedule link: the old booking is canceled and the new one booked', async () => {
    const member = await newMember();
    await toBooking(member);
    const { url } = await member.agent.json<{ url: string }>(member.agent.get('/api/v1/user/booking-link'));
    const link = new URL(url);
    const html = await (await member.agent.get(`${link.pathname}${link.search}`)).text();
    const starts = [...html.matchAll(/name="start" value="([^"]+)"/g)].map((m) => m[1] as string);
    const post = (body: Record<string, string>) =>
      member.agent.request('POST', '/_local/booking', new URLSearchParams(body).toString(), {
        'content-type': 'application/x-www-form-urlencoded',
      });
    expect((await post({ start: starts[0] as string, name: 'Amina Benali', email: member.email, utm_content: member.id })).status).toBe(
      303,
    );
    const [first] = await bookingRows(member);
    const reschedule = await member.agent.get(new URL(first?.rescheduleUrl ?? '').pathname);
    expect(reschedule.status).toBe(303);
    const token = new URL(reschedule.headers.get('location') ?? '', TEST_SITE).searchParams.get('reschedule') ?? '';
    expect(
      (await post({ start: starts[5] as string, name: 'Amina Benali', email: member.email, utm_content: member.id, reschedule: token }))
        .status,
    ).toBe(303);
    const rows = await bookingRows(member);
    expect(rows.map((r) => r.status).sort()).toEqual(['active', 'canceled']);
    const settings = await member.agent.json<{ state: string; subscription: { onboardingMeetingDate: string } }>(
      member.agent.get('/api/v1/user/settings'),
    );
    expect(settings.state).toBe('attente-entretien-personnalise');
    expect(settings.subscription.onboardingMeetingDate).toBe(new Date(starts[5] as string).toISOString());
    // An unknown slot is refused.
    expect((await post({ start: '2001-01-01T10:00:00.000Z', name: 'A', email: member.email })).status).toBe(409);
  });
});

/** WinAnsi's characters between 0x80 and 0x9F that Latin-1 lacks (the others are Latin-1's). */
const WIN_ANSI: Readonly<Record<string, string>> = {
  '\u0080': '€',
  '\u0085': '…',
  '\u0091': '‘',
  '\u0092': '’',
  '\u0096': '–',
  '\u0097': '—',
};
const winAnsi = (bytes: Buffer) => bytes.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => WIN_ANSI[c] ?? c);

/** The text drawn on the PDF's pages (pdf-lib writes WinAnsi hex strings in Flate streams). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(bytes);
  let text = '';
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const raw = Buffer.from(object.contents);
    let content: string;
    try {
      content = inflateSync(raw).toString('latin1');
    } catch {
      content = raw.toString('latin1');
    }
    for (const match of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) text += `${winAnsi(Buffer.from(match[1] as string, 'hex'))}\n`;
  }
  return text;
}

describe('GET /api/v1/user/contract.pdf', () => {
  it('401 without a session, 409 before the contract form, then the member’s copy with the L224-90 mentions and the annex', async () => {
    expect((await product.agent().get('/api/v1/user/contract.pdf')).status).toBe(401);
    const member = await newMember();
    await toBooking(member);
    const early = await member.agent.get('/api/v1/user/contract.pdf');
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ error: { code: 'CONTRACT_NOT_READY' } });

    const meeting = slot(2);
    await deliver(inviteeEvent('invitee.created', booking(member, meeting)));
    // An hour after the meeting's start (whatever the time of day the test runs: it is held only once begun).
    clock.set(new Date(meeting.getTime() + 3600_000));
    await applyOnboardingUpdate(
      product.database.db,
      { context: 'onb_meet_ok', status: true, uid: member.id },
      {
        actor: { id: null, role: 'staff' },
        callerMemberId: null,
        now: clock.now(),
        verifyPayment: verifyRecordedPayment,
      },
    );
    const sample = samplePayloads(member, clock.now().getTime());
    expect((await send(member.agent, sample.contractForm)).status).toBe(200);

    const response = await member.agent.get('/api/v1/user/contract.pdf');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain('contrat-union-sincere-amina-benali.pdf');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toContain('Amina Benali');
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(2);
    // One space for every kind of space; WinAnsi's euro sign is byte 0x80.
    const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
    for (const expected of [
      'Amina Benali',
      '12 rue de la République, 69003 Lyon',
      'Union Sincère',
      'L224-90',
      'L224-91',
      'L221-18',
      'L221-25',
      'motif légitime',
      'n’est pas reconduit tacitement',
      'durée déterminée de 12 mois',
      '85,00 € par mois pendant 12 mois',
      'renonciation de 7 jours',
      'rétractation de 14 jours',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('Annexe');
    expect(text).toContain('Tranche d’âge : de 30 à 40 ans');
    expect(text).toContain('Auvergne-Rhône-Alpes');
    expect(text).toContain('Contrat établi le');
    expect(text).toContain('Modèle de formulaire de rétractation');

    // Once signed, the copy says when it takes effect and ends.
    expect((await send(member.agent, samplePayloads(member, clock.now().getTime()).sub_date)).status).toBe(403);
    await signContract(member);
    const signed = await pdfText(new Uint8Array(await (await member.agent.get('/api/v1/user/contract.pdf')).arrayBuffer()));
    expect(signed).toContain('prend effet le');
    expect(signed).toContain('prend fin le');
    const [row] = await product.database.db
      .select()
      .from(members)
      .where(and(eq(members.id, member.id)));
    expect(row?.contract).toBeTruthy();
  });
});
