/**
 * Lighthouse (mobile preset, Debian's Chromium) on five public pages of the built product:
 *
 *   npm run build && node --import tsx scripts/lighthouse.ts [http://localhost:3000] [--write]
 *
 * Starts the real product (`startProduct`) on a temporary DATA_DIR and a free port (or uses the
 * running server given as argument), runs
 * Lighthouse's default (mobile) configuration on the home page, a registration page, the blog
 * list, an article and a legal page, prints the four category scores and FCP, LCP, TBT, CLS per
 * page, and with `--write` puts the table into docs/benchmarks.md (replacing the previous
 * Lighthouse section; LIGHTHOUSE_NO_WRITE=1 still skips it). LIGHTHOUSE_ONLY=/dashboard/member runs only
 * the pages whose path holds it (never written); LIGHTHOUSE_SAVE=<folder> keeps each page's report
 * (JSON, its median run) there, and each run's trace (`<page>.trace-<n>.json`); LIGHTHOUSE_RUNS=<n> runs each page n times (default 3, decision 140). Targets (decision 162): `TARGETS` below;
 * exits 1 when one is missed.
 *
 * Then, signed in (issue 23), with the demo accounts of the product it started: two wizard steps
 * (a member at « profil », another moved to « questionnaire » through the API), an active member's
 * home (`/mon-compte`; the member written into the database, `seedActiveMember`), a member-area page
 * open during the onboarding (« Mes messages »), the dashboard home and a member's file. The script
 * signs in through the API (staff with a TOTP it enrols) and hands the session cookie to Chromium
 * (Lighthouse `extraHeaders`). These pages are `noindex`: their SEO score is printed, not targeted.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { computeMedianRun, filterToValidRuns } from 'lighthouse/core/lib/median-run.js';
import { parseConfig } from '#bff/config.ts';
import { agencyEnv, DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { type Product, startProduct } from '#bff/start.ts';
import { seedActiveMember } from '#tests/support/active-member-seed.ts';
import { Secret, TOTP } from 'otpauth';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { median, writeSection } from './bench/support.ts';

const ROOT = join(import.meta.dirname, '..');
const CLIENT_DIR = process.env.CLIENT_DIR ?? join(ROOT, 'dist', 'client');
const CHROME = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** LIGHTHOUSE_ONLY=/dashboard/member: only the pages whose path holds it (never written). */
const ONLY = process.env.LIGHTHOUSE_ONLY;
/** LIGHTHOUSE_SAVE=<folder>: each page's report and each run's trace kept there (the folder is made before measuring). */
const SAVE = process.env.LIGHTHOUSE_SAVE;
/**
 * Runs per page (LIGHTHOUSE_RUNS, default 3); the page's figures are those of Lighthouse's own
 * median run (`computeMedianRun`: the run nearest the median FCP and time to interactive), as
 * Lighthouse CI does, and every run's Performance is printed beside them (decision 140).
 */
type LighthouseResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3) || 3);
const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const firstArticle = () => {
  const dir = join(ROOT, 'content', 'blog');
  const files = existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith('.md') && !/^draft:\s*true/m.test(readFileSync(join(dir, f), 'utf8')))
    : [];
  return files.length > 0 ? `/blog/${(files.sort()[0] as string).replace(/\.md$/, '')}` : '/blog';
};

const PAGES: [string, string][] = [
  ['Home', '/'],
  ['Registration (women)', '/inscription-agence-matrimoniale-musulmane/pour-les-femmes'],
  ['Blog list', '/blog'],
  ['Article', firstArticle()],
  ['Legal notice', '/mentions-legales'],
];

interface Scores {
  label: string;
  path: string;
  /** Signed in: `noindex` pages, SEO not targeted. */
  signedIn: boolean;
  performance: number;
  /** Performance of every run, in the order they ran; `performance` is the median run's. */
  performanceRuns: number[];
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  failing: string[];
  /** What Lighthouse took as the largest paint (its text), to say what the LCP waited for. */
  lcpElement: string;
}

