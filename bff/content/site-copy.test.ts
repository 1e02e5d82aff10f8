import { describe, expect, it } from 'vitest';
import { CONTENT_DIR, loadContent } from '#bff/content/content-store.ts';
import { loadContentData } from '../../scripts/vite-plugin-content.ts';
import { activePlans, FILE_FEE_CENTS, type PayInFullSetting, plans } from '#machines/onboarding/plans.ts';
import { type AgencyIdentity, DEMO_AGENCY_IDENTITY, PLACEHOLDER_PATTERN } from '#machines/public-site/agency-identity.ts';
import { escapeHtml, fillTokens, tokensOf } from '#machines/public-site/fill-tokens.ts';
import { MEETING_NAMES, offerValues, siteValues } from '#machines/public-site/site-tokens.ts';
import { SAMPLE_AGENCY } from '#tests/support/agency.ts';

/**
 * The site's copy as the server serves it (decision 106): every page of content/pages and every
 * article rendered to HTML by the content parser, and the FAQ, with their `{{…}}` tokens filled in
 * exactly as bff/site/site-pages.ts fills the prerendered pages.
 */
const store = loadContent();
const documents = [
  ...store.list('pages', true).map((summary) => store.get('pages', summary.slug, true)),
  ...store.list('blog', true).map((summary) => store.get('blog', summary.slug, true)),
].map((doc) => ({ name: doc?.path ?? '', text: [doc?.title, doc?.description, doc?.heading ?? '', doc?.html].join('\n') }));
// As the SPA imports it: the copy's shared sentences filled in at build time (decision 189).
const faq = loadContentData(CONTENT_DIR, 'faq') as { question: string; answer: string }[];
const copy = [
  ...documents,
  ...faq.map((item) => ({ name: `faq: ${item.question}`, text: `${item.question}\n${escapeHtml(item.answer)}` })),
];
const settings: PayInFullSetting[] = ['cash', 'cashback'];

const served = (text: string, identity: AgencyIdentity, setting: PayInFullSetting) =>
  fillTokens(text, siteValues(identity, setting), escapeHtml);
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');
const pageOf = (path: string) => copy.find((doc) => doc.name === path)?.text ?? '';

/** Every amount in euros a text quotes, in cents ("1 020 €" → 102000, "95,00 €" → 9500). */
function quotedCents(text: string): number[] {
  return [...plain(text).matchAll(/(\d{1,3}(?: \d{3})*)(?:,(\d{2}))? ?€/g)].map(
    (match) => Number((match[1] as string).replace(/ /g, '')) * 100 + Number(match[2] ?? 0),
  );
}

