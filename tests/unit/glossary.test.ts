import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentRoutes } from '#bff/api/public-routes.ts';
import { loadContent } from '#bff/content/content-store.ts';
import { agencyIdentity, contractDocument } from '#bff/contract/contract-text.ts';
import { anglicisms, MEETINGS, PLAN_BADGE, replaced } from '#machines/glossary.ts';
import { planById } from '#machines/onboarding/plans.ts';
import type { Questionnaire } from '#machines/onboarding/forms.ts';
import { renderPage } from '#src/entry-prerender.tsx';
import { SAMPLE_AGENCY } from '#tests/support/agency.ts';
import { everyMail } from '#tests/support/every-mail.ts';
import { tracked } from '#tests/support/text-sources.ts';
import { PUBLIC_PATHS } from '../../scripts/prerender.ts';

/**
 * One word for each thing (decision 198): every prerendered page (content/ and the SPA's public
 * routes), every French text of the SPA's screens, every kind of mail and the contract are read,
 * and each word the glossary lists as replaced, each known anglicism and each inclusive « (e) »
 * where the person's gender is known is named with the word to write instead.
 */

/** Quoted by the product spec's error catalogue (§ 8), kept as the spec writes them. */
const SPEC_QUOTED = ['Email ou mot de passe invalide', 'Email invalide'];

/** Each finding in a text: the word found and what to write instead. */
function findings(where: string, text: string): string[] {
  let plain = text;
  for (const quoted of SPEC_QUOTED) plain = plain.replaceAll(quoted, '');
  return [...replaced, ...anglicisms].flatMap(({ pattern, use }) => {
    const found = pattern.exec(plain);
    return found ? [`${where}: « ${found[0]} », écrire ${use}`] : [];
  });
}

/** An inclusive « (e) » (« né(e) », « Divorcé(e) », « présent(e) »). */
const INCLUSIVE = /\p{L}\(e\)/u;

/** The visible text of an HTML page: no script, style or tag. */
const visibleText = (html: string) =>
  html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/g, ' ');

/** A literal that reads as French prose (a space and a French letter or word), not a code. */
const FRENCH = /[àâçéèêëîïôûùœ’\u00a0]|\b(le|la|les|de|des|du|un|une|vous|votre|est|et|ou|pour)\b/i;

/** The string literals, template parts and JSX texts of a source that read as French. */
function frenchTexts(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    ) {
      const value = ts.isJsxText(node) ? node.getText(source) : node.getText(source).slice(1, -1);
      if (/\s/.test(value.trim()) && FRENCH.test(value)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push(`${file}:${line}\t${value}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the glossary’s own tests', () => {
  it('finds what it is meant to find, and nothing else', () => {
    expect(findings('x', 'Email invalide, veuillez réessayer')).toEqual([]);
    expect(findings('x', 'Votre email est enregistré')).toHaveLength(1);
    expect(findings('x', 'Votre adresse e-mail, amina.email@example.fr, /confirmer-email')).toEqual([]);
    expect(findings('x', 'Valider l’entretien de matchmaking')[0]).toContain(MEETINGS.matchmaking);
    expect(findings('x', 'Badge : Recommandée')[0]).toContain(PLAN_BADGE);
    expect(findings('x', 'Aller au checkout')).toHaveLength(1);
    expect(INCLUSIVE.test('né(e) le 12 mars')).toBe(true);
    expect(INCLUSIVE.test('les membre(s)')).toBe(false);
  });
});

describe('the SPA’s screens', () => {
  it('use the glossary’s words and no anglicism', () => {
    const files = [...tracked('src/*.tsx'), ...tracked('src/*.ts')].filter((file) => !/\.(test|css)\.tsx?$/.test(file));
    expect(files.length).toBeGreaterThan(100);
    const found = files
      .flatMap((file) => frenchTexts(file))
      .flatMap((entry) => {
        const [where, text] = entry.split('\t') as [string, string];
        return findings(where, text);
      });
    expect(found).toEqual([]);
  });
});

describe('the prerendered pages', () => {
  const realFetch = globalThis.fetch;
  const rendered = new Map<string, string>();
  beforeAll(async () => {
    const content = contentRoutes(undefined, loadContent());
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://prerender.invalid');
      return content.request(`${url.pathname.slice('/api/v1'.length)}${url.search}`, init);
    }) as typeof fetch;
    const articles = loadContent().list('blog', false);
    for (const path of [...PUBLIC_PATHS, ...articles.map((article) => article.path)]) rendered.set(path, (await renderPage(path)).html);
  }, 60_000);
  afterAll(() => {
    globalThis.fetch = realFetch;
  });

  it('use the glossary’s words and no anglicism', () => {
    expect(rendered.size).toBeGreaterThan(15);
    const found = [...rendered].flatMap(([path, html]) => findings(path, visibleText(html)));
    expect(found).toEqual([]);
  });
});

describe('the mails', () => {
  it('use the glossary’s words, no anglicism, and no « (e) » (a mail speaks to one person)', () => {
    const found = everyMail().flatMap(({ mail }) => [
      ...findings(mail.kind, `${mail.subject}\n${mail.text}`),
      ...(INCLUSIVE.test(mail.text) ? [`${mail.kind}: « (e) »`] : []),
    ]);
    expect(found).toEqual([]);
  });
});

describe('the contract', () => {
  const questionnaire = {
    soughtAgeMin: 28,
    soughtAgeMax: 38,
    soughtRegions: ['ile-de-france'],
    soughtFamilySituations: ['celibataire', 'divorce'],
    acceptsChildren: true,
    soughtProfessionalSituation: 'indifferent',
    soughtPractice: 'pratiquant',
    otherQualities: 'Sincère et attentionné.',
    readyToRelocate: true,
  } as unknown as Questionnaire;
  const contract = (gender: 'femme' | 'homme') =>
    JSON.stringify(
      contractDocument({
        agency: agencyIdentity(SAMPLE_AGENCY),
        email: 'nadia@example.org',
        form: { fullName: 'Nadia Kaci', address: '3 place Bellecour', postcode: '69002', city: 'Lyon', signature: 'Nadia Kaci' },
        profile: { birthDate: '1994-03-12', phone: '+33612345678' },
        gender,
        questionnaire,
        plan: planById('plan_serenity_month'),
        renounced: false,
        couponApplied: false,
        formCompletedAt: new Date('2026-11-20T10:00:00Z'),
        signedAt: null,
        datedAt: new Date('2026-11-21T09:00:00Z'),
      }),
    );

  it.each(['femme', 'homme'] as const)('speaks of a %s in their gender, with the glossary’s words', (gender) => {
    const text = contract(gender);
    expect(findings(`contrat (${gender})`, text)).toEqual([]);
    expect(text).not.toMatch(INCLUSIVE);
    expect(text).toContain(gender === 'femme' ? 'née le 12 mars 1994' : 'né le 12 mars 1994');
    // The woman seeks a man: « Divorcé »; the man a woman: « Divorcée ».
    expect(text).toMatch(gender === 'femme' ? /Célibataire, Divorcé[,\s]/ : /Célibataire, Divorcée/);
    expect(text).toContain('06 12 34 56 78');
  });
});
