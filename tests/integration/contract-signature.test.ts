import { createHash } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { MAX_CODE_ATTEMPTS } from '#bff/onboarding/contract-signature.ts';
import { contractSignatureCodes, contractSignatures } from '#bff/onboarding/store/signature-codes.ts';
import { contractCopies } from '#bff/db/privacy-schema.ts';
import { mailbox, members, onboardingEvents } from '#bff/db/schema.ts';
import { applyOnboardingUpdate } from '#bff/onboarding/apply-update.ts';
import { verifyRecordedPayment } from '#bff/payments/verify-payment.ts';
import { recordOf } from '#bff/members/members.ts';
import { PLACEHOLDER_PATTERN } from '#machines/public-site/agency-identity.ts';
import { walkOnboarding } from '#tests/support/onboarding-walk.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import type { TestProduct } from '#tests/support/test-product.ts';
import { lastSignatureCodeIn } from '#tests/support/contract-signature.ts';
import { renderMemberContract } from '#bff/contract/member-contract.ts';
import { contractTextSha256 } from '#bff/contract/contract-evidence.ts';
import { testAgencySite } from '#tests/support/test-product.ts';
import { outOfBounds, pdfAttachments, pdfPages, pdfPageTexts } from '#tests/support/pdf-text.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { signUp } from '#tests/support/sign-up.ts';

const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let n = 0;
async function newMember() {
  n += 1;
  const agent = product.agent();
  const email = `signature.${n}.${Date.now()}@example.fr`;
  const created = await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' });
  expect(created.status).toBe(201);
  const settings = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  return { agent, id: settings.id, email, gender: 'femme' as const };
}

async function memberAtSignature() {
  const member = await newMember();
  await walkOnboarding({ member, staff, clock, until: 'contractForm' });
  // The next morning (Paris): the minutes the test moves the clock stay within one day.
  const next = new Date(clock.now().getTime() + 24 * 3600_000);
  clock.set(new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth(), next.getUTCDate(), 8)));
  return member;
}

/** The code in the last signature-code mail queued for `email` (read from the outbox, as a mailbox would). */
const lastCode = (email: string) => lastSignatureCodeIn(product.database.db, email);

async function pdfOf(response: Response): Promise<Uint8Array> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  return new Uint8Array(await response.arrayBuffer());
}

type ContractAnswer = {
  details: { fullName: string; address: string; postcode: string; city: string };
  signed: boolean;
  document: { sections: { heading: string; blocks: unknown[] }[] } | null;
  draft: { sections: { heading: string; blocks: unknown[] }[] } | null;
};

