import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { accessLog } from '#bff/db/access-log-schema.ts';
import { memberPresentations } from '#bff/db/presentation-schema.ts';
import { recordConsent } from '#bff/privacy/consents.ts';
import { contactRefusal, findContactDetails } from '#machines/matching/contact-details.ts';
import { PRESENTATION_MAX_LENGTH, PRESENTATION_TOO_LONG } from '#machines/matching/presentation.ts';
import { type ActiveMember, introductionsOf, startWithActiveMembers } from '#tests/support/active-member.ts';
import type { startTestProduct, TestAgent } from '#tests/support/test-product.ts';

/**
 * The member's short presentation over HTTP (issue 22, decision 128): saved trimmed from the
 * member's own session; refused (French 400, nothing stored) when too long or carrying an e-mail
 * address or a phone number; shown to the other side only inside a proposal's summary (not once
 * the sensitive-data consent is withdrawn); to staff on the file and beside the candidates (that
 * read logged); in the export; gone with erasure.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: TestAgent;
let amina: ActiveMember;
let sarah: ActiveMember;
let youssef: ActiveMember;

const refusal = (text: string) => contactRefusal(findContactDetails(text));
const TEXT = 'Ingénieur à Lyon, j’aime la randonnée et les longues lectures. Je cherche une épouse sincère.';

type View = { id: string; other: { firstName: string | null; presentation?: string | null } | null };
const mine = (m: ActiveMember) => introductionsOf<View>(m);
const put = (m: ActiveMember, body: unknown) => m.agent.request('PUT', '/api/v1/user/presentation', body);
const stored = async (memberId: string) =>
  product.database.db.select().from(memberPresentations).where(eq(memberPresentations.memberId, memberId));

beforeAll(async () => {
  ({
    product,
    staff,
    members: [amina, sarah, youssef],
  } = await startWithActiveMembers(clock, [
    ['Amina', 'femme', 29],
    ['Sarah', 'femme', 28],
    ['Youssef', 'homme', 32],
  ]));
  await recordConsent(product.database.db, { memberId: youssef.id, kind: 'sensitive_data', given: true, at: clock.now() });
}, 120_000);
afterAll(() => product.stop());

describe('the member’s presentation', () => {
  it('refuses contact details, too long a text, other fields and bad JSON in French, and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [{ presentation: 'Écrivez-moi : youssef.b@gmail.com' }, refusal('Écrivez-moi : youssef.b@gmail.com')],
      [{ presentation: 'Appelez-moi au 06 12 34 56 78 après 18 h.' }, refusal('Appelez-moi au 06 12 34 56 78 après 18 h.')],
      [{ presentation: 'Mon numéro : +33612345678' }, refusal('Mon numéro : +33612345678')],
      // Decision 200: a network's name and a handle, a disguised address, a number read aloud.
      [
        { presentation: 'Sérieux. Insta\u00a0: @youssef.amr' },
        'un compte de réseau social (\u00ab\u00a0Insta\u00a0: @youssef.amr\u00a0\u00bb)',
      ],
      [{ presentation: 'youssef at gmail point com' }, refusal('youssef at gmail point com')],
      [{ presentation: 'zéro six douze trente-quatre cinquante-six soixante-dix-huit' }, 'un numéro de téléphone'],
      [{ presentation: 'a'.repeat(PRESENTATION_MAX_LENGTH + 1) }, PRESENTATION_TOO_LONG],
      [{ presentation: TEXT, memberId: amina.id }, 'Champ inattendu.'],
      [{ presentation: 12 }, 'Votre présentation doit être un texte.'],
    ];
    for (const [body, message] of cases) {
      const response = await put(youssef, body);
      const answer = (await response.json()) as { error: { message: string } };
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.error.message).toContain(message);
    }
    const broken = await youssef.agent.request('PUT', '/api/v1/user/presentation', '{"presentation":', {});
    expect(broken.status).toBe(400);
    expect(await stored(youssef.id)).toEqual([]);
    // Staff have no presentation of their own.
    expect((await staff.request('PUT', '/api/v1/user/presentation', { presentation: TEXT })).status).toBe(403);
  });

  it('saves it trimmed for the session’s member, reads it back, and an empty text removes it', async () => {
    const saved = await put(youssef, { presentation: `   ${TEXT}  \n` });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(((await saved.json()) as { presentation: { text: string } }).presentation.text).toBe(TEXT);
    const read = await youssef.agent.json<{ presentation: { text: string } | null }>(youssef.agent.get('/api/v1/user/presentation'));
    expect(read.presentation?.text).toBe(TEXT);
    expect((await stored(youssef.id)).map((r) => r.body)).toEqual([TEXT]);

    expect((await put(sarah, { presentation: 'Sarah, enseignante.' })).status).toBe(200);
    expect((await put(sarah, { presentation: '   ' })).status).toBe(200);
    expect(await stored(sarah.id)).toEqual([]);
    expect((await sarah.agent.json<{ presentation: null }>(sarah.agent.get('/api/v1/user/presentation'))).presentation).toBeNull();
  });

  it('is not readable by another member outside a proposal', async () => {
    // No member route takes someone else's id: the staff route refuses members.
    const refused = await amina.agent.get(`/api/v1/dashboard/members/${youssef.id}/presentation`);
    expect([401, 403]).toContain(refused.status);
    expect(await refused.text()).not.toContain('randonnée');
    // Amina's own presentation route answers hers (none), never Youssef's.
    const own = await amina.agent.json<{ presentation: unknown }>(amina.agent.get('/api/v1/user/presentation'));
    expect(own.presentation).toBeNull();
    expect(await mine(amina)).toEqual([]);
  });

  it('staff see it on the file (the file read logged) and beside the candidates, read on request and logged', async () => {
    const candidates = await staff.json<{ candidates: { memberId: string; hasPresentation: boolean; presentation?: unknown }[] }>(
      staff.get(`/api/v1/dashboard/members/${amina.id}/candidates?limit=50`),
    );
    const row = candidates.candidates.find((c) => c.memberId === youssef.id);
    expect(row?.hasPresentation).toBe(true);
    // The ranking says only that there is one: its text is not in the list.
    expect(JSON.stringify(candidates)).not.toContain('randonnée');

    const before = await product.database.db.select().from(accessLog).where(eq(accessLog.memberId, youssef.id)).orderBy(accessLog.id);
    const read = await staff.json<{ presentation: { text: string } }>(staff.get(`/api/v1/dashboard/members/${youssef.id}/presentation`));
    expect(read.presentation.text).toBe(TEXT);
    const file = await staff.json<{ presentation: { text: string } | null }>(staff.get(`/api/v1/dashboard/members/${youssef.id}`));
    expect(file.presentation?.text).toBe(TEXT);
    const after = await product.database.db.select().from(accessLog).where(eq(accessLog.memberId, youssef.id)).orderBy(accessLog.id);
    expect(after.slice(before.length).map((e) => e.resource)).toEqual(['member_presentation', 'member_file']);
    // The member sees that read in their export, in French.
    const exported = await youssef.agent.json<{ staffAccess: { resource: string }[] }>(youssef.agent.get('/api/v1/user/export'));
    expect(JSON.stringify(exported.staffAccess)).toContain('La présentation du membre');
  });

  it('waits for staff: the other side reads nothing until approved, then only the approved version (decision 200)', async () => {
    type Own = { text: string; updatedAt: string; status: string; approvedText: string | null; refusal: string | null };
    const own = async () =>
      (await youssef.agent.json<{ presentation: Own | null }>(youssef.agent.get('/api/v1/user/presentation'))).presentation;
    type Waiting = { memberId: string; name: string | null; text: string; updatedAt: string; approvedText: string | null };
    const queue = async () => (await staff.json<{ presentations: Waiting[] }>(staff.get('/api/v1/dashboard/presentations'))).presentations;
    const review = (body: unknown) => staff.post(`/api/v1/dashboard/members/${youssef.id}/presentation/review`, body);

    clock.advance(60_000);
    const proposed = await staff.post('/api/v1/dashboard/introductions', { a: amina.id, b: youssef.id });
    expect(proposed.status, await proposed.clone().text()).toBe(201);
    // Submitted, not approved: the member reads « en attente », Amina reads nothing.
    const waiting = await own();
    expect(waiting).toMatchObject({ text: TEXT, status: 'en-attente', approvedText: null, refusal: null });
    let [view] = await mine(amina);
    expect(view?.other?.firstName).toBe('Youssef');
    expect(view?.other?.presentation).toBeNull();
    expect(JSON.stringify(view)).not.toContain('randonnée');

    // The queue lists it; a decision on another version, a bad body or an unknown member changes nothing.
    const listed = (await queue()).find((p) => p.memberId === youssef.id);
    expect(listed).toMatchObject({ text: TEXT, name: 'Youssef Exemple', approvedText: null, updatedAt: waiting?.updatedAt });
    const stale = await review({ decision: 'approuver', updatedAt: '2020-01-01T00:00:00.000Z' });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { message: string } }).error.message).toContain('modifié sa présentation');
    const empty = await review({ decision: 'refuser', updatedAt: waiting?.updatedAt, message: '  ' });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { message: string } }).error.message).toBe('Écrivez au membre ce qui doit changer.');
    expect((await review({ decision: 'peut-etre', updatedAt: waiting?.updatedAt })).status).toBe(400);
    const nobody = await staff.post(`/api/v1/dashboard/members/${sarah.id}/presentation/review`, {
      decision: 'approuver',
      updatedAt: waiting?.updatedAt,
    });
    expect(nobody.status).toBe(404);
    expect((await own())?.status).toBe('en-attente');

    // Approved: Amina reads it, the queue no longer has it.
    const approved = await review({ decision: 'approuver', updatedAt: waiting?.updatedAt });
    expect(approved.status, await approved.clone().text()).toBe(200);
    expect(await own()).toMatchObject({ status: 'approuvee', approvedText: TEXT });
    [view] = await mine(amina);
    expect(view?.other?.presentation).toBe(TEXT);
    expect((await queue()).some((p) => p.memberId === youssef.id)).toBe(false);
    // Approved once: a second decision is refused.
    expect((await review({ decision: 'approuver', updatedAt: waiting?.updatedAt })).status).toBe(409);

    // A new text waits again; Amina keeps reading the approved one meanwhile.
    clock.advance(60_000);
    const NEW = 'Ingénieur à Lyon. Je cherche une épouse sincère, et j’aime cuisiner.';
    expect((await put(youssef, { presentation: NEW })).status).toBe(200);
    const second = await own();
    expect(second).toMatchObject({ text: NEW, status: 'en-attente', approvedText: TEXT });
    [view] = await mine(amina);
    expect(view?.other?.presentation).toBe(TEXT);
    expect(JSON.stringify(view)).not.toContain('cuisiner');

    // Refused with a message: the member reads it; Amina still reads the approved version.
    const refused = await review({
      decision: 'refuser',
      updatedAt: second?.updatedAt,
      message: '  Merci de parler de vous plutôt que de cuisine.  ',
    });
    expect(refused.status, await refused.clone().text()).toBe(200);
    expect(await own()).toMatchObject({
      text: NEW,
      status: 'refusee',
      refusal: 'Merci de parler de vous plutôt que de cuisine.',
      approvedText: TEXT,
    });
    [view] = await mine(amina);
    expect(view?.other?.presentation).toBe(TEXT);
    const rows = await stored(youssef.id);
    expect(rows[0]).toMatchObject({ status: 'refusee', approvedBody: TEXT });
    expect(rows[0]?.reviewedBy).toMatch(/^[0-9a-f-]{36}$/);

    // Writing the approved text again needs no review.
    clock.advance(60_000);
    expect((await put(youssef, { presentation: TEXT })).status).toBe(200);
    expect(await own()).toMatchObject({ text: TEXT, status: 'approuvee', refusal: null });

    // Amina wrote none: Youssef's summary of her says so; Sarah is in no proposal with him.
    const [his] = await mine(youssef);
    expect(his?.other?.presentation).toBeNull();
    expect(JSON.stringify(await mine(sarah))).not.toContain('randonnée');
  });

  it('is in the member’s export', async () => {
    const exported = await youssef.agent.json<{ presentation: { text: string; updatedAt: string } | null }>(
      youssef.agent.get('/api/v1/user/export'),
    );
    expect(exported.presentation?.text).toBe(TEXT);
  });

  it('is no longer shown once the sensitive-data consent is withdrawn (with the summary)', async () => {
    const withdrawn = await youssef.agent.post('/api/v1/user/consents/withdraw', { kind: 'sensitive_data' });
    expect(withdrawn.status, await withdrawn.clone().text()).toBe(200);
    const [view] = await mine(amina);
    expect(view?.other).toBeNull();
    expect(JSON.stringify(view)).not.toContain('randonnée');
  });

  it('is erased with the account', async () => {
    expect((await stored(youssef.id)).length).toBe(1);
    const erased = await youssef.agent.post('/api/v1/user/erase', { email: youssef.email });
    expect(erased.status, await erased.clone().text()).toBe(200);
    expect(await stored(youssef.id)).toEqual([]);
  });
});
