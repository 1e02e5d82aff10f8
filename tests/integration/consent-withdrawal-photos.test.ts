import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { recordConsent } from '#bff/privacy/consents.ts';
import {
  acceptIntroduction,
  type ActiveMember,
  introduceMembers,
  introductionsOf,
  startWithActiveMembers,
  uploadPhoto,
} from '#tests/support/active-member.ts';
import type { startTestProduct, TestAgent } from '#tests/support/test-product.ts';

/**
 * Withdrawing the sensitive-data consent withdraws the photos and the summary (issue 22, decision
 * 122) and ends his introductions (decision 194), over HTTP: Youssef, with an accepted introduction
 * (photos and contact released to Amina) and an open proposal (to Sarah), withdraws his consent; his
 * photos answer 404, his contact is gone, his summary is shown to no one, both introductions are
 * closed by the agency, and staff no longer find him among anyone's candidates.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: TestAgent;
let amina: ActiveMember;
let sarah: ActiveMember;
let leila: ActiveMember;
let youssef: ActiveMember;

type View = {
  id: string;
  state: string;
  other: { firstName: string | null } | null;
  photos: { id: string; url: string }[];
  contact: unknown;
  ended: { why: string | null; wasShared: boolean } | null;
};

const mine = (m: ActiveMember) => introductionsOf<View>(m);
const candidateIds = async (m: ActiveMember) => {
  const response = await staff.get(`/api/v1/dashboard/members/${m.id}/candidates?limit=50`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { candidates: { memberId: string }[] }).candidates.map((c) => c.memberId);
};

const introduce = (a: ActiveMember, b: ActiveMember) => introduceMembers(staff, clock, a, b);
const accept = (m: ActiveMember, id: string) => acceptIntroduction(clock, m, id);

beforeAll(async () => {
  ({
    product,
    staff,
    members: [amina, sarah, leila, youssef],
  } = await startWithActiveMembers(clock, [
    ['Amina', 'femme', 29],
    ['Sarah', 'femme', 28],
    ['Leila', 'femme', 30],
    ['Youssef', 'homme', 32],
  ]));
  // The consent as the wizard records it at step 1 (what the withdrawal withdraws).
  await recordConsent(product.database.db, { memberId: youssef.id, kind: 'sensitive_data', given: true, at: clock.now() });
}, 120_000);
afterAll(() => product.stop());

describe('withdrawing the sensitive-data consent', () => {
  it('closes the photos of every introduction, the accepted one included, hides the summary and the candidacy', async () => {
    const jpeg = await sharp({ create: { width: 400, height: 500, channels: 3, background: '#884422' } })
      .jpeg()
      .toBuffer();
    const uploaded = await uploadPhoto(product, youssef, new Uint8Array(jpeg));
    expect(uploaded.status).toBe(201);

    const accepted = await introduce(amina, youssef);
    await accept(amina, accepted);
    await accept(youssef, accepted);
    // One open introduction: still a candidate for Leila (the limit is two).
    expect(await candidateIds(leila)).toContain(youssef.id);
    const open = await introduce(sarah, youssef);

    // Before: Amina sees his summary, contact and photo; Sarah his summary.
    const before = (await mine(amina)).find((v) => v.id === accepted);
    expect(before?.other?.firstName).toBe('Youssef');
    expect(before?.photos).toHaveLength(1);
    const url = before?.photos[0]?.url ?? '';
    expect((await amina.agent.get(url)).status).toBe(200);
    expect((await mine(sarah)).find((v) => v.id === open)?.other?.firstName).toBe('Youssef');

    clock.advance(60_000);
    const withdrawn = await youssef.agent.post('/api/v1/user/consents/withdraw', { kind: 'sensitive_data' });
    expect(withdrawn.status, await withdrawn.clone().text()).toBe(200);

    // The accepted introduction: closed by the agency, no photo (the URL is the same 404 as every
    // refusal), no contact, no summary; Amina is not told why (his consent is his).
    const after = (await mine(amina)).find((v) => v.id === accepted);
    expect(after?.photos).toEqual([]);
    expect(after?.other).toBeNull();
    expect(after?.contact).toBeNull();
    expect(after).toMatchObject({ state: 'close', ended: { why: null, wasShared: true } });
    expect((await mine(youssef)).find((v) => v.id === accepted)).toMatchObject({
      state: 'close',
      contact: null,
      ended: { why: 'vous avez retiré votre consentement au traitement de vos données sensibles' },
    });
    const refused = await amina.agent.get(url);
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('Photo introuvable.');
    expect((await amina.agent.get(`${url}?taille=vignette`)).status).toBe(404);
    // The open proposal: closed too, and Sarah no longer reads his summary.
    expect((await mine(sarah)).find((v) => v.id === open)).toMatchObject({ state: 'close', other: null, ended: { wasShared: false } });
    // No longer proposed: out of every ranking (his proposals closed: below the limit again), a new proposal refused.
    expect(await candidateIds(leila)).not.toContain(youssef.id);
    const proposal = await staff.post('/api/v1/dashboard/introductions', { a: leila.id, b: youssef.id });
    expect(proposal.status).toBeGreaterThanOrEqual(400);
    expect(proposal.status).toBeLessThan(500);
    // His own photos remain his (he can still see and delete them); staff still read them for his file.
    expect((await youssef.agent.json<{ photos: unknown[] }>(youssef.agent.get('/api/v1/user/photos'))).photos).toHaveLength(1);
    const listed = await staff.get(`/api/v1/dashboard/members/${youssef.id}/photos`);
    expect(listed.headers.get('cache-control')).toBe('private, no-store');
    const staffUrl = ((await listed.json()) as { photos: { url: string }[] }).photos[0]?.url ?? '';
    expect(staffUrl).toMatch(new RegExp(`^/api/v1/dashboard/members/${youssef.id}/photos/`));
    const read = await staff.get(`${staffUrl}?taille=vignette`);
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('private, no-store');
    const log = await staff.get(`/api/v1/dashboard/members/${youssef.id}/access-log`);
    const entries = ((await log.json()) as { entries: { resource: string }[] }).entries;
    expect(entries.map((e) => e.resource)).toContain('member_photo');
  });
});
