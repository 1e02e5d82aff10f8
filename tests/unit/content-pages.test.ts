import { beforeAll, describe, expect, it } from 'vitest';
import { steps as journey } from '#machines/onboarding/steps.ts';
import { listSteps, sectionKind, splitContent, stripNumber, tableOfContents } from '#src/features/public-site/content-sections.ts';
import { stepIcon } from '#src/features/public-site/page-sections.tsx';
import { renderPage } from '#src/entry-prerender.tsx';

/**
 * The public content pages in the home page's design language (issue 21, decision 130): their
 * Markdown cut into sections (pure functions), and the pages as prerendered — hero band, value
 * cards with icons, step cards, plan cards, a table of contents on the legal pages — not one
 * column of Markdown.
 */

const MARKDOWN_HTML = [
  '<p>Intro.</p>',
  '<h2 id="nos-valeurs">Nos valeurs</h2>',
  '<p>Ce qui nous guide.</p>',
  '<h3 id="la-sincerite">La sincérité</h3>',
  '<p>Dire vrai.</p>',
  '<h3 id="le-respect">Le respect</h3>',
  '<p>De chacun.</p>',
  '<h2 id="votre-parcours">Votre parcours</h2>',
  '<ol>',
  '<li><strong>Pré-inscription</strong> : une minute.</li>',
  '<li><strong>Contrat</strong> : sans reconduction.</li>',
  '</ol>',
  '<p>Le détail.</p>',
  '<h2 id="etapes">Les étapes</h2>',
  '<h3 id="1-a">1. La pré-inscription</h3>',
  '<p>A.</p>',
  '<h3 id="2-b">2. Le contrat</h3>',
  '<p>B.</p>',
  '<h2 id="questions">Vos questions</h2>',
  '<h3 id="q1">Dois-je envoyer une photo ?</h3>',
  '<p>Non.</p>',
  '<h2 id="charte">Notre charte</h2>',
  '<p>Tout membre s&#39;engage.</p>',
].join('\n');

describe('cutting a content page into sections', () => {
  const { intro, sections } = splitContent(MARKDOWN_HTML);

  it('keeps the text before the first heading, then one section per h2 with its h3 parts', () => {
    expect(intro).toBe('<p>Intro.</p>');
    expect(sections.map((section) => section.id)).toEqual(['nos-valeurs', 'votre-parcours', 'etapes', 'questions', 'charte']);
    const values = sections[0];
    expect(values?.title).toBe('Nos valeurs');
    expect(values?.html).toBe('<p>Ce qui nous guide.</p>');
    expect(values?.parts).toEqual([
      { id: 'la-sincerite', title: 'La sincérité', html: '<p>Dire vrai.</p>' },
      { id: 'le-respect', title: 'Le respect', html: '<p>De chacun.</p>' },
    ]);
    expect(sections[2]?.html).toBe('');
    expect(sections[2]?.parts).toHaveLength(2);
  });

  it('chooses a layout for each section: cards, steps from a list or numbered parts, questions, prose', () => {
    expect(sections.map(sectionKind)).toEqual(['cards', 'list-steps', 'steps', 'questions', 'prose']);
    expect(splitContent('<h2 id="x">X</h2><h3 id="y">Seule partie</h3><p>t</p>').sections.map(sectionKind)).toEqual(['prose']);
    expect(splitContent('<p>Sans titre.</p>')).toEqual({ intro: '<p>Sans titre.</p>', sections: [] });
  });

  it('turns an ordered list into steps (title in bold, text without the colon) and keeps what surrounds it', () => {
    const { before, steps, after } = listSteps(sections[1]?.html ?? '');
    expect(before).toBe('');
    expect(steps).toEqual([
      { title: 'Pré-inscription', html: 'une minute.' },
      { title: 'Contrat', html: 'sans reconduction.' },
    ]);
    expect(after).toBe('<p>Le détail.</p>');
    expect(listSteps('<p>Rien</p>')).toEqual({ before: '<p>Rien</p>', steps: [], after: '' });
    expect(stripNumber('11. L&#39;entretien')).toBe('L&#39;entretien');
    expect(stripNumber('9.1. Délai')).toBe('9.1. Délai');
  });

  it('lists the h2 of a page for its table of contents', () => {
    expect(tableOfContents('<h2 id="a">1. <em>Le</em> prestataire</h2><p>x</p><h3 id="b">b</h3><h2 id="c">Annexe</h2>')).toEqual([
      { id: 'a', html: '1. Le prestataire' },
      { id: 'c', html: 'Annexe' },
    ]);
  });

  it('gives each step of the registration its icon', () => {
    expect(stepIcon('Questionnaire de rapprochement')).toBe('target');
    expect(stepIcon('L&#39;entretien de rapprochement')).toBe('handshake');
    expect(stepIcon('Pré-inscription')).toBe('form');
    expect(stepIcon('Le contrat')).toBe('contract');
    expect(stepIcon('Le délai de rétractation')).toBe('clock');
    expect(stepIcon('Autre chose')).toBe('check');
  });
});