describe('the contract is read, then signed with a code sent by e-mail (decision 109)', () => {
  it('starts the contract form from step 1 (name, postcode, city): only the street address is new', async () => {
    const member = await newMember();
    await walkOnboarding({ member, staff, clock, until: 'pre_contract_ok' });
    const before = await member.agent.json<ContractAnswer>(member.agent.get('/api/v1/user/contract'));
    expect(before.details).toEqual({ fullName: 'Amina Benali', address: '', postcode: '69003', city: 'Lyon' });
    expect(before.document).toBeNull();
    // The whole text is readable before the details are confirmed and the contract accepted.
    const draft = JSON.stringify(before.draft);
    expect(draft).toContain('et Amina Benali');
    expect(draft).toContain('demeurant …………, 69003 Lyon');
    expect(draft).not.toMatch(PLACEHOLDER_PATTERN);
    expect(draft).toContain('Modèle de formulaire de rétractation');
    expect((await member.agent.get('/api/v1/user/contract-preview.pdf')).status).toBe(409);
    expect((await member.agent.post('/api/v1/user/contract/signature-code', {})).status).toBe(409);
  });

  it('shows the whole contract, filled in, once its details are given', async () => {
    const member = await memberAtSignature();
    const answer = await member.agent.json<ContractAnswer>(member.agent.get('/api/v1/user/contract'));
    expect(answer.signed).toBe(false);
    expect(answer.draft).toBeNull();
    expect(answer.details).toEqual({ fullName: 'Amina Benali', address: '12 rue de la République', postcode: '69003', city: 'Lyon' });
    const text = JSON.stringify(answer.document);
    expect(text).toContain('demeurant 12 rue de la République, 69003 Lyon');
    expect(text).toContain('Modèle de formulaire de rétractation');
    expect(text).toContain('Annexe — Qualités de la personne recherchée');
  });

  it('previews the text later signed as a draft, mails a code, refuses wrong codes, signs with the right one and keeps the evidence', async () => {
    const member = await memberAtSignature();
    const preview = await pdfOf(await member.agent.get('/api/v1/user/contract-preview.pdf'));
    clock.set(new Date(clock.now().getTime() + 60_000));
    // Deterministic: the same contract on the same day gives the same bytes.
    expect(sha256(await pdfOf(await member.agent.get('/api/v1/user/contract-preview.pdf')))).toBe(sha256(preview));
    // The preview is a draft on every page (decision 185).
    const previewPages = await pdfPageTexts(preview);
    for (const page of previewPages) expect(page.replace(/\s+/g, ' ')).toContain('Projet — document non signé');
    // The text the code will sign: the SHA-256 of the contract document shown now.
    const [before] = await product.database.db.select().from(members).where(eq(members.id, member.id));
    const shown = await renderMemberContract(product.database.db, before!, { agency: testAgencySite().agency, now: clock.now() });
    const textSha256 = contractTextSha256(shown!.document);
    expect(shown?.textSha256).toBe(textSha256);

    // Nothing signs without a code asked for.
    const early = await member.agent.post('/api/v1/user/contract/sign', { code: '123456' });
    expect(early.status).toBe(400);
    expect(((await early.json()) as { error: { code: string } }).error.code).toBe('CODE_NOT_REQUESTED');

    const asked = await member.agent.post('/api/v1/user/contract/signature-code', {});
    expect(asked.status).toBe(200);
    const code = await lastCode(member.email);
    const [stored] = await product.database.db.select().from(contractSignatureCodes).where(eq(contractSignatureCodes.memberId, member.id));
    expect(stored?.codeHash).not.toContain(code);
    expect(stored?.documentSha256).toBe(textSha256);
    // A second code within the minute is refused.
    expect((await member.agent.post('/api/v1/user/contract/signature-code', {})).status).toBe(429);
    // After a reload, the page knows a usable code was sent: it shows the code field, not a new code.
    const reloaded = await member.agent.json<{ signatureCode: { sentTo: string; expiresAt: string } | null }>(
      member.agent.get('/api/v1/user/contract'),
    );
    expect(reloaded.signatureCode).toMatchObject({ sentTo: member.email, expiresAt: stored?.expiresAt.toISOString() });

    // Malformed and wrong codes: a clear French error, never a signature.
    const malformed = await member.agent.post('/api/v1/user/contract/sign', { code: 'abc' });
    expect(malformed.status).toBe(400);
    const wrong = code === '000000' ? '000001' : '000000';
    const refused = await member.agent.post('/api/v1/user/contract/sign', { code: wrong });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('Code incorrect');
    let [row] = await product.database.db.select().from(members).where(eq(members.id, member.id));
    expect(recordOf(row!).subscriptionDate).toBeFalsy();

    const signedAnswer = await member.agent.post('/api/v1/user/contract/sign', { code }, { 'user-agent': 'Navigateur de test/1.0' });
    const signedBody = (await signedAnswer.json()) as { sha256: string; textSha256: string };
    expect(signedAnswer.status, JSON.stringify(signedBody)).toBe(200);
    [row] = await product.database.db.select().from(members).where(eq(members.id, member.id));
    expect(recordOf(row!).subscriptionDate).toBeTruthy();
    const settings = await member.agent.json<{ state: string }>(member.agent.get('/api/v1/user/settings'));
    expect(settings.state).toBe('attente-contrat.delai-renonciation');

    // The evidence record: document hash, time, client address, user agent, code verification.
    const [evidence] = await product.database.db.select().from(contractSignatures).where(eq(contractSignatures.memberId, member.id));
    expect(evidence).toMatchObject({
      documentSha256: textSha256,
      clientAddress: member.agent.address,
      userAgent: 'Navigateur de test/1.0',
      method: 'email_code',
      codeAttempts: 2,
    });
    expect(evidence?.signedAt.getTime()).toBe(clock.now().getTime());
    expect(signedBody.textSha256).toBe(textSha256);
    // The code is spent.
    expect(await product.database.db.select().from(contractSignatureCodes).where(eq(contractSignatureCodes.memberId, member.id))).toEqual(
      [],
    );
    expect((await member.agent.post('/api/v1/user/contract/sign', { code })).status).toBe(409);

    expect((await member.agent.json<{ signatureCode: unknown }>(member.agent.get('/api/v1/user/contract'))).signatureCode).toBeNull();

    // The member's and staff's downloads are one copy: the text signed, then its evidence page,
    // drawn from the record above; the text attached hashes to the record's SHA-256.
    const mine = await pdfOf(await member.agent.get('/api/v1/user/contract.pdf'));
    expect(sha256(mine)).toBe(signedBody.sha256);
    const staffCopy = await pdfOf(await staff.agent.get(`/api/v1/dashboard/members/${member.id}/contract.pdf`));
    expect(sha256(staffCopy)).toBe(sha256(mine));
    const pages = (await pdfPageTexts(mine)).map((page) => page.replace(/\s+/g, ' '));
    expect(pages).toHaveLength(previewPages.length + 1);
    for (const page of pages) expect(page).not.toContain('Projet — document non signé');
    const proof = pages[pages.length - 1] as string;
    const at = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'long', timeStyle: 'short' }).format(evidence!.signedAt);
    for (const expected of [
      'Page de preuve de signature',
      'Signataire : Amina Benali',
      `Adresse e-mail : ${member.email}`,
      `Signé le : ${at.replace(/\s+/g, ' ')} (heure de Paris), horodatage ${evidence!.signedAt.toISOString()}`,
      'Canal du code : code à usage unique envoyé par e-mail',
      'au 2e essai',
      `Adresse IP : ${member.agent.address}`,
      'Navigateur : Navigateur de test/1.0',
      `Empreinte SHA-256 du texte signé : ${textSha256}`,
    ]) {
      expect(proof).toContain(expected);
    }
    const [attached] = await pdfAttachments(mine);
    expect(sha256(attached!)).toBe(evidence?.documentSha256);
    expect(outOfBounds(await pdfPages(mine))).toEqual([]);

    // The signed copy is mailed at once as an attachment, received by the local mailbox.
    await product.flushMail();
    const [received] = await product.database.db
      .select()
      .from(mailbox)
      .where(eq(mailbox.toAddress, member.email))
      .orderBy(desc(mailbox.id))
      .limit(1);
    expect(received?.subject).toContain('Votre contrat signé');
    expect(received?.attachments).toHaveLength(1);
    expect(received?.attachments[0]).toMatchObject({ filename: 'contrat-signe.pdf', contentType: 'application/pdf' });
    expect(received?.attachments[0]?.sha256).toBe(sha256(mine));
    expect(received?.textBody.replace(/\s+/g, ' ')).toContain(`Empreinte SHA-256 du texte signé : ${textSha256}`);
  });

  it('locks a code after too many wrong tries, and lets an expired code sign nothing', async () => {
    const member = await memberAtSignature();
    expect((await member.agent.post('/api/v1/user/contract/signature-code', {})).status).toBe(200);
    const code = await lastCode(member.email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i += 1) {
      expect((await member.agent.post('/api/v1/user/contract/sign', { code: wrong })).status).toBe(400);
    }
    const locked = await member.agent.post('/api/v1/user/contract/sign', { code });
    expect(locked.status).toBe(429);

    clock.set(new Date(clock.now().getTime() + 2 * 60_000));
    expect((await member.agent.post('/api/v1/user/contract/signature-code', {})).status).toBe(200);
    const fresh = await lastCode(member.email);
    clock.set(new Date(clock.now().getTime() + 16 * 60_000));
    const expired = await member.agent.post('/api/v1/user/contract/sign', { code: fresh });
    expect(expired.status).toBe(400);
    expect(((await expired.json()) as { error: { code: string } }).error.code).toBe('CODE_EXPIRED');
    const [row] = await product.database.db.select().from(members).where(eq(members.id, member.id));
    expect(recordOf(row!).subscriptionDate).toBeFalsy();
  });

  it('signs in one transaction: if the evidence cannot be written, the contract stays unsigned and nothing is stored', async () => {
    const member = await memberAtSignature();
    const eventsBefore = await product.database.db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, member.id));
    await expect(
      applyOnboardingUpdate(
        product.database.db,
        { context: 'sub_date', subDate: clock.now().toISOString() },
        {
          actor: { id: member.id, role: 'member' },
          callerMemberId: member.id,
          now: clock.now(),
          verifyPayment: verifyRecordedPayment,
          alsoInTransaction: async () => {
            throw new Error('evidence store down');
          },
        },
      ),
    ).rejects.toThrow('evidence store down');
    const [row] = await product.database.db.select().from(members).where(eq(members.id, member.id));
    expect(recordOf(row!).subscriptionDate).toBeFalsy();
    const eventsAfter = await product.database.db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, member.id));
    expect(eventsAfter).toHaveLength(eventsBefore.length);
    expect(await product.database.db.select().from(contractCopies).where(eq(contractCopies.memberId, member.id))).toHaveLength(0);
    expect(await product.database.db.select().from(contractSignatures).where(eq(contractSignatures.memberId, member.id))).toHaveLength(0);
    // The code route still signs afterwards.
    expect((await member.agent.post('/api/v1/user/contract/signature-code', {})).status).toBe(200);
    expect((await member.agent.post('/api/v1/user/contract/sign', { code: await lastCode(member.email) })).status).toBe(200);
    expect(await product.database.db.select().from(contractSignatures).where(eq(contractSignatures.memberId, member.id))).toHaveLength(1);
  });
});
