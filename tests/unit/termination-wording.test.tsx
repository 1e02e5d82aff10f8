import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { loadContent } from '#bff/content/content-store.ts';
import { agencyIdentity, contractDocument } from '#bff/contract/contract-text.ts';
import { planById } from '#machines/onboarding/plans.ts';
import { NO_PROOF_FOR_HEALTH, PROOF_ACCEPT, TERMINATION_HOW, TERMINATION_PROOF } from '#machines/onboarding/termination-texts.ts';
import { DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { consentTexts } from '#machines/privacy/consent-texts.ts';
import { TerminationRequestFields } from '#src/features/account/termination-request.tsx';
import { CONTENT_DIR } from '#bff/content/content-store.ts';
import { loadContentData } from '../../scripts/vite-plugin-content.ts';

/**
 * « Termination said once » (issue 59 point 4, decision 189): the signed contract, the CGV, the
 * contact page, « Mon profil » and the member's termination screen print the same sentences, from
 * machines/onboarding/termination-texts.ts; none of them, and no text of the product, still asks
 * for a registered letter; the proof is a file, never a text field, and no health data is asked.
 */

/** The text a person reads: tags out, entities and non-breaking spaces as plain characters. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/[\u202f\u00a0]/g, ' ')
    .replace(/\s+/g, ' ');
const plain = (value: string) => text(value).trim();
const HOW = plain(TERMINATION_HOW);
const PROOF = plain(TERMINATION_PROOF);

const store = loadContent();
const page = (slug: string) => store.get('pages', slug, true)?.html ?? '';

const contract = JSON.stringify(
  contractDocument({
    agency: agencyIdentity(DEMO_AGENCY_IDENTITY),
    email: 'nadia@example.org',
    form: { fullName: 'Nadia Kaci', address: '3 place Bellecour', postcode: '69002', city: 'Lyon', signature: 'Nadia Kaci' },
    profile: { birthDate: '1994-03-12', phone: '06 12 34 56 78' },
    questionnaire: null,
    plan: planById('plan_serenity_month'),
    renounced: false,
    couponApplied: false,
    formCompletedAt: new Date('2026-11-20T10:00:00Z'),
    signedAt: new Date('2026-11-21T10:00:00Z'),
    datedAt: new Date('2026-11-21T09:00:00Z'),
  }),
);

const places: [string, string][] = [
  [
    'the signed contract (article 6)',
    text(
      JSON.parse(contract)
        .sections.map((s: { blocks: unknown[] }) => s.blocks.join(' '))
        .join(' '),
    ),
  ],
  ['the CGV (§ 12)', text(page('conditions-generales-de-vente'))],
  ['the contact page', text(page('contact'))],
  [
    'the FAQ (as the SPA imports it)',
    plain(
      (loadContentData(CONTENT_DIR, 'faq') as { question: string; answer: string }[]).find((item) => /résilier/.test(item.answer))
        ?.answer ?? '',
    ),
  ],
  ['« Mon profil » (the contract’s consent)', plain(consentTexts.contract_terms.effect)],
  ['the member’s termination screen', text(renderToStaticMarkup(<TerminationRequestFields reason={null} errors={{}} />))],
];

describe('how to terminate is said once, in the same words everywhere', () => {
  it.each(places)('%s carries the shared sentence: online, or by letter registered or not, recorded by staff', (_where, said) => {
    expect(said).toContain(HOW);
    expect(HOW).toContain('en ligne');
    expect(HOW).toContain('recommandé ou non');
  });

  it.each(places)('%s asks for no registered letter', (_where, said) => {
    expect(said).not.toMatch(/lettre recommandée|avis de réception/i);
  });

  it('the contract, the CGV and the screen say what proof is taken, a file, and that no health data is asked', () => {
    for (const [where, said] of places.filter(([where]) => !/contact|Mon profil|FAQ/.test(where))) {
      expect(said, where).toContain(PROOF);
    }
    expect(PROOF).toContain('PDF, JPEG ou PNG');
    expect(PROOF).toContain('Aucune donnée de santé n’est demandée');
  });

  it('no text of the product still asks for a registered letter (content, screens, server, rules)', () => {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(md|json|ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) {
          const lines = readFileSync(path, 'utf8').split('\n');
          lines.forEach((line, i) => {
            if (/lettre recommandée|avec demande d’avis de réception/i.test(line)) found.push(`${path}:${i + 1}`);
          });
        }
      }
    };
    for (const dir of ['content', 'src', 'bff', 'machines']) walk(dir);
    expect(found).toEqual([]);
  });
});

describe('the proof is a file, never a free text suggesting health data', () => {
  const fields = (reason: Parameters<typeof TerminationRequestFields>[0]['reason']) =>
    renderToStaticMarkup(<TerminationRequestFields reason={reason} errors={{}} />);

  it('is a file input of PDF, JPEG or PNG, with a hint that names situations, not health, and forbids health data', () => {
    const html = fields(null);
    const input = html.match(/<input[^>]*name="justificatif"[^>]*>/)?.[0] ?? '';
    expect(input).toContain('type="file"');
    expect(input).toContain(`accept="${PROOF_ACCEPT}"`);
    expect(text(html)).toContain('Justificatif (facultatif)');
    expect(text(html)).toContain('Un justificatif de votre situation (déménagement, changement de situation…)');
    expect(text(html)).toContain('Ne joignez aucune donnée de santé.');
    expect(text(html)).not.toMatch(/certificat médical|attestation médicale/i);
    // No text field for the proof any more.
    expect(html).not.toMatch(/<input[^>]*name="proof"/);
  });

  it('is required for a move, and not offered at all for illness or disability', () => {
    expect(text(fields('demenagement'))).toContain('Justificatif (obligatoire)');
    const illness = fields('maladie-invalidite');
    expect(illness).not.toContain('name="justificatif"');
    expect(text(illness)).toContain(plain(NO_PROOF_FOR_HEALTH));
  });
});
