import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberPrivacy } from '#bff/db/privacy-schema.ts';
import { members } from '#bff/db/schema.ts';
import type { MemberRow } from '#bff/members/members.ts';
import { matchProfileOf, upsertMatchProfile } from '#bff/matching/candidates.ts';
import { enqueueMailOnce, mailQueuedThrough } from '#bff/mail/outbox.ts';
import { applyOnboardingUpdate, eventCount } from '#bff/onboarding/apply-update.ts';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { signUpMember } from '#tests/security/support.ts';
import { startTestProduct } from '#tests/support/test-product.ts';

/**
 * The one path of an onboarding event (issue 23, decision 129): what it no longer reads or writes
 * again is still right. The match profile comes from the row the event's UPDATE returned and is
 * written only when it changes; the mail dispatcher is told only when the event queued a mail.
 */

let product: Awaited<ReturnType<typeof startTestProduct>>;
beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

const profileWrittenAt = async (id: string) =>
  (await product.database.query<{ at: string }>('SELECT updated_at::text AS at FROM match_profiles WHERE member_id = $1', [id]))[0]?.at;

/** The profile as `upsertMatchProfile` derives it afresh from the stored member, in a transaction rolled back. */
async function derivedAfresh(id: string) {
  let derived: unknown;
  await product.database.db
    .transaction(async (tx) => {
      derived = await upsertMatchProfile(tx, id);
      throw new Error('rollback');
    })
    .catch(() => {});
  return derived;
}