/** The largest-paint element's label (`largest-contentful-paint-element`: a list whose first table names the node). */
function lcpElementOf(details: unknown): string {
  const tables = (details as { items?: { items?: { node?: { selector?: string; nodeLabel?: string } }[] }[] } | undefined)?.items ?? [];
  const node = tables[0]?.items?.[0]?.node;
  if (!node) return 'inconnu';
  const label = (node.nodeLabel ?? '').replace(/\s+/g, ' ').slice(0, 60);
  return `\`${node.selector ?? '?'}\` « ${label} »`;
}

/** The cookies a `Set-Cookie` answer sets, as one `Cookie` header (name=value pairs). */
function cookieHeader(response: Response, previous = ''): string {
  const jar = new Map(
    previous
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
  );
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0] ?? '';
    const name = pair.slice(0, pair.indexOf('='));
    if (name) jar.set(name, pair.slice(pair.indexOf('=') + 1));
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

async function call(base: string, cookie: string, path: string, body?: unknown): Promise<{ response: Response; cookie: string }> {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json', origin: base }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return { response, cookie: cookieHeader(response, cookie) };
}

async function signIn(base: string, email: string, password: string): Promise<string> {
  return (await call(base, '', '/api/v1/auth/signin', { email, password })).cookie;
}

/** Signed-in pages and the cookie of who opens them (demo accounts: staff enrols its TOTP here). */
async function signedInPages(base: string, product: Product): Promise<[string, string, string][]> {
  // The demo has no active member (their home is what `/mon-compte` shows once onboarding is over):
  // one is written into the database, as the introduction tests make theirs.
  const salima = { email: 'salima.lighthouse@example.fr', firstName: 'Salima', gender: 'femme' as const, age: 31 };
  const active = await seedActiveMember(product, Date.now(), salima);
  const activeCookie = await signIn(base, salima.email, active.password);
  const amina = await signIn(base, 'amina@demo.union-sincere.fr', 'figuier-lanterne-2026');
  let youssef = await signIn(base, 'youssef@demo.union-sincere.fr', 'cedre-boussole-2026');
  const settings = (await (await call(base, youssef, '/api/v1/user/settings')).response.json()) as { id: string; email: string };
  const { profil } = samplePayloads({ id: settings.id, email: settings.email, gender: 'homme' }, Date.now());
  youssef = (await call(base, youssef, '/api/v1/user/update', { ...profil, firstName: 'Youssef', lastName: 'Amrani' })).cookie;
  let staff = await signIn(base, 'equipe@demo.union-sincere.fr', 'olivier-cadran-2026');
  const enrol = await call(base, staff, '/api/v1/auth/mfa/enroll', {});
  const factor = (await enrol.response.json()) as { factorId: string; secret: string };
  const totp = new TOTP({ secret: Secret.fromBase32(factor.secret), digits: 6, period: 30, algorithm: 'SHA1' });
  staff = (await call(base, enrol.cookie, '/api/v1/auth/mfa/verify', { factorId: factor.factorId, code: totp.generate() })).cookie;
  return [
    ['Wizard: profile (signed in)', '/mon-compte/inscription/profil', amina],
    ['Wizard: questionnaire (signed in)', '/mon-compte/inscription/questionnaire-profil', youssef],
    ['Member area: home, active member (signed in)', '/mon-compte', activeCookie],
    ['Member area: messages (signed in)', '/mon-compte/messages', amina],
    ['Dashboard home (staff)', '/dashboard', staff],
    ['Dashboard: a member (staff)', `/dashboard/member/${settings.id}`, staff],
  ];
}

