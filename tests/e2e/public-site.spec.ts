import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { CONSENT_VERSION } from '#machines/public-site/consent.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';

/**
 * The public site (issue 4) in Debian's Chromium against the real server: every public page
 * prerendered (status 200, French, canonical and og:url in the HTML before any script, and after
 * client navigation), 404 for unknown paths, header/footer links, the mobile panel, the forms,
 * and the cookie banner (nothing before a choice; refuse and accept both persist).
 */

const PUBLIC_PAGES: { path: string; h1: RegExp }[] = [
  { path: '/', h1: /Trouver son conjoint/ },
  { path: '/bio', h1: /Union Sincère/ },
  { path: '/blog', h1: /Conseils et repères/ },
  { path: '/blog/preparer-un-mariage-halal', h1: /Préparer un mariage halal/ },
  { path: '/conditions-generales-de-vente', h1: /Conditions générales de vente/ },
  { path: '/mentions-legales', h1: /Mentions légales/ },
  { path: '/politique-de-confidentialite', h1: /Politique de confidentialité/ },
  { path: '/qui-sommes-nous', h1: /Qui sommes-nous/ },
  { path: '/contactez-agence-matrimoniale-musulmane', h1: /Contactez-nous/ },
  { path: '/formulaire-inscription', h1: /Pré-inscription/ },
  { path: '/inscription-agence-matrimoniale-musulmane', h1: /S’inscrire chez Union Sincère/ },
  { path: '/inscription-agence-matrimoniale-musulmane/pour-les-femmes', h1: /Sœurs/ },
  { path: '/inscription-agence-matrimoniale-musulmane/pour-les-hommes', h1: /Frères/ },
  { path: '/pre-inscription/merci', h1: /Merci/ },
];

/** WCAG 2.1 A/AA violations found by axe, as `rule: target` lines (empty when none). */
async function accessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
}

/** Console errors, minus the browser's own line for the expected 401 of a signed-out visitor's settings. */

async function headUrls(page: Page) {
  return {
    canonical: await page.locator('link[rel="canonical"]').getAttribute('href'),
    ogUrl: await page.locator('meta[property="og:url"]').getAttribute('content'),
  };
}