describe('the onboarding event path', () => {
  it('leaves the row as stored: the row it gives the cache and its hooks equals a fresh read, after each kind of event', async () => {
    const m = await signUpMember(product);
    const start = Date.now();
    const samples = samplePayloads({ id: m.id, email: m.email, gender: 'femme' }, start);
    const staff = { id: null, role: 'staff' as const };
    const member = { id: m.id, role: 'member' as const };
    const afterMeeting = new Date(start + 3 * 24 * 60 * 60 * 1000);
    const steps: [keyof typeof samples, typeof staff | typeof member, Date][] = [
      ['profil', member, new Date(start)],
      ['questionnaire', member, new Date(start)],
      ['form_per_inf', member, new Date(start)],
      ['sel_plan', member, new Date(start)],
      ['pre_contract_ok', member, new Date(start)],
      ['onb_meet', member, new Date(start)],
      ['onb_meet_resa', staff, new Date(start)],
      ['onb_meet_ok', staff, afterMeeting],
      ['contractForm', member, afterMeeting],
    ];
    const readRow = async () => (await product.database.db.select().from(members).where(eq(members.id, m.id)))[0];
    let behind = await readRow();
    for (const [index, [context, actor, now]] of steps.entries()) {
      // The row a caller holds (the member cache): current on even steps, one event behind on odd
      // ones (from the second): the event must then read every column again.
      const fresh = await readRow();
      const current = index % 2 === 0 ? fresh : behind;
      behind = fresh;
      const applied = await applyOnboardingUpdate(product.database.db, samples[context], {
        actor,
        callerMemberId: actor.role === 'member' ? m.id : null,
        current: current ? Object.freeze(current) : undefined,
        now,
        verifyPayment: async () => 'non',
        mail: { siteUrl: 'https://agence.example', agency: DEMO_AGENCY_IDENTITY },
      });
      const [stored] = await product.database.db.select().from(members).where(eq(members.id, m.id));
      expect(applied.row, context).toEqual(stored);
      const [privacy] = await product.database.db.select().from(memberPrivacy).where(eq(memberPrivacy.id, m.id));
      expect(applied.matchmakingPausedAt, context).toEqual(privacy?.matchmakingPausedAt);
    }
    const [last] = await product.database.db.select().from(members).where(eq(members.id, m.id));
    expect(last?.contract).not.toBeNull();
    expect(last?.profile).not.toBeNull();
  });

  it('decides on the row the caller holds without reading it again; a held row behind is read again, whether it allows or refuses', async () => {
    const m = await signUpMember(product);
    const samples = samplePayloads({ id: m.id, email: m.email, gender: 'femme' }, Date.now());
    const readRow = async () => (await product.database.db.select().from(members).where(eq(members.id, m.id)))[0] as MemberRow;
    const apply = (context: keyof typeof samples, current: MemberRow) =>
      applyOnboardingUpdate(product.database.db, samples[context], {
        actor: { id: m.id, role: 'member' },
        callerMemberId: m.id,
        current: Object.freeze(current),
        now: new Date(),
        verifyPayment: async () => 'non',
      });
    const events = () => eventCount(product.database.db, m.id);

    // Held and current (same version): the event is decided on it and the member is not read: a
    // mark only the held row carries comes back in the row the event leaves.
    const signedUp = await readRow();
    const marked = await apply('profil', { ...signedUp, email: 'marque@exemple.invalid' });
    expect(marked.row.email).toBe('marque@exemple.invalid');
    expect(marked.row.version).toBe(signedUp.version + 1);
    expect((await readRow()).email).toBe(m.email);

    // Held behind, and the held row refuses what the stored one allows (the questionnaire comes
    // after the profile): read again, decided on the stored row, applied.
    const afterProfile = await readRow();
    const before = await events();
    const applied = await apply('questionnaire', signedUp);
    expect(applied.row.version).toBe(afterProfile.version + 1);
    expect(await events()).toBe(before + 1);
    expect(applied.row).toEqual(await readRow());

    // Held behind, and the held row allows what the stored one refuses: refused on the stored row,
    // nothing written.
    await apply('form_per_inf', await readRow());
    await apply('sel_plan', await readRow());
    const atPlan = await readRow();
    await apply('pre_contract_ok', atPlan);
    const stored = await readRow();
    const count = await events();
    const refusal = await apply('sel_plan', atPlan).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 409, code: 'TRANSITION_REFUSED' });
    expect(await events()).toBe(count);
    expect(await readRow()).toEqual(stored);
  });

  it('stores the match profile derived from the row the event wrote, and writes it again only when it changes', async () => {
    const m = await signUpMember(product);
    const samples = samplePayloads({ id: m.id, email: m.email, gender: 'femme' }, Date.now());
    expect((await m.agent.post('/api/v1/user/update', samples.profil)).status).toBe(200);
    expect(await matchProfileOf(product.database.db, m.id)).toBeNull(); // no step 2 yet
    expect((await m.agent.post('/api/v1/user/update', samples.questionnaire)).status).toBe(200);
    const stored = await matchProfileOf(product.database.db, m.id);
    expect(stored).toMatchObject({ memberId: m.id, available: false, unavailableReason: 'pas-encore-actif' });
    expect(stored).toEqual(await derivedAfresh(m.id));
    // Personal details for the contract change nothing the profile derives from: not written again.
    const writtenAt = await profileWrittenAt(m.id);
    expect((await m.agent.post('/api/v1/user/update', samples.form_per_inf)).status).toBe(200);
    expect(await profileWrittenAt(m.id)).toBe(writtenAt);
    expect(await matchProfileOf(product.database.db, m.id)).toEqual(await derivedAfresh(m.id));
    // Paused by hand: migration 0014's trigger rewrites the stored profile during the event's UPDATE,
    // and the event still leaves the profile its derivation gives.
    await product.database.query('UPDATE members SET matchmaking_paused_at = now() WHERE id = $1', [m.id]);
    expect((await m.agent.post('/api/v1/user/update', samples.sel_plan)).status).toBe(200);
    const paused = await matchProfileOf(product.database.db, m.id);
    expect(paused).toEqual(await derivedAfresh(m.id));
    expect(paused?.available).toBe(false);
  });

  it('says whether the event queued a mail, as the transaction knows it', async () => {
    const m = await signUpMember(product);
    const samples = samplePayloads({ id: m.id, email: m.email, gender: 'femme' }, Date.now());
    const options = {
      actor: { id: m.id, role: 'member' as const },
      callerMemberId: m.id,
      now: new Date(),
      verifyPayment: async () => 'non',
      mail: { siteUrl: 'https://agence.example', agency: DEMO_AGENCY_IDENTITY },
    };
    const applied = await applyOnboardingUpdate(product.database.db, samples.profil, options);
    expect(applied.mailQueued).toBe(false);
    expect(applied.eventId).toBeGreaterThan(0);
    // The mark itself: a first queued mail marks its transaction; the same mail again (deduplicated) does not.
    const mail = { to: m.email, subject: 'Essai', text: 'Essai', kind: 'essai' };
    for (const expected of [true, false]) {
      await product.database.db.transaction(async (tx) => {
        expect(mailQueuedThrough(tx)).toBe(false);
        await enqueueMailOnce(tx, mail, `essai:${m.id}`);
        expect(mailQueuedThrough(tx)).toBe(expected);
      });
    }
  });
});