/** What `chromium --version` prints (« Chromium 156.0.8078.73 built on Debian… »), or its path when it cannot say. */
function chromiumVersion(): string {
  try {
    return execFileSync(CHROME, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return `Chromium ${CHROME}`;
  }
}

/** A page's name in LIGHTHOUSE_SAVE's folder. */
const pageFile = (path: string) => (path === '/' ? 'home' : path.replaceAll('/', '_'));

async function main() {
  const args = process.argv.slice(2);
  const write = args.includes('--write') && !process.env.LIGHTHOUSE_NO_WRITE && !ONLY;
  const given = args.find((arg) => !arg.startsWith('--'))?.replace(/\/+$/, '');
  if (!given && !existsSync(join(CLIENT_DIR, 'index.html'))) {
    console.error('Pas de build : lancez d’abord `npm run build`.');
    process.exit(2);
  }
  if (SAVE) mkdirSync(SAVE, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'us-lighthouse-'));
  const config = parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // The demo accounts: the signed-in pages are measured with them.
    DEMO_DATA: 'true',
    // Measured as before: the demo accounts, not the demo agency.
    DEMO_AGENCY: 'false',
    NODE_ENV: 'production',
    // Required in production; the port is only known once listening.
    PUBLIC_SITE_URL: 'http://localhost',
    ALLOW_EMBEDDED_IN_PRODUCTION: 'true',
    // Required in production: the demo identity, as in development (decision 106).
    ...agencyEnv(DEMO_AGENCY_IDENTITY),
  });
  const product = given ? null : await startProduct(config, { clientDir: CLIENT_DIR });
  const base = given ?? `http://localhost:${product?.port}`;
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: FLAGS });
  const results: Scores[] = [];
  /** Lighthouse's own measure of the host's CPU (`environment.benchmarkIndex`), one per run: scores differ across hosts. */
  const benchmarkIndexes: number[] = [];
  let lighthouseVersion = '?';
  try {
    const pages: [string, string, string | null][] = [
      ...PAGES.map(([label, path]): [string, string, null] => [label, path, null]),
      ...(product ? await signedInPages(base, product) : []),
    ].filter(([, path]) => !ONLY || path.includes(ONLY));
    for (const [label, path, cookie] of pages) {
      const flags = {
        port: chrome.port,
        output: 'json' as const,
        logLevel: 'error' as const,
        ...(cookie ? { extraHeaders: { cookie } } : {}),
      };
      const runs: LighthouseResult[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const measure = async () => {
          const runner = await lighthouse(`${base}${path}`, flags);
          // The run's trace, for Chromium's performance panel or a script (where the long tasks go).
          if (SAVE && runner) writeFileSync(join(SAVE, `${pageFile(path)}.trace-${run + 1}.json`), JSON.stringify(runner.artifacts.Trace));
          return runner?.lhr;
        };
        let result = await measure();
        // A run that Lighthouse itself could not complete (a runtime error such as a protocol timeout:
        // no metric at all, not a low score) is run again once, and the error is printed.
        if (result?.runtimeError) {
          console.log(
            `  ${label} (${path}): Lighthouse runtime error ${result.runtimeError.code} (${result.runtimeError.message}); running it again`,
          );
          result = await measure();
        }
        if (!result) throw new Error(`no Lighthouse result for ${path}`);
        // A signed-in page must be the page asked for, not the sign-in page it would redirect to.
        if (cookie && new URL(result.finalDisplayedUrl).pathname !== path) {
          throw new Error(`${path}: Lighthouse ended on ${result.finalDisplayedUrl} (not signed in?)`);
        }
        runs.push(result);
        benchmarkIndexes.push(result.environment.benchmarkIndex);
        lighthouseVersion = result.lighthouseVersion;
      }
      const valid = filterToValidRuns(runs);
      const lhr = computeMedianRun(valid.length > 0 ? valid : runs) as LighthouseResult;
      const performanceRuns = runs.map((run) => Math.round((run.categories.performance?.score ?? 0) * 100));
      if (SAVE) writeFileSync(join(SAVE, `${pageFile(path)}.json`), JSON.stringify(lhr));
      // What the page printed as errors, when it did: the table alone would not say why.
      const consoleErrors = (lhr.audits['errors-in-console']?.details as { items?: { description?: string; url?: string }[] } | undefined)
        ?.items;
      for (const item of consoleErrors ?? []) console.log(`  ${path}: console error: ${item.description ?? ''} ${item.url ?? ''}`);
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const failing = Object.values(lhr.categories)
        .filter((category) => !(cookie && category.id === 'seo'))
        .flatMap((category) => category.auditRefs.filter((ref) => ref.weight > 0).map((ref) => lhr.audits[ref.id]))
        .filter((audit) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative')
        .map((audit) => `${audit?.id} (${Math.round((audit?.score ?? 0) * 100)})`);
      results.push({
        label,
        path,
        signedIn: cookie !== null,
        performance: score('performance'),
        performanceRuns,
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
        fcp: metric('first-contentful-paint'),
        lcp: metric('largest-contentful-paint'),
        tbt: metric('total-blocking-time'),
        cls: metric('cumulative-layout-shift'),
        failing: [...new Set(failing)],
        lcpElement: lcpElementOf(lhr.audits['largest-contentful-paint-element']?.details),
      });
      console.log(
        `  ${label} (${path}): ${score('performance')} (runs ${performanceRuns.join(', ')}) / ${score('accessibility')} / ${score('best-practices')} / ${score('seo')}`,
      );
    }
  } finally {
    chrome.kill();
    await product?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${chromiumVersion()}; Lighthouse's benchmark index of this host ${Math.round(median(benchmarkIndexes))} (median of ${benchmarkIndexes.length} runs; higher is faster)`;
  const missed: string[] = [];
  const lines = [
    `## Lighthouse — ${date}`,
    '',
    `Machine: ${machine}. Lighthouse ${lighthouseVersion} default (mobile) preset: simulated slow 4G and 4× CPU slowdown; the product served by \`startProduct\` on loopback. ${RUNS} run${RUNS > 1 ? 's' : ''} per page: the figures are those of Lighthouse's median run (\`computeMedianRun\`, as Lighthouse CI), each run's Performance in the last column.`,
    '',
    '| Page | Performance | Accessibility | Best Practices | SEO | FCP | LCP | TBT | CLS | Performance, each run |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of results) {
    const mark = (value: number, target: number) => (value >= target ? `${value}` : `**${value}**`);
    const floor = performanceFloor(r.signedIn);
    lines.push(
      `| ${r.label} (\`${r.path}\`) | ${mark(r.performance, floor)} | ${mark(r.accessibility, 100)} | ${mark(r.bestPractices, 100)} | ${r.signedIn ? `${r.seo} (noindex)` : mark(r.seo, 100)} | ${Math.round(r.fcp)} ms | ${Math.round(r.lcp)} ms | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${r.performanceRuns.join(', ')} |`,
    );
    const signedInLimits = r.signedIn && (r.cls > SIGNED_IN_MAX_CLS || r.tbt > SIGNED_IN_MAX_TBT_MS);
    if (r.performance < floor || r.accessibility < 100 || r.bestPractices < 100 || (!r.signedIn && r.seo < 100) || signedInLimits)
      missed.push(
        `${r.path}: ${r.failing.join(', ') || 'see report'}; largest paint: ${r.lcpElement}${signedInLimits ? `; CLS ${r.cls.toFixed(3)} (≤ ${SIGNED_IN_MAX_CLS}), TBT ${Math.round(r.tbt)} ms (≤ ${SIGNED_IN_MAX_TBT_MS})` : ''}`,
      );
  }
  lines.push(
    '',
    missed.length === 0
      ? `Targets (${TARGETS}): met on every page.`
      : `Targets missed (${TARGETS}) — failing audits:\n${missed.map((m) => `- ${m}`).join('\n')}`,
    '',
  );
  const table = lines.join('\n');
  console.log(`\n${table}`);
  if (write) {
    writeSection('Lighthouse', table);
  }
  if (missed.length > 0) process.exitCode = 1;
}

/**
 * Floors (decision 162): public pages Performance ≥ 95; the member area and the dashboard ≥ 90
 * with CLS ≤ 0.05 and total blocking time ≤ 200 ms (what a person feels, steadier from host to
 * host than the score); Accessibility and Best Practices 100 everywhere, SEO 100 on public pages.
 */
const SIGNED_IN_MAX_CLS = 0.05;
const SIGNED_IN_MAX_TBT_MS = 200;
const performanceFloor = (signedIn: boolean) => (signedIn ? 90 : 95);
const TARGETS = `Performance ≥ 95 on public pages, ≥ 90 signed in with CLS ≤ ${SIGNED_IN_MAX_CLS} and TBT ≤ ${SIGNED_IN_MAX_TBT_MS} ms; Accessibility and Best Practices 100; SEO 100 on public pages`;

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