const pages = new Map<string, string>();
beforeAll(async () => {
  for (const path of [
    '/qui-sommes-nous',
    '/inscription-agence-matrimoniale-musulmane',
    '/inscription-agence-matrimoniale-musulmane/pour-les-femmes',
    '/inscription-agence-matrimoniale-musulmane/pour-les-hommes',
    '/conditions-generales-de-vente',
    '/mentions-legales',
  ]) {
    const page = await renderPage(path);
    expect(page.status, path).toBe(200);
    pages.set(path, page.html);
  }
}, 120_000);

/** The HTML of the `<section>` labelled by `id` in `html`. */
function section(html: string, id: string): string {
  const start = html.indexOf(`aria-labelledby="${id}"`);
  expect(start, `section ${id}`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</section>', start));
}
const count = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].length;

describe('the content pages as prerendered (issue 21)', () => {
  it('the agency page: a hero band with calls to action, the values as four cards with icons, a picture', () => {
    const html = pages.get('/qui-sommes-nous') ?? '';
    const main = html.slice(html.indexOf('<main'));
    expect(main).toMatch(/<h1[^>]*>Qui sommes-nous.\?<\/h1>/);
    expect(main.slice(0, main.indexOf('Notre mission'))).toContain('Je me pré-inscris');
    const values = section(html, 'nos-valeurs');
    expect(count(values, /<li>/g)).toBe(4);
    expect(count(values, /<svg[^>]*aria-hidden="true"/g)).toBe(4);
    expect(values).toContain('La discrétion');
    expect(html).toMatch(/<img[^>]+src="\/_image\?[^"]*famille\.jpg/);
    // The prose sections lie beside their heading, each in its own band.
    expect(count(html, /<section class="[^"]*" aria-labelledby="(notre-mission|notre-charte|comment-nous-travaillons)"/g)).toBe(3);
  });

  it('the registration pages: the steps as step cards with icons, the plans as the shared plan cards, no Markdown duplicate', () => {
    for (const path of [
      '/inscription-agence-matrimoniale-musulmane/pour-les-femmes',
      '/inscription-agence-matrimoniale-musulmane/pour-les-hommes',
    ]) {
      const html = pages.get(path) ?? '';
      const steps = section(html, 'votre-parcours-d-inscription');
      // The onboarding chart's steps (tests/unit/journey-steps.test.ts checks their names and order).
      expect(count(steps, /<li>/g), path).toBe(journey.length);
      expect(count(steps, /<svg[^>]*aria-hidden="true"/g), path).toBe(journey.length);
      expect(steps.replaceAll('<!-- -->', ''), path).toContain(`Étape ${journey.length}`);
      expect(section(html, 'plans-title'), path).toContain('Je me pré-inscris');
      expect(html, path).not.toContain('id="les-formules-en-detail"');
      expect(html, path).not.toContain('id="temoignage-illustratif"');
      // Their questions are disclosure widgets.
      expect(count(section(html, 'vos-questions'), /<details/g), path).toBe(3);
    }
    const overview = pages.get('/inscription-agence-matrimoniale-musulmane') ?? '';
    const steps = section(overview, 'les-etapes-de-l-inscription');
    expect(count(steps, /<li>/g)).toBe(journey.length);
    expect(steps).toContain(`<h3>${journey[0]?.title}</h3>`);
    expect(overview).not.toContain('<table');
  });

  it('the legal pages: one readable column beside a table of contents of every heading', () => {
    for (const path of ['/conditions-generales-de-vente', '/mentions-legales']) {
      const html = pages.get(path) ?? '';
      const nav = html.slice(
        html.indexOf('aria-labelledby="toc-title"'),
        html.indexOf('</nav>', html.indexOf('aria-labelledby="toc-title"')),
      );
      const ids = [...html.matchAll(/<h2 id="([^"]+)"/g)]
        .map((match) => match[1])
        .filter((id) => !id?.startsWith('footer-') && id !== 'cta-title');
      expect(ids.length, path).toBeGreaterThan(5);
      for (const id of ids) expect(nav, `${path} #${id}`).toContain(`href="#${id}"`);
    }
  });
});
