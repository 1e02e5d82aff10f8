import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { accessLog } from '#bff/db/access-log-schema.ts';
import { memberPresentations } from '#bff/db/presentation-schema.ts';
import { recordConsent } from '#bff/privacy/consents.ts';
import {
  PRESENTATION_MAX_LENGTH,
  PRESENTATION_NO_EMAIL,
  PRESENTATION_NO_PHONE,
  PRESENTATION_TOO_LONG,
} from '#machines/matching/presentation.ts';
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
      [{ presentation: 'Écrivez-moi : youssef.b@gmail.com' }, PRESENTATION_NO_EMAIL],
      [{ presentation: 'Appelez-moi au 06 12 34 56 78 après 18 h.' }, PRESENTATION_NO_PHONE],
      [{ presentation: 'Mon numéro : +33612345678' }, PRESENTATION_NO_PHONE],
      [{ presentation: 'a'.repeat(PRESENTATION_MAX_LENGTH + 1) }, PRESENTATION_TOO_LONG],
      [{ presentation: TEXT, memberId: amina.id }, 'Champ inattendu.'],
      [{ presentation: 12 }, 'Votre présentation doit être un texte.'],
    ];
    for (const [body, message] of cases) {
      const response = await put(youssef, body);
      const answer = (await response.json()) as { error: { message: string } };
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.error.message).toBe(message);
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

  it('is shown to the other side inside the proposal’s summary, to no one else', async () => {
    clock.advance(60_000);
    const proposed = await staff.post('/api/v1/dashboard/introductions', { a: amina.id, b: youssef.id });
    expect(proposed.status, await proposed.clone().text()).toBe(201);
    const [view] = await mine(amina);
    expect(view?.other?.firstName).toBe('Youssef');
    expect(view?.other?.presentation).toBe(TEXT);
    // Amina wrote none: Youssef's summary of her says so.
    const [his] = await mine(youssef);
    expect(his?.other?.presentation).toBeNull();
    // Sarah is in no proposal with him.
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