describe('the site copy (decision 106)', () => {
  it('covers every page and article', () => {
    expect(documents.length).toBeGreaterThanOrEqual(11 + 6);
    expect(documents.map((doc) => doc.name)).toEqual(
      expect.arrayContaining([
        '/mentions-legales',
        '/conditions-generales-de-vente',
        '/politique-de-confidentialite',
        '/contactez-agence-matrimoniale-musulmane',
      ]),
    );
  });

  it('holds no "[… à compléter]" placeholder, and only known tokens, all filled in once served', () => {
    const known = Object.keys(siteValues(DEMO_AGENCY_IDENTITY, 'cash'));
    for (const { name, text } of copy) {
      expect(text, name).not.toMatch(PLACEHOLDER_PATTERN);
      for (const token of tokensOf(text)) expect(known, `${name}: {{${token}}}`).toContain(token);
      for (const setting of settings) {
        const page = served(text, DEMO_AGENCY_IDENTITY, setting);
        expect(page, name).not.toContain('{{');
        expect(page, name).not.toMatch(PLACEHOLDER_PATTERN);
      }
    }
  });

  it('names the configured agency on the legal pages and the contact page', () => {
    const agency: AgencyIdentity = SAMPLE_AGENCY;
    const legal = served(pageOf('/mentions-legales'), agency, 'cash');
    for (const value of Object.values(agency)) expect(legal).toContain(escapeHtml(value));
    const terms = served(pageOf('/conditions-generales-de-vente'), agency, 'cash');
    for (const value of [
      agency.legalName,
      agency.address,
      agency.rcs,
      agency.siret,
      agency.phone,
      agency.email,
      agency.mediatorName,
      agency.mediatorUrl,
      agency.vat,
    ])
      expect(terms).toContain(value);
    const contact = served(pageOf('/contactez-agence-matrimoniale-musulmane'), agency, 'cash');
    for (const value of [agency.address, agency.phone, agency.email]) expect(contact).toContain(value);
    const privacy = served(pageOf('/politique-de-confidentialite'), agency, 'cash');
    for (const value of [agency.legalName, agency.address, agency.email, agency.host]) expect(privacy).toContain(value);
    // The demo identity is never mistaken for a real one.
    expect(served(pageOf('/mentions-legales'), DEMO_AGENCY_IDENTITY, 'cash')).toContain('000 000 000 00000 (démonstration)');
  });

  it.each(settings)('quotes only the prices of the active plans (%s)', (setting) => {
    const active = activePlans(setting);
    const allowed = new Set([
      FILE_FEE_CENTS,
      ...active.flatMap((plan) => [plan.priceCents, plan.totalCents, ...(plan.discount ? [plan.discount.originalPriceCents] : [])]),
    ]);
    // Only the offers' tokens: the identity may quote a share capital.
    const values = offerValues(setting);
    let quoted = 0;
    for (const { name, text } of copy) {
      for (const cents of quotedCents(fillTokens(text, values, escapeHtml))) {
        quoted += 1;
        expect(allowed, `${name} quotes ${cents / 100} €, not a price of an active plan (${setting})`).toContain(cents);
      }
    }
    expect(quoted).toBeGreaterThan(20);
    // The terms of sale quote them (the registration pages' plan cards: tests/unit/prerendered-pages.test.ts).
    const terms = fillTokens(pageOf('/conditions-generales-de-vente'), values, escapeHtml);
    const inFull = active.filter((plan) => plan.type !== 'monthly').map((plan) => plan.totalCents);
    expect(quotedCents(terms)).toEqual(expect.arrayContaining(inFull));
  });

  it('the discounted pay-in-full prices appear only when staff offer them', () => {
    const quotes = (setting: PayInFullSetting) =>
      new Set(copy.flatMap(({ text }) => quotedCents(fillTokens(text, offerValues(setting), escapeHtml))));
    expect(quotes('cash').has(51_300)).toBe(false);
    expect(quotes('cash').has(91_800)).toBe(false);
    expect(quotes('cashback').has(51_300)).toBe(true);
    expect(quotes('cashback').has(91_800)).toBe(true);
  });

  it('uses one name for each meeting and each legal period', () => {
    const otherNames = [
      /entretien d['’]accueil/i,
      /entretien de matchmaking/i,
      /entretien d['’]admission/i,
      /entretien de mise en relation/i,
      /délai de réflexion/i,
      /période de rétractation/i,
    ];
    for (const { name, text } of copy) for (const other of otherNames) expect(text, name).not.toMatch(other);
    for (const plan of plans) for (const feature of plan.features) for (const other of otherNames) expect(feature).not.toMatch(other);
    const all = copy.map(({ text }) => text.toLowerCase()).join('\n');
    for (const name of Object.values(MEETING_NAMES)) expect(all).toContain(name);
    expect(plans.every((plan) => plan.features.some((feature) => feature.toLowerCase().startsWith(MEETING_NAMES.onboarding)))).toBe(true);
  });

  it('tells the order of the registration as it is: nothing paid, file fee included, before the contract is signed and 7 days have passed (L224-91)', () => {
    const text = (html: string) =>
      plain(html.replace(/<[^>]+>/g, ' '))
        .replace(/\s+/g, ' ')
        .trim();
    /** The part of a page from one heading's id to the next `<h2`. */
    const sectionOf = (html: string, id: string) => {
      const start = html.indexOf(`id="${id}"`);
      expect(start, id).toBeGreaterThan(-1);
      const end = html.indexOf('<h2', start);
      return html.slice(start, end === -1 ? undefined : end);
    };
    /** The steps of a page: its headings with their text, or the items of its first ordered list (title in bold). */
    const headingSteps = (html: string, tag: 'h2' | 'h3') =>
      html
        .split(new RegExp(`<${tag}[^>]*>`))
        .slice(1)
        .map((block) => ({ title: text(block.split(`</${tag}>`)[0] ?? ''), text: text(block) }));
    const listSteps = (html: string) =>
      (html.match(/<ol>([\s\S]*?)<\/ol>/)?.[1] ?? '')
        .split('<li>')
        .slice(1)
        .map((item) => ({ title: text(item.match(/<strong>([\s\S]*?)<\/strong>/)?.[1] ?? item), text: text(item) }));
    const lists = [
      {
        name: 'inscription',
        steps: headingSteps(sectionOf(pageOf('/inscription-agence-matrimoniale-musulmane'), 'les-etapes-de-l-inscription'), 'h3'),
      },
      { name: 'pour les femmes', steps: listSteps(pageOf('/inscription-agence-matrimoniale-musulmane/pour-les-femmes')) },
      { name: 'pour les hommes', steps: listSteps(pageOf('/inscription-agence-matrimoniale-musulmane/pour-les-hommes')) },
      { name: 'merci', steps: listSteps(pageOf('/pre-inscription/merci')) },
      {
        name: 'article',
        steps: headingSteps(pageOf('/blog/notre-accompagnement-etape-par-etape'), 'h2').filter((step) => /^\d+\. /.test(step.title)),
      },
      {
        // The terms of sale's list has no titles: the whole item is its title.
        name: 'CGV',
        steps: listSteps(sectionOf(pageOf('/conditions-generales-de-vente'), '4-parcours-de-souscription')),
      },
    ];
    for (const { name, steps } of lists) {
      const contract = steps.findIndex((step) => /contrat/i.test(step.title) && /sign/i.test(step.text));
      const payment = steps.findIndex((step) => /paiement/i.test(step.title) && !/informations/i.test(step.title));
      expect(contract, `${name}: ${JSON.stringify(steps.map((step) => step.title))}`).toBeGreaterThan(0);
      // Paid after the contract, the file fee with the plan.
      expect(payment, name).toBeGreaterThan(contract);
      expect(steps[payment]?.text, name).toMatch(/frais de dossier/);
      expect(steps[payment]?.text, name).toMatch(/formule/);
      expect(steps[contract]?.text, name).toMatch(/7 jours/);
      // No step before the contract is a payment, nor the file fee (the pre-contract information only tells it).
      for (const step of steps.slice(0, contract).filter((step) => !/informations/i.test(step.title))) {
        expect(step.title, name).not.toMatch(/frais|paiement|réglez|payez/i);
      }
    }
    for (const { name, text: copyText } of copy) {
      expect(plain(copyText), name).not.toMatch(/pay[ée]s?[^.]{0,40}avant l['’]entretien/i);
      expect(plain(copyText), name).not.toMatch(/frais de dossier[^.]{0,40}intégralement remboursés/i);
    }
    // Said in so many words where the steps are told.
    for (const path of [
      '/inscription-agence-matrimoniale-musulmane',
      '/inscription-agence-matrimoniale-musulmane/pour-les-femmes',
      '/inscription-agence-matrimoniale-musulmane/pour-les-hommes',
      '/conditions-generales-de-vente',
    ]) {
      expect(plain(pageOf(path)), path).toMatch(/(Aucune somme|rien ne vous a été demandé)[^.]*frais de dossier/i);
    }
  });
});
