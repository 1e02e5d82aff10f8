import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contractPlainText, contractTextSha256, type SignatureEvidence } from '#bff/contract/contract-evidence.ts';
import { renderContractPdf } from '#bff/contract/contract-pdf.ts';
import { agencyIdentity, type ContractInput, contractDocument } from '#bff/contract/contract-text.ts';
import { planById } from '#machines/onboarding/plans.ts';
import { SAMPLE_AGENCY } from '#tests/support/agency.ts';
import { outOfBounds, pdfAttachments, pdfPages, pdfPageTexts } from '#tests/support/pdf-text.ts';

/**
 * The preview is marked as a draft on every page; the copy signed adds an evidence page drawn from
 * the signature's record, and the text signed attached, whose SHA-256 the page prints (decision 185).
 */
const input: ContractInput = {
  agency: agencyIdentity(SAMPLE_AGENCY),
  email: 'nadia.kaci@example.org',
  form: { fullName: 'Nadia Kaci', address: '3 place Bellecour', postcode: '69002', city: 'Lyon', signature: 'Nadia Kaci' },
  profile: { birthDate: '1994-03-12', phone: '06 12 34 56 78' },
  questionnaire: null,
  plan: planById('plan_serenity_month'),
  renounced: false,
  couponApplied: false,
  formCompletedAt: new Date('2026-12-07T09:40:00Z'),
  signedAt: null,
  datedAt: new Date('2026-12-07T09:00:00Z'),
};
const document = contractDocument(input);
const now = new Date('2026-12-07T12:00:00Z');
const evidence: SignatureEvidence = {
  signerName: 'Nadia Kaci',
  signerEmail: 'nadia.kaci@example.org',
  signedAt: new Date('2026-12-07T10:03:27.512Z'),
  method: 'email_code',
  codeSentAt: new Date('2026-12-07T10:01:02Z'),
  codeVerifiedAt: new Date('2026-12-07T10:03:27.512Z'),
  codeAttempts: 2,
  clientAddress: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  textSha256: contractTextSha256(document),
  effectiveFrom: new Date('2026-12-07T10:03:27.512Z'),
  endsOn: new Date('2027-12-06T12:00:00Z'),
};
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('the text signed and its SHA-256', () => {
  it('is the document’s text in the order printed, and changes with any word of it', () => {
    const text = contractPlainText(document);
    expect(text.startsWith('Contrat de courtage matrimonial\nExemplaire du membre')).toBe(true);
    expect(text).toContain('\n- l’étude du dossier et du questionnaire de rapprochement du membre');
    expect(text.indexOf('Signatures')).toBeLessThan(text.indexOf('Annexe — Qualités de la personne recherchée'));
    expect(contractTextSha256(document)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    const changed = contractDocument({ ...input, form: { ...input.form, address: '4 place Bellecour' } });
    expect(contractTextSha256(changed)).not.toBe(contractTextSha256(document));
    // Signed on the day it is dated: the same text as the preview read.
    expect(contractTextSha256(contractDocument({ ...input, signedAt: evidence.signedAt }))).toBe(contractTextSha256(document));
  });
});

describe('the contract PDF: a draft before signature, the copy signed with its evidence page after', () => {
  it('marks every page of the preview « Projet — document non signé », within the page', async () => {
    const pdf = await renderContractPdf(document, { memberName: 'Nadia Kaci', now, mark: { kind: 'draft' } });
    const pages = await pdfPages(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) {
      const text = flat(page.items.map((item) => item.text).join(' '));
      expect(text).toContain('Projet — document non signé');
      expect(text).toContain('PROJET NON SIGNÉ');
      expect(text).not.toContain('Page de preuve de signature');
    }
    expect(outOfBounds(pages)).toEqual([]);
    expect(await pdfAttachments(pdf)).toEqual([]);
  });

  it('appends the evidence page: signer, e-mail, date and time in Paris, channel, and the hash of the text attached', async () => {
    const pdf = await renderContractPdf(document, { memberName: 'Nadia Kaci', now, mark: { kind: 'signed', evidence } });
    const pages = await pdfPages(pdf);
    expect(outOfBounds(pages)).toEqual([]);
    const texts = (await pdfPageTexts(pdf)).map(flat);
    for (const text of texts) expect(text).not.toContain('Projet');
    const last = texts[texts.length - 1] as string;
    for (const expected of [
      'Page de preuve de signature',
      'Signataire : Nadia Kaci',
      'Adresse e-mail : nadia.kaci@example.org',
      // 10:03 UTC is 11 h 03 in Paris in December, written by machines/french/dates.ts.
      'Signé le : 7 décembre 2026 à 11 h 03 (heure de Paris), horodatage 2026-12-07T10:03:27.512Z',
      'du 7 décembre 2026 au 6 décembre 2027 inclus',
      'Canal du code : code à usage unique envoyé par e-mail',
      'au 2e essai',
      'Adresse IP : 203.0.113.7',
      `Empreinte SHA-256 du texte signé : ${evidence.textSha256}`,
      `page ${texts.length} sur ${texts.length}`,
    ]) {
      expect(last).toContain(expected);
    }
    // The text attached is the text signed: its SHA-256 is the one printed.
    const [attached] = await pdfAttachments(pdf);
    expect(attached?.toString('utf8')).toBe(contractPlainText(document));
    expect(
      createHash('sha256')
        .update(attached as Buffer)
        .digest('hex'),
    ).toBe(evidence.textSha256);
    // The contract's pages are the draft's without its marks.
    const draft = (await pdfPageTexts(await renderContractPdf(document, { memberName: 'Nadia Kaci', now, mark: { kind: 'draft' } }))).map(
      flat,
    );
    expect(texts.length).toBe(draft.length + 1);
    expect(texts[0]).toContain('Entre les soussignés');
  });

  it('gives the same bytes for the same record', async () => {
    const options = { memberName: 'Nadia Kaci', now, mark: { kind: 'signed' as const, evidence } };
    const first = Buffer.from(await renderContractPdf(document, options));
    expect(Buffer.from(await renderContractPdf(document, options)).equals(first)).toBe(true);
  });
});
