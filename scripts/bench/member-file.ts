/**
 * `npm run bench:member-file`: how soon a member's file shows its top (issue 63 point 2, decision
 * 209). A measure, not a test.
 *
 * Starts the built product as a newcomer's `npm start` does, with the demo agency (a fresh data
 * folder, PGlite, port BENCH_PORT or 4213), signs in as the demo administrator (password and TOTP,
 * through the API), then opens the file of the demo's active members in Debian's Chromium at
 * 1440 × 900, one page after the other, RUNS times (BENCH_RUNS, default 20) after one unmeasured
 * opening that fills the browser's cache. Each opening is timed in the page, from the navigation's
 * start to the frame that first holds the header (`member-header`), and the first tab's content
 * (« Profil »: its « Actions de l’équipe »). No throttling: loopback, the desktop's CPU.
 *
 * Prints the median and p95 of both; exits 1 when the header's median is 1 s or more. Writes the
 * section « Member file » of docs/benchmarks.md unless BENCH_NO_WRITE=1.
 */
import { cpus, loadavg } from 'node:os';
import { chromium, request as playwrightRequest } from '@playwright/test';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { signInDemoAdministrator, startDemoAgencyProduct } from '#tests/e2e/support/demo-agency.ts';
import { ensureBuilt, median, writeSection } from './support.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4213);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 20) || 20);
const FLOOR_MS = 1000;
const base = `http://localhost:${PORT}`;

/** The value under which `share` of the figures fall (nearest rank). */
function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? Number.NaN;
}

const ms = (value: number) => `${Math.round(value)} ms`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(', ');

ensureBuilt();
const loadBefore = load();
const product = await startDemoAgencyProduct(PORT, 'bench-member-file');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
let exitCode = 0;
try {
  const api = await playwrightRequest.newContext({ baseURL: base });
  await signInDemoAdministrator(api, base);
  const list = (await (await api.get('/api/v1/dashboard/members?step=membre-actif&perPage=100')).json()) as { items: { id: string }[] };
  const ids = list.items.map((m) => m.id);
  if (ids.length === 0) throw new Error('aucun membre actif dans l’agence de démonstration');
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 }, locale: 'fr-FR' });
  await skipConsentBanner(context);
  await context.addCookies((await api.storageState()).cookies);
  await api.dispose();
  // In the page: the first frame that holds the header, then the first tab's content (ms since the navigation started).
  // A string, not a function: tsx would wrap the function's inner names in a helper the page lacks.
  await context.addInitScript(`
    const marks = {};
    window.__marks = marks;
    const stamp = (key) => {
      marks[key] = -1;
      requestAnimationFrame(() => { marks[key] = performance.now(); });
    };
    const observer = new MutationObserver(() => {
      if (marks.header === undefined && document.querySelector('[data-testid="member-header"]')) stamp('header');
      if (marks.tab === undefined && document.getElementById('actions-title')) stamp('tab');
      if (marks.header !== undefined && marks.tab !== undefined) observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  `);

  const open = async (id: string) => {
    const page = await context.newPage();
    await page.goto(`/dashboard/member/${id}`, { waitUntil: 'commit' });
    await page
      .waitForFunction(
        () => {
          const m = (window as unknown as { __marks?: { header?: number; tab?: number } }).__marks;
          return Boolean(m && (m.header ?? -1) > 0 && (m.tab ?? -1) > 0);
        },
        undefined,
        { timeout: 20_000, polling: 50 },
      )
      .catch(async (error: unknown) => {
        const shown = await page.evaluate(() => ({ url: location.href, text: document.body.innerText.slice(0, 300) }));
        throw new Error(`la fiche ne s’est pas affichée : ${JSON.stringify(shown)}`, { cause: error });
      });
    const marks = await page.evaluate(() => (window as unknown as { __marks: { header: number; tab: number } }).__marks);
    await page.close();
    return marks;
  };

  const cold = await open(ids[0] as string);
  const header: number[] = [];
  const tab: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const marks = await open(ids[run % ids.length] as string);
    header.push(marks.header);
    tab.push(marks.tab);
  }
  await context.close();

  const headerMedian = median(header);
  const met = headerMedian < FLOOR_MS;
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}`;
  const rows = [
    `| Header (name, stage, counsellor, contract, walī) | ${ms(headerMedian)} | ${ms(percentile(header, 0.95))} | ${ms(Math.min(...header))}–${ms(Math.max(...header))} | ${ms(cold.header)} |`,
    `| First tab « Profil » (its actions card) | ${ms(median(tab))} | ${ms(percentile(tab, 0.95))} | ${ms(Math.min(...tab))}–${ms(Math.max(...tab))} | ${ms(cold.tab)} |`,
  ];
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const section = [
    `## Member file — ${when}Z, ${machine}`,
    '',
    `\`npm run bench:member-file\` (decision 209): the demo agency on PGlite, the demo administrator, ${RUNS} openings of ${ids.length} active members' files in Chromium at 1440 px after one cold one, timed in the page from the navigation's start; load average ${loadBefore} before, ${load()} after. Floor: header median < 1 s (${met ? 'met' : '**missed**'}).`,
    '',
    '| Shown | median | p95 | min–max | cold cache |',
    '|---|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
  console.log(section);
  if (process.env.BENCH_NO_WRITE !== '1') writeSection('Member file', section);
  if (!met) {
    console.error(`La fiche montre son en-tête en ${ms(headerMedian)} (médiane) : le plancher est 1 s.`);
    exitCode = 1;
  }
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await browser.close();
  await product.close();
}
process.exit(exitCode);