test.describe('public pages', () => {
  test.beforeEach(async ({ context }) => skipConsentBanner(context, CONSENT_VERSION));

  for (const { path, h1 } of PUBLIC_PAGES) {
    test(`${path} is prerendered, French, with its canonical and og:url, and renders without console error`, async ({
      page,
      request,
      baseURL,
    }) => {
      // The HTML itself (before any script) holds the content and the head tags.
      const raw = await request.get(path);
      expect(raw.status()).toBe(200);
      const html = await raw.text();
      expect(html).toContain('<html lang="fr">');
      expect(html).toContain(`<link rel="canonical" href="${baseURL}${path}" />`);
      expect(html).toContain(`<meta property="og:url" content="${baseURL}${path}" />`);
      expect(html).toMatch(/<meta property="og:image" content="http[^"]+" \/>/);
      expect(html).toMatch(/<meta name="description" content="[^"]{50,}" \/>/);
      expect(html).not.toContain('__PUBLIC_SITE_URL__');
      expect(
        html
          .replace(/<[^>]+>/g, ' ')
          .replace(/&#39;|&#x27;/g, "'")
          .replace(/&amp;/g, '&'),
      ).toMatch(h1);

      const errors = watchConsole(page);
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page.locator('h1')).toHaveText(h1);
      await expect(page.locator('main')).toHaveCount(1);
      await expect(page.locator('main')).toContainText(/ vous | nous | votre | les /);
      // No section title twice on one page (a content page and its React sections once both had one).
      const titles = (await page.locator('h1, h2, h3').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
      expect(titles.filter((title, index) => titles.indexOf(title) !== index)).toEqual([]);
      expect(await headUrls(page)).toEqual({ canonical: `${baseURL}${path}`, ogUrl: `${baseURL}${path}` });
      expect(await page.title()).not.toBe('');
      for (const image of await page.locator('img').all()) expect(await image.getAttribute('alt')).not.toBeNull();
      await page.waitForLoadState('networkidle');
      // The HTML inlines only the rules it uses; the full stylesheets apply once the SPA starts (decision 092).
      await expect
        .poll(() =>
          page.evaluate(() => {
            const links = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
            // Vite's own links (lazy chunks' CSS) have no media; ours get theirs back once loaded.
            return links.length > 0 && links.every((link) => !link.disabled && ['', 'all'].includes(link.media) && link.sheet !== null);
          }),
        )
        .toBe(true);
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  }

  test('unknown paths and unknown articles answer 404 with the French error page, inside the site layout', async ({ page }) => {
    const errors = watchConsole(page, [404]);
    for (const path of ['/page-qui-n-existe-pas', '/blog/article-inconnu', '/qui-sommes-nous/plus']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page).toHaveTitle('Page introuvable (404) — Union Sincère');
      await expect(page.getByRole('heading', { level: 1, name: 'Page introuvable' })).toBeVisible();
      await expect(page.getByText(`Page introuvable : ${path}`)).toBeVisible();
      await expect(page.getByRole('link', { name: 'Retour à l’accueil' })).toHaveAttribute('href', '/');
      // The site's header and footer, and a few useful links.
      await expect(page.locator('header').first()).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Plan du site' })).toBeVisible();
      const useful = page.getByRole('navigation', { name: 'Vous cherchiez peut-être' });
      await expect(useful.getByRole('link', { name: 'Nous contacter' })).toHaveAttribute(
        'href',
        '/contactez-agence-matrimoniale-musulmane',
      );
      await expect(useful.getByRole('link', { name: 'Le blog' })).toHaveAttribute('href', '/blog');
      await expect(page.getByText(/Not Found|Page not found|Go back home/)).toHaveCount(0);
    }
    await screenshots(page, 'page-introuvable');
    await page.getByRole('link', { name: 'Retour à l’accueil' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('h1')).toHaveText(/Trouver son conjoint/);
    expect(errors).toEqual([]);
  });

  test('sitemap.xml lists the public pages at the public address; robots.txt points to it', async ({ request, baseURL }) => {
    const sitemap = await request.get('/sitemap.xml');
    expect(sitemap.status()).toBe(200);
    const xml = await sitemap.text();
    for (const path of ['/', '/blog', '/qui-sommes-nous', '/blog/preparer-un-mariage-halal'])
      expect(xml).toContain(`<loc>${baseURL}${path}</loc>`);
    expect(xml).not.toContain('/pre-inscription/merci');
    expect(xml).not.toContain('erreurs-a-eviter'); // a draft
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });

  test('a signed-in page’s shell asks for the session once, with the page (decision 115)', async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/auth/session') asked.push(request.url());
    });
    await page.goto('/mon-compte/inscription/profil');
    // Signed out: the member area's guard sends to the sign-in page, from the preloaded answer.
    await expect(page).toHaveURL(/\/connexion\?redirect=/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(asked).toHaveLength(1);
  });

  test('a framed step’s shell shows its heading and introduction before any script runs (decision 142)', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    for (const [step, frame] of Object.entries(STEP_FRAMES)) {
      const path = `/mon-compte/inscription/${step}`;
      expect((await page.goto(path))?.status(), path).toBe(200);
      await expect(page, path).toHaveTitle(`${frame.title} — Union Sincère`);
      await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(frame.title);
      await expect(page.getByText(frame.intro), path).toBeVisible();
      await expect(page.getByRole('status'), path).toHaveText('Chargement de votre espace…');
      // Styled by its own inlined rules, as the step's page draws it: not the browser's defaults.
      expect(await page.locator('h1').evaluate((h1) => getComputedStyle(h1).fontSize), path).toBe('30px');
      if (step === 'profil') await screenshots(page, 'coquille-etape-profil');
    }
    // Any other signed-in page keeps the generic shell.
    await page.goto('/mon-compte/messages');
    await expect(page.getByRole('status')).toHaveText('Chargement de votre espace…');
    await expect(page.getByRole('heading')).toHaveCount(0);
    await context.close();
  });

  test('a signed-in page’s shell paints at once and preloads its own route’s code (decision 115)', async ({ request }) => {
    for (const [path, chunk] of [
      ['/mon-compte/inscription/profil', /rel="modulepreload"[^>]*href="\/assets\/profil-[\w-]+\.js"/],
      ['/dashboard/member/0b6c9f7e-2f6e-4a53-9a43-1d2f3c4b5a69', /rel="modulepreload"[^>]*href="\/assets\/_memberId-[\w-]+\.js"/],
    ] as const) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      const html = await response.text();
      expect(html, path).toContain('<div data-shell');
      expect(html, path).toContain('<link rel="preload" href="/api/v1/auth/session" as="fetch" crossorigin />');
      expect(html, path).toMatch(chunk);
      // The guards' code that `beforeLoad` fetches is preloaded too, not found one round trip later.
      for (const guard of ['session-settings', 'guards'])
        expect(html, path).toMatch(new RegExp(`rel="modulepreload"[^>]*href="/assets/${guard}-[\\w-]+\\.js"`));
      expect(/step-guard-/.test(html), path).toBe(path.startsWith('/mon-compte/'));
      // No stylesheet holds the first paint back: each is switched on by the SPA, and fetched with the page.
      const stylesheets = html.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
      expect(
        stylesheets.every((tag) => tag.includes('disabled')),
        path,
      ).toBe(true);
      for (const tag of stylesheets)
        expect(html, path).toContain(`<link rel="preload" as="style" crossorigin href="${/href="([^"]+)"/.exec(tag)?.[1]}" />`);
    }
    // A member's file names its two answers in a Link header to staff only (decisions 135, 160;
    // member-follow-up.spec.ts): a visitor, sent on to the sign-in page, must not fetch them.
    const member = await request.get('/dashboard/member/0b6c9f7e-2f6e-4a53-9a43-1d2f3c4b5a69');
    expect(member.headers().link).toBeUndefined();
    expect(member.headers().vary).toBe('Accept-Encoding, Cookie');
    // Its top is drawn without the dialog library: the delete-note dialog loads once a note of one's own shows (decision 159).
    const memberShell = await member.text();
    expect(memberShell).toMatch(/rel="modulepreload"[^>]*href="\/assets\/staff-[\w-]+\.js"/);
    expect(memberShell).not.toMatch(/href="\/assets\/dialog-[\w-]+\.js"/);
    expect((await request.get('/mon-compte/inscription/profil')).headers().link).toBeUndefined();
    // The account home's guard asks for the member's step: what the step guard imports comes with
    // the page too (the onboarding's state and its steps), not one round trip after the guard.
    const home = await (await request.get('/mon-compte')).text();
    for (const chunk of ['step-guard', 'wizard', 'steps'])
      expect(home).toMatch(new RegExp(`rel="modulepreload"[^>]*href="/assets/${chunk}-[\\w-]+\\.js"`));
    // A page whose guard does not ask (the messages) does not fetch them.
    expect(await (await request.get('/mon-compte/messages')).text()).not.toMatch(/href="\/assets\/wizard-/);
  });

  test('every header and footer link leads to a page that answers 200', async ({ page, request }) => {
    await page.goto('/');
    const hrefs = new Set<string>();
    for (const link of await page.locator('header a[href^="/"], footer a[href^="/"]').all()) {
      const href = await link.getAttribute('href');
      if (href) hrefs.add(href);
    }
    expect(hrefs.size).toBeGreaterThanOrEqual(10);
    for (const href of hrefs) expect((await request.get(href)).status(), href).toBe(200);
    // The social links come from configuration and are hidden when none is set (decision 198): the
    // demo agency has none, so its footer links nowhere outside (prerendered-pages.test.ts shows them set).
    expect(await page.locator('footer a[href^="https://"]').count()).toBe(0);
  });

  test('client navigation updates title, canonical and og:url, and keeps links inside the SPA', async ({ page, baseURL }) => {
    const errors = watchConsole(page);
    await page.goto('/');
    await page.evaluate(() => {
      (window as unknown as { spaMarker: boolean }).spaMarker = true;
    });
    await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'L’agence' }).click();
    await expect(page).toHaveURL(/\/qui-sommes-nous$/);
    await expect(page.locator('h1')).toHaveText('Qui sommes-nous ?');
    await expect.poll(() => headUrls(page)).toEqual({ canonical: `${baseURL}/qui-sommes-nous`, ogUrl: `${baseURL}/qui-sommes-nous` });
    await expect(page).toHaveTitle(/Qui sommes-nous/);
    // A link inside the Markdown copy navigates without reloading the page.
    await page.goto('/');
    await page.evaluate(() => {
      (window as unknown as { spaMarker: boolean }).spaMarker = true;
    });
    // The copy is a deferred part of the prerendered page, hydrated once the page is idle: until then
    // its links load the page like any link (CI once clicked before). Wait for its click handler.
    const copyLink = page.locator('main').getByRole('link', { name: 'Inscription', exact: true }).first();
    await expect
      .poll(() =>
        copyLink.evaluate((link) => {
          for (let node: Element | null = link; node; node = node.parentElement) {
            const props = Object.entries(node).find(([key]) => key.startsWith('__reactProps$'))?.[1] as { onClick?: unknown } | undefined;
            if (props?.onClick) return true;
          }
          return false;
        }),
      )
      .toBe(true);
    await copyLink.click();
    await expect(page).toHaveURL(/\/inscription-agence-matrimoniale-musulmane$/);
    expect(await page.evaluate(() => (window as unknown as { spaMarker?: boolean }).spaMarker)).toBe(true);
    await expect
      .poll(() => headUrls(page))
      .toEqual({
        canonical: `${baseURL}/inscription-agence-matrimoniale-musulmane`,
        ogUrl: `${baseURL}/inscription-agence-matrimoniale-musulmane`,
      });
    // Blog list → article.
    await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Blog' }).click();
    await page.getByRole('link', { name: /Préparer un mariage halal/ }).click();
    await expect(page.locator('h1')).toHaveText(/Préparer un mariage halal/);
    await expect
      .poll(() => headUrls(page))
      .toEqual({
        canonical: `${baseURL}/blog/preparer-un-mariage-halal`,
        ogUrl: `${baseURL}/blog/preparer-un-mariage-halal`,
      });
    expect(errors).toEqual([]);
  });

  test('the mobile panel opens, and closes on navigation', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Menu' }).click();
    const panel = page.getByRole('dialog', { name: /Menu/ });
    await expect(panel).toBeVisible();
    // Not in the page's HTML, so not in its inlined rules: styled by the full stylesheet.
    await expect(panel).toHaveCSS('position', 'fixed');
    await panel.getByRole('link', { name: 'Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(panel).toBeHidden();
    await expect(page.locator('h1')).toHaveText(/Conseils et repères/);
    // Also when the route changes by other means (browser back).
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(panel).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await expect(panel).toBeHidden();
  });

  test('pre-registration: French errors per field, then the thank-you page', async ({ page }) => {
    const errors = watchConsole(page);
    await page.goto('/formulaire-inscription?genre=femme');
    await expect(page.getByRole('radio', { name: 'Je suis une femme' })).toBeChecked();
    await page.getByRole('button', { name: 'Je me pré-inscris' }).click();
    await expect(page.getByText('Email invalide')).toBeVisible();
    await expect(page.getByText('Indiquez un âge entre 18 et 99 ans')).toBeVisible();
    await expect(page.getByText('Code postal invalide (5 chiffres)')).toBeVisible();
    await expect(page.getByText('Vous devez accepter la politique de confidentialité pour continuer')).toBeVisible();
    await expect(page.getByLabel('Adresse e-mail')).toBeFocused();
    await page.getByLabel('Adresse e-mail').fill(`soeur.${Date.now()}@example.fr`);
    await page.getByLabel('Âge').fill('27');
    await page.getByLabel('Code postal').fill('69003');
    await page.getByLabel('Ville').fill('Lyon');
    await page.getByRole('checkbox', { name: /J’accepte que mes informations/ }).check();
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/v1/subscription/pre-subscription'));
    await page.getByRole('button', { name: 'Je me pré-inscris' }).click();
    expect((await posted).status()).toBe(201);
    await expect(page).toHaveURL(/\/pre-inscription\/merci$/);
    await expect(page.locator('h1')).toHaveText(/Merci/);
    expect(errors).toEqual([]);
  });

  test('contact: the message is sent to the agency', async ({ page }) => {
    const errors = watchConsole(page);
    await page.goto('/contactez-agence-matrimoniale-musulmane');
    const form = page.getByRole('complementary', { name: 'Formulaire' });
    await form.getByRole('button', { name: 'Envoyer mon message' }).click();
    await expect(form.getByText('Indiquez votre nom ou votre prénom')).toBeVisible();
    await form.getByLabel('Nom ou prénom').fill('Amina');
    await form.getByLabel('Adresse e-mail').fill('amina@example.fr');
    await form.getByLabel('Objet').selectOption('Mon inscription');
    await form.getByLabel('Message', { exact: true }).fill('Bonjour, puis-je associer mon frère dès le premier échange ?');
    await form.getByRole('checkbox').check();
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/v1/contact'));
    await form.getByRole('button', { name: 'Envoyer mon message' }).click();
    expect((await posted).status()).toBe(201);
    await expect(form.getByText('Merci, votre message est bien envoyé.')).toBeVisible();
    expect(errors).toEqual([]);
  });
});

