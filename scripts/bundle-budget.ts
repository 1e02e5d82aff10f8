/**
 * Bundle budget (decision 060), run after `vite build`:
 *
 *   node --import tsx scripts/bundle-budget.ts [dist/client] [--write]
 *
 * For each public page (the prerendered pages of `prerender-manifest.json`, or `index.html` for a
 * plain build) it computes the JavaScript of the first load: the page's `<script type="module">`
 * and `<link rel="modulepreload">`, the code-split chunks of the page's routes (TanStack Router
 * loads them at once on hydration), and everything they import statically (Vite manifest). It
 * checks that:
 *   1. the first load is at most 110 kB of gzipped JavaScript (1 kB = 1000 bytes, gzip level 9);
 *   2. the member area, the dashboard, XState and every auth library are absent from it;
 *   3. `@supabase/*` is in no browser chunk at all.
 * The member area and the dashboard (issue 23) have their own budget: the first load of a signed-in
 * page served by the SPA shell (`spa.html`), with the same closure; there XState is expected, the
 * auth libraries are still forbidden; and the files the page's own shell names for its first paint
 * (scripts, modulepreloads, stylesheets) stay under `APP_SHELL_FILES_BUDGET` (decision 159).
 * Prints a table (`--write`: also into docs/benchmarks.md, replacing its previous section);
 * exits 1 on any violation.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { routePatternToRegExp } from '#bff/site/site-files.ts';
import { writeSection } from './bench/support.ts';
import { listRouteFiles as listFiles, routeFilesFor } from './route-files.ts';

export { routeFilesFor };

export const FIRST_LOAD_BUDGET_BYTES = 110_000;
/** The signed-in pages: the member's home, two wizard steps, the dashboard home and a member's file. */
export const APP_PAGES = [
  '/mon-compte',
  '/mon-compte/inscription/profil',
  '/mon-compte/inscription/questionnaire-profil',
  '/dashboard',
  '/dashboard/member/$id',
] as const;
/**
 * The files a signed-in page's own shell names for its first paint (`spa/…html`: the entry script,
 * its modulepreloads and stylesheets): each is one more request before the largest paint under
 * Lighthouse's slow 4G, over six HTTP/1.1 connections. Decision 159 brought them down by putting
 * small shared modules in a few chunks; a module split into a chunk of its own again raises a
 * count here first. The ceilings are the counts of decision 159 (before it: `/mon-compte` 27, « profil » 37, « questionnaire » 34, `/dashboard` 30, a member's file 31).
 */
export const APP_SHELL_FILES_BUDGET: Record<(typeof APP_PAGES)[number], number> = {
  '/mon-compte': 24,
  '/mon-compte/inscription/profil': 36,
  '/mon-compte/inscription/questionnaire-profil': 33,
  '/dashboard': 24,
  '/dashboard/member/$id': 22,
};
/**
 * 168 kB since decision 214 (165 kB since decision 138, 210 kB before): TanStack Query, which
 * serves every signed-in page's data and the layouts' unread badges, adds 10.6 kB to each; the
 * largest signed-in first load is 166.8 kB (« profil »), a member’s file 133.8 kB.
 */
export const APP_FIRST_LOAD_BUDGET_BYTES = 168_000;

interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Code that must never be in a public page's first load: manifest sources, then code signatures. */
const FORBIDDEN_SOURCES: [string, RegExp][] = [
  ['member area (src/routes/mon-compte)', /^src\/routes\/mon-compte\//],
  ['member area (src/features/onboarding, account)', /^src\/features\/(onboarding|account|member)/],
  ['dashboard (src/routes/dashboard)', /^src\/routes\/dashboard\//],
  ['dashboard (src/features/dashboard)', /^src\/features\/dashboard\//],
  ['XState', /node_modules\/(xstate|@xstate)\//],
  ['auth library', /node_modules\/(@supabase|jose|otpauth|@node-rs)\//],
];
/** Distinctive strings of libraries as they survive minification. */
const SIGNATURES: [string, RegExp][] = [
  ['XState', /xstate\.(init|stop|done|error|after)|"xstate"|createActor\b.*\bsnapshot/],
  ['@supabase', /GoTrueClient|SupabaseClient|@supabase\/|supabase-js|RealtimeClient|PostgrestClient/],
  ['jose', /JOSEError|JWSSignatureVerificationFailed|JWTClaimValidationFailed/],
  ['otpauth', /otpauth:\/\/|OTPAuth/],
];
const SUPABASE = SIGNATURES.find(([name]) => name === '@supabase') as [string, RegExp];

export interface PageBudget {
  page: string;
  files: string[];
  rawBytes: number;
  gzipBytes: number;
  forbidden: string[];
  /** `public` (prerendered page) or `app` (signed-in page served by the SPA shell). */
  kind: 'public' | 'app';
  /** A signed-in page: the files its own shell names (`shellFilesOf`), when it has one. */
  shellFiles?: number;
}

/** The scripts, modulepreloads and stylesheets a shell's HTML names. */
export function shellFilesOf(html: string): string[] {
  const stylesheets = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1] as string);
  return [...new Set([...htmlScripts(html), ...stylesheets.map((u) => u.replace(/^\//, ''))])];
}

function htmlScripts(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) out.push(m[1] as string);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) out.push(m[1] as string);
  return out.map((u) => u.replace(/^\//, '').split('?')[0] as string);
}

export function measure(
  clientDir: string,
  routesDir = 'src/routes',
  appPages: readonly string[] = APP_PAGES,
): { pages: PageBudget[]; supabaseChunks: string[]; manifestFound: boolean } {
  const manifestFile = join(clientDir, '.vite', 'manifest.json');
  const manifestFound = existsSync(manifestFile);
  const manifest: Manifest = manifestFound ? JSON.parse(readFileSync(manifestFile, 'utf8')) : {};
  const byFile = new Map<string, [string, ManifestChunk]>();
  for (const [key, chunk] of Object.entries(manifest)) byFile.set(chunk.file, [key, chunk]);

  const closure = (files: string[]) => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file) || !file.endsWith('.js')) return;
      seen.add(file);
      const entry = byFile.get(file);
      for (const key of entry?.[1].imports ?? []) {
        const dep = manifest[key];
        if (dep) visit(dep.file);
      }
    };
    for (const f of files) visit(f);
    return [...seen];
  };

  const prerender = join(clientDir, 'prerender-manifest.json');
  const prerendered: { pages: string[]; spaShells?: { pattern: string; file: string }[] } | undefined = existsSync(prerender)
    ? JSON.parse(readFileSync(prerender, 'utf8'))
    : undefined;
  const pagePaths = prerendered?.pages ?? ['/'];
  const routeFiles = listFiles(routesDir);
  const gzCache = new Map<string, { raw: number; gz: number; text: string }>();
  const sizeOf = (file: string) => {
    let s = gzCache.get(file);
    if (!s) {
      const buffer = readFileSync(join(clientDir, file));
      s = { raw: buffer.length, gz: gzipSync(buffer, { level: 9 }).length, text: buffer.toString('utf8') };
      gzCache.set(file, s);
    }
    return s;
  };

  const pages: PageBudget[] = [];
  const shell = existsSync(join(clientDir, 'spa.html')) ? join(clientDir, 'spa.html') : join(clientDir, 'index.html');
  const targets: { page: string; htmlFile: string; kind: PageBudget['kind'] }[] = [
    ...pagePaths.map((page) => ({
      page,
      htmlFile: page === '/' ? join(clientDir, 'index.html') : join(clientDir, ...page.slice(1).split('/'), 'index.html'),
      kind: 'public' as const,
    })),
    ...appPages.map((page) => ({ page, htmlFile: shell, kind: 'app' as const })),
  ];
  // A signed-in page's own shell (prerender manifest `spaShells`), found as the server finds it.
  const shells = prerendered?.spaShells ?? [];
  const ownShell = (page: string) => {
    const path = page.replace(/\$\w+/g, '0b6c9f7e-2f6e-4a53-9a43-1d2f3c4b5a69');
    const shell = shells.find(({ pattern }) => routePatternToRegExp(pattern).test(path));
    return shell && existsSync(join(clientDir, shell.file)) ? join(clientDir, shell.file) : undefined;
  };
  for (const { page, htmlFile, kind } of targets) {
    if (!existsSync(htmlFile)) continue;
    const initial = htmlScripts(readFileSync(htmlFile, 'utf8'));
    const routeChunks = routeFilesFor(page, routeFiles)
      .flatMap((f) => Object.entries(manifest).filter(([key]) => key.startsWith(`src/routes/${f}?`) || key === `src/routes/${f}`))
      .map(([, chunk]) => chunk.file);
    const files = closure([...initial, ...routeChunks]).filter((f) => existsSync(join(clientDir, f)));
    const forbidden = new Set<string>();
    for (const file of files) {
      const key = byFile.get(file)?.[0] ?? '';
      const src = byFile.get(file)?.[1].src ?? key;
      const sources = kind === 'public' ? FORBIDDEN_SOURCES : FORBIDDEN_SOURCES.filter(([label]) => label === 'auth library');
      const signatures = kind === 'public' ? SIGNATURES : SIGNATURES.filter(([label]) => label !== 'XState');
      for (const [label, pattern] of sources) if (pattern.test(src)) forbidden.add(`${label}: ${file}`);
      for (const [label, pattern] of signatures) if (pattern.test(sizeOf(file).text)) forbidden.add(`${label}: ${file}`);
    }
    const shellFile = kind === 'app' ? ownShell(page) : undefined;
    pages.push({
      page,
      files,
      rawBytes: files.reduce((n, f) => n + sizeOf(f).raw, 0),
      gzipBytes: files.reduce((n, f) => n + sizeOf(f).gz, 0),
      forbidden: [...forbidden],
      kind,
      ...(shellFile ? { shellFiles: shellFilesOf(readFileSync(shellFile, 'utf8')).length } : {}),
    });
  }

  const assets = join(clientDir, 'assets');
  const allJs = existsSync(assets)
    ? readdirSync(assets)
        .filter((f) => f.endsWith('.js'))
        .map((f) => `assets/${f}`)
    : [];
  const supabaseChunks = allJs.filter((f) => SUPABASE[1].test(sizeOf(f).text) || /@supabase/.test(byFile.get(f)?.[1].src ?? ''));
  return { pages, supabaseChunks, manifestFound };
}

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

function main() {
  const args = process.argv.slice(2);
  const write = args.includes('--write');
  const clientDir = resolve(args.find((a) => !a.startsWith('--')) ?? 'dist/client');
  if (!existsSync(join(clientDir, 'index.html'))) {
    console.error(`Pas de build dans ${relative(process.cwd(), clientDir)} : lancez d’abord \`npm run build\`.`);
    process.exit(2);
  }
  const { pages, supabaseChunks, manifestFound } = measure(clientDir);
  const violations: string[] = [];
  if (!manifestFound) violations.push('no Vite manifest (.vite/manifest.json): set build.manifest: true in vite.config.ts');
  const out: string[] = [];
  const print = (line: string) => {
    out.push(line);
    console.log(line);
  };
  const table = (kind: PageBudget['kind'], title: string, budget: number) => {
    print(`\n${title}\n`);
    const app = kind === 'app';
    print(`| Page | JS files | Raw | Gzipped (level 9) | Budget |${app ? ' Shell files (ceiling) |' : ''} Forbidden code | Status |`);
    print(`|---|---:|---:|---:|---:|${app ? '---:|' : ''}---|---|`);
    for (const p of pages.filter((page) => page.kind === kind)) {
      const over = p.gzipBytes > budget;
      const ceiling = app ? APP_SHELL_FILES_BUDGET[p.page as (typeof APP_PAGES)[number]] : undefined;
      const tooMany = ceiling !== undefined && (p.shellFiles === undefined || p.shellFiles > ceiling);
      const ok = !over && !tooMany && p.forbidden.length === 0;
      const shellCell = app ? ` ${p.shellFiles ?? 'no shell'} (${ceiling ?? '—'}) |` : '';
      print(
        `| ${p.page} | ${p.files.length} | ${kB(p.rawBytes)} | ${kB(p.gzipBytes)} | ${kB(budget)} |${shellCell} ${p.forbidden.length ? p.forbidden.join('<br>') : 'none'} | ${ok ? 'ok' : 'FAIL'} |`,
      );
      if (over) violations.push(`${p.page}: ${kB(p.gzipBytes)} gzipped JS on first load > ${kB(budget)}`);
      if (tooMany)
        violations.push(
          p.shellFiles === undefined
            ? `${p.page}: no shell of its own (spa/…html) in the prerender manifest`
            : `${p.page}: its shell names ${p.shellFiles} files for the first paint > ${ceiling} (decision 159)`,
        );
      for (const f of p.forbidden) violations.push(`${p.page}: ${f} in the first load`);
    }
    // The tightest page, to the byte: the table's one decimal hides how close a page is to its budget.
    const tightest = pages.filter((page) => page.kind === kind).sort((a, b) => b.gzipBytes - a.gzipBytes)[0];
    if (tightest) print(`\nTightest: ${tightest.page}, ${tightest.gzipBytes} bytes, ${budget - tightest.gzipBytes} bytes left.`);
  };
  console.log(`\nBundle budget (${relative(process.cwd(), clientDir)})`);
  table('public', 'Public pages (prerendered)', FIRST_LOAD_BUDGET_BYTES);
  table('app', 'Member area and dashboard (signed in, SPA shell)', APP_FIRST_LOAD_BUDGET_BYTES);
  print(`\n@supabase in browser chunks: ${supabaseChunks.length === 0 ? 'none (ok)' : supabaseChunks.join(', ')}`);
  if (write) {
    const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const section = `## Bundle budget — ${date}\n\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}. \`scripts/bundle-budget.ts\` on a full build (\`vite build\` + prerender): JavaScript of each public page's first load (HTML scripts and modulepreloads, the page's route chunks, their static imports), budget 110 kB gzipped; the member area's and the dashboard's first load (the SPA shell and the page's route chunks), budget ${kB(APP_FIRST_LOAD_BUDGET_BYTES)}, and the files each signed-in page's own shell names for its first paint (scripts, modulepreloads, stylesheets), under a ceiling per page (decision 159).\n\n${out.join('\n')}\n`;
    writeSection('Bundle budget', section);
  }
  for (const f of supabaseChunks) violations.push(`@supabase in the browser chunk ${f}`);
  if (!pages.some((p) => p.kind === 'public')) violations.push('no public page found');
  if (!pages.some((p) => p.kind === 'app')) violations.push('no member-area page found (spa.html)');
  if (violations.length > 0) {
    console.error(`\n${violations.length} violation(s):\n${violations.map((v) => `  - ${v}`).join('\n')}`);
    process.exit(1);
  }
  console.log('\nBundle budget respected.');
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('bundle-budget.ts')) main();
