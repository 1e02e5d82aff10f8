import { beforeAll, describe, expect, it } from 'vitest';
import { steps } from '#machines/onboarding/steps.ts';
import { activePlans, FILE_FEE_CENTS, formatEuros, type PayInFullSetting } from '#machines/onboarding/plans.ts';
import { DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { escapeHtml, fillTokens } from '#machines/public-site/fill-tokens.ts';
import { formatPrice, siteValues } from '#machines/public-site/site-tokens.ts';
import { renderPage } from '#src/entry-prerender.tsx';

/**
 * The home page as prerendered (issue 21, decision 125): designed sections in the HTML itself —
 * step cards with icons, plan cards from the app's plans, testimonials, FAQ as native disclosure
 * widgets, pictures through the image endpoint — not a column of Markdown.
 */
let html = '';
beforeAll(async () => {
  const page = await renderPage('/');
  expect(page.status).toBe(200);
  html = page.html;
}, 60_000);

/** The HTML of the `<section>` labelled by `id`. */
function section(id: string): string {
  const start = html.indexOf(`aria-labelledby="${id}"`);
  expect(start, `section ${id}`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</section>', start));
}
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');
/** The direct `<li>` items of the first list of `fragment`. */
function items(fragment: string, tag: 'ol' | 'ul'): string[] {
  const list = fragment.slice(fragment.indexOf(`<${tag} `));
  const out: string[] = [];
  let depth = 0;
  let from = -1;
  for (const match of list.matchAll(/<(\/?)li\b[^>]*>|<\/(ol|ul)>/g)) {
    if (match[2] && depth === 0) break;
    if (match[2]) continue;
    if (!match[1]) {
      if (depth === 0) from = match.index;
      depth += 1;
    } else {
      depth -= 1;
      if (depth === 0) out.push(list.slice(from, match.index));
    }
  }
  return out;
}

describe('the home page (issue 21)', () => {
  it('shows « comment ça marche » as the chart’s steps: one card each, with an icon, its number and its title', () => {
    const cards = items(section('home-steps'), 'ol');
    expect(cards).toHaveLength(steps.length);
    cards.forEach((card, index) => {
      expect(card).toMatch(/<svg[^>]*aria-hidden="true"/);
      expect(card.replaceAll('<!-- -->', '')).toContain(`Étape ${index + 1}`);
      expect(card).toContain(`<h3>${steps[index]?.title}</h3>`);
    });
    expect(plain(section('home-steps'))).toContain('Neuf étapes, à votre rythme');
  });

  it('shows trust signals and what the agency offers as cards with icons', () => {
    const trust = html.slice(html.indexOf('aria-label="Nos engagements"'));
    expect(items(trust, 'ul')).toHaveLength(4);
    for (const item of items(trust, 'ul')) expect(item).toMatch(/<svg[^>]*aria-hidden="true"/);
    const offer = items(section('home-offer'), 'ul');
    expect(offer.map((item) => /<h3>([^<]+)<\/h3>/.exec(item)?.[1])).toEqual([
      'Une écoute personnelle',
      'Des propositions réfléchies',
      'Un cadre respectueux',
      'Une discrétion absolue',
    ]);
  });

  it.each(['cash', 'cashback'] as PayInFullSetting[])('shows plan cards with the prices the app charges (%s)', (setting) => {
    const plans = plain(fillTokens(section('plans-title'), siteValues(DEMO_AGENCY_IDENTITY, setting), escapeHtml));
    const cards = items(plans, 'ul');
    const active = activePlans(setting);
    const monthly = active.filter((plan) => plan.type === 'monthly');
    expect(cards).toHaveLength(monthly.length + 1);
    monthly.forEach((plan, index) => {
      const card = cards[index] as string;
      const inFull = active.find((other) => other.name === plan.name && other.type !== 'monthly');
      expect(card).toContain(plan.title);
      // As the app's « Formules » step prints it (formatEuros), and the pay-in-full as the copy's tokens.
      expect(card).toContain(plain(formatEuros(plan.priceCents)));
      expect(card).toContain(`${plain(formatPrice(inFull?.totalCents ?? 0))} en une seule fois`);
      for (const feature of plan.features) expect(card.replaceAll('&#x27;', "'")).toContain(feature);
      expect(card).toContain('href="/formulaire-inscription"');
    });
    expect(cards[monthly.length]).toContain(plain(formatEuros(FILE_FEE_CENTS)));
  });

  it('shows illustrative testimonials as figures and the FAQ as native disclosure widgets', () => {
    const testimonials = section('testimonials-title');
    expect(testimonials.match(/<figure>/g)).toHaveLength(3);
    expect(testimonials.match(/<blockquote>/g)).toHaveLength(3);
    expect(testimonials.match(/témoignage illustratif/g)).toHaveLength(3);
    const faq = section('faq-title');
    expect(faq.match(/<details /g)).toHaveLength(6);
    expect(faq.match(/<summary /g)).toHaveLength(6);
  });

  it('shows its pictures through the image endpoint, sized, described and lazy', () => {
    const pictures = [...html.matchAll(/<img [^>]*src="\/_image\?url=%2Fimages%2Faccueil%2F[^"]+"[^>]*>/g)].map((match) => match[0]);
    expect(pictures).toHaveLength(2);
    for (const picture of pictures) {
      expect(picture).toMatch(/srcSet="[^"]*320w, [^"]*640w, [^"]*1024w"/);
      expect(picture).toMatch(/alt="[^"]{20,}"/);
      expect(picture).toContain('width="1600"');
      expect(picture).toContain('height="1200"');
      expect(picture).toContain('loading="lazy"');
    }
  });

  it('keeps the agency’s text as one section beside a picture, not the page’s only column', () => {
    const about = section('une-agence-pensee-pour-le-mariage-et-seulement-pour-le-mariage');
    expect(about).toContain('/_image?url=%2Fimages%2Faccueil%2Fsalon.jpg');
    expect(about).toContain('Notre rôle est celui d');
    // The sections that replace the old Markdown come after it, each its own section.
    for (const id of ['home-offer', 'home-steps', 'plans-title', 'testimonials-title', 'faq-title']) section(id);
  });
});