test.describe('cookie consent', () => {
  const isAnalytics = (url: string) => /googletagmanager\.com|google-analytics\.com|doubleclick\.net|analytics\.google\.com/.test(url);

  test('nothing but necessary before a choice; refusing hides the banner, is proven and persists', async ({ page }) => {
    const analytics: string[] = [];
    page.on('request', (request) => {
      if (isAnalytics(request.url())) analytics.push(request.url());
    });
    await page.goto('/');
    const banner = page.getByRole('region', { name: 'Vos choix sur les cookies' });
    await expect(banner).toBeVisible();
    expect(await accessibilityViolations(page)).toEqual([]);
    // Refusing is one click, next to accepting, with the same look.
    const refuse = banner.getByRole('button', { name: 'Tout refuser' });
    const accept = banner.getByRole('button', { name: 'Tout accepter' });
    expect(await refuse.getAttribute('class')).toBe(await accept.getAttribute('class'));
    expect(await page.evaluate(() => window.localStorage.getItem('union:cookie-consent'))).toBeNull();
    const cookies = await page.context().cookies();
    expect(cookies.filter((c) => !/^sb-/.test(c.name))).toEqual([]);
    const dataLayer = await page.evaluate(() => JSON.stringify((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []));
    expect(dataLayer).toContain('"ad_storage":"denied"');
    expect(dataLayer).toContain('"analytics_storage":"denied"');
    expect(dataLayer).not.toContain('gtm.js');

    const proof = page.waitForRequest((r) => r.url().endsWith('/api/v1/consent') && r.method() === 'POST');
    await refuse.click();
    const body = (await proof).postDataJSON() as { anonymousId: string; version: string; choices: Record<string, boolean> };
    expect(body.version).toBe(CONSENT_VERSION);
    expect(body.choices).toEqual({ functional: false, statistic: false, marketing: false, unclassified: false });
    await expect(banner).toBeHidden();
    const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem('union:cookie-consent') ?? 'null'));
    expect(stored).toMatchObject({ version: CONSENT_VERSION, anonymousId: body.anonymousId, choices: body.choices });
    expect(Date.now() - new Date(stored.date).getTime()).toBeLessThan(60_000);

    await page.reload();
    await page.getByRole('navigation', { name: 'Navigation principale' }).getByRole('link', { name: 'Blog' }).click();
    await expect(page.locator('h1')).toHaveText(/Conseils et repères/);
    await expect(page.getByRole('region', { name: 'Vos choix sur les cookies' })).toBeHidden();
    await page.waitForLoadState('networkidle');
    expect(analytics).toEqual([]);
    expect(await page.locator('script[src*="googletagmanager"]').count()).toBe(0);
  });

  test('accepting loads the tag manager (when a GTM id is configured) after Consent Mode defaults, and persists', async ({ page }) => {
    // This server has no GTM_ID: pretend one is configured, and answer GTM's script locally.
    await page.route('**/api/v1/public-config', (route) =>
      route.fulfill({ json: { gtmId: 'GTM-TEST123', consentVersion: CONSENT_VERSION, siteUrl: 'http://localhost' } }),
    );
    const configRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/public-config')) configRequests.push(request.url());
    });
    await page.goto('/');
    const banner = page.getByRole('region', { name: 'Vos choix sur les cookies' });
    await expect(banner).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(configRequests).toEqual([]);
    expect(await page.locator('script[src*="googletagmanager"]').count()).toBe(0);

    await banner.getByRole('button', { name: 'Tout accepter' }).click();
    await expect(banner).toBeHidden();
    await expect(page.locator('script[src="https://www.googletagmanager.com/gtm.js?id=GTM-TEST123"]')).toHaveCount(1);
    const order = await page.evaluate(() =>
      ((window as unknown as { dataLayer: unknown[] }).dataLayer ?? []).map((entry) => {
        const values = Array.from(entry as ArrayLike<unknown>);
        return values.length > 0 ? `${String(values[0])}:${String(values[1])}` : String((entry as { event?: string }).event);
      }),
    );
    expect(order.indexOf('consent:default')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('consent:default')).toBeLessThan(order.indexOf('consent:update'));
    expect(order.indexOf('consent:update')).toBeLessThan(order.indexOf('gtm.js'));
    const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem('union:cookie-consent') ?? 'null'));
    expect(stored.choices).toEqual({ functional: true, statistic: true, marketing: true, unclassified: true });

    await page.reload();
    await expect(page.getByRole('region', { name: 'Vos choix sur les cookies' })).toBeHidden();
    await expect(page.locator('script[src="https://www.googletagmanager.com/gtm.js?id=GTM-TEST123"]')).toHaveCount(1);
  });

  test('the member area asks nothing by itself and loads no tag, even when accepted; « Gérer les cookies » still opens the choices', async ({
    page,
    baseURL,
  }) => {
    // Decision 134. A GTM id as in production (answered locally: no network here).
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.route('**/api/v1/public-config', (route) =>
      route.fulfill({ json: { gtmId: 'GTM-TEST123', consentVersion: CONSENT_VERSION, siteUrl: 'http://localhost' } }),
    );
    await page.route('https://www.googletagmanager.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: '' }));
    const gtm = page.locator('script[src*="googletagmanager"]');
    const banner = page.getByRole('region', { name: 'Vos choix sur les cookies' });
    const signin = await page.request.post('/api/v1/auth/signin', {
      data: { email: 'amina@demo.union-sincere.fr', password: 'figuier-lanterne-2026' },
      headers: { origin: baseURL as string },
    });
    expect(signin.status()).toBe(200);

    // On the public site the banner asks; accepting loads the tag manager there.
    await page.goto('/');
    await banner.getByRole('button', { name: 'Tout accepter' }).click();
    await expect(gtm).toHaveCount(1);
    // Into the member area: the page is loaded afresh, without the tag manager.
    await page.getByRole('link', { name: 'Mon compte', exact: true }).first().click();
    await expect(page).toHaveURL(/\/mon-compte/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(gtm).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    await expect(gtm).toHaveCount(0);

    // No choice stored: the member area still asks nothing by itself, once idle…
    await page.evaluate(() => window.localStorage.removeItem('union:cookie-consent'));
    // The page's clock, moved past the idle callback's 2 s timeout instead of waiting for it.
    await page.clock.install();
    await page.goto('/mon-compte/messages');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await page.clock.runFor(2500);
    await expect(banner).toHaveCount(0);
    // …and the footer's « Gérer les cookies » opens the choices; accepting there loads no tag.
    await page.getByRole('button', { name: 'Gérer les cookies' }).click();
    await expect(banner).toBeVisible();
    await banner.getByRole('button', { name: 'Tout accepter' }).click();
    await expect(banner).toBeHidden();
    await page.waitForLoadState('networkidle');
    await expect(gtm).toHaveCount(0);
  });

  test('the footer reopens the banner with the categories; a custom choice is kept', async ({ page }) => {
    await page.goto('/mentions-legales');
    const banner = page.getByRole('region', { name: 'Vos choix sur les cookies' });
    await banner.getByRole('button', { name: 'Tout refuser' }).click();
    await expect(banner).toBeHidden();
    await page.getByRole('button', { name: 'Gérer les cookies' }).click();
    await expect(banner).toBeVisible();
    await expect(banner).toBeFocused();
    await expect(banner.getByRole('checkbox', { name: /Nécessaires/ })).toBeDisabled();
    expect(await accessibilityViolations(page)).toEqual([]);
    await expect(banner.getByRole('checkbox', { name: /Statistiques/ })).not.toBeChecked();
    await banner.getByRole('checkbox', { name: /Fonctionnels/ }).check();
    await banner.getByRole('button', { name: 'Enregistrer mes choix' }).click();
    await expect(banner).toBeHidden();
    const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem('union:cookie-consent') ?? 'null'));
    expect(stored.choices).toEqual({ functional: true, statistic: false, marketing: false, unclassified: false });
    await page.reload();
    await page.getByRole('button', { name: 'Gérer les cookies' }).click();
    await expect(banner.getByRole('checkbox', { name: /Fonctionnels/ })).toBeChecked();
  });
});
