/**
 * `npm run bench:journeys`: an agency's traffic, together, for a fixed time, against the compiled
 * server as production runs it (embedded stand-ins allowed), on PGlite and then on PostgreSQL
 * (127.0.0.1:5432 or DATABASE_URL; skipped when none answers):
 *
 * - visitors read the public pages (the sitemap's), as the SPA does (`/api/v1/auth/session`,
 *   `/api/v1/public-config`);
 * - members sign up and walk the wizard (profile, questionnaire, pre-contract information, plan),
 *   reloading their settings between steps, then sign out, and start again as new members;
 * - staff (signed in with password and TOTP) list members, open one, read the funnel.
 *
 * Prints per route p50/p95/p99 and errors, the mix's throughput and the journeys completed, and
 * writes the section "Journeys" of docs/benchmarks.md. Exits 1 on any error (a status ≥ 400 or a
 * failed request): the mix must run clean.
 *
 * Options (environment): JOURNEY_SECONDS (default 30), JOURNEY_VISITORS (default 6),
 * JOURNEY_MEMBERS (default 3), JOURNEY_STAFF (default 1), BENCH_SKIP_PG=1, BENCH_NO_WRITE=1.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as OTPAuth from 'otpauth';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { agencyEnv, DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { HttpMember, startServerProcess } from '#tests/faults/support.ts';
import { COMPILED_SERVER, dropDatabase, ensureBuilt, postgresUrl, ROOT, writeSection } from './support.ts';

const SECONDS = Number(process.env.JOURNEY_SECONDS ?? 30);
const VISITORS = Number(process.env.JOURNEY_VISITORS ?? 6);
const MEMBERS = Number(process.env.JOURNEY_MEMBERS ?? 3);
const STAFF = Number(process.env.JOURNEY_STAFF ?? 1);
const STAFF_EMAIL = 'equipe.journees@example.fr';
const STAFF_PASSWORD = 'journees-equipe-2026';

interface Sample {
  route: string;
  ms: number;
  ok: boolean;
}

let addresses = 0;
/** A documentation-range address per client (the server trusts X-Forwarded-For here). */
const nextAddress = () => {
  addresses += 1;
  return `198.18.${Math.floor(addresses / 250) % 250}.${(addresses % 250) + 1}`;
};

class Recorder {
  readonly samples: Sample[] = [];
  journeys = { visitors: 0, members: 0, staff: 0 };

  async time(route: string, client: HttpMember, method: string, path: string, body?: unknown) {
    const started = performance.now();
    try {
      const answer = await client.request(method, path, body);
      this.samples.push({ route, ms: performance.now() - started, ok: answer.status < 400 });
      if (answer.status >= 400) console.error(`  ${route}: ${answer.status} ${JSON.stringify(answer.json).slice(0, 200)}`);
      return answer;
    } catch (error) {
      this.samples.push({ route, ms: performance.now() - started, ok: false });
      console.error(`  ${route}: ${error instanceof Error ? error.message : error}`);
      return { status: 0, json: {} as Record<string, unknown> };
    }
  }
}

async function visitor(url: string, pages: string[], recorder: Recorder, until: number) {
  let i = Math.floor(Math.random() * pages.length);
  while (performance.now() < until) {
    const client = new HttpMember(url, nextAddress());
    for (let n = 0; n < 3 && performance.now() < until; n += 1) {
      i = (i + 1) % pages.length;
      await recorder.time('GET public page', client, 'GET', pages[i] as string);
      await recorder.time('GET /api/v1/auth/session', client, 'GET', '/api/v1/auth/session');
    }
    await recorder.time('GET /api/v1/public-config', client, 'GET', '/api/v1/public-config');
    recorder.journeys.visitors += 1;
  }
}

async function member(url: string, recorder: Recorder, until: number) {
  while (performance.now() < until) {
    const client = new HttpMember(url, nextAddress());
    const email = `parcours.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.fr`;
    const created = await recorder.time('POST /api/v1/dashboard/subscription', client, 'POST', '/api/v1/dashboard/subscription', {
      context: 'init',
      email,
      role: 'femme',
      password: 'bismillah-2026',
    });
    if (created.status !== 202) continue;
    // The confirmation mail's link, opened by the same client (decision 187): the member exists and is signed in.
    client.email = email;
    const tokenHash = await client.confirmationToken();
    const confirmed = await recorder.time('POST /api/v1/auth/confirmation', client, 'POST', '/api/v1/auth/confirmation', { tokenHash });
    if (confirmed.status !== 201) continue;
    const settings = await recorder.time('GET /api/v1/user/settings', client, 'GET', '/api/v1/user/settings');
    const samples = samplePayloads({ id: String(settings.json.id), email, gender: 'femme' }, Date.now());
    for (const body of [samples.profil, samples.questionnaire, samples.form_per_inf, samples.sel_plan]) {
      if (performance.now() >= until) break;
      await recorder.time(`POST /api/v1/user/update (${body.context})`, client, 'POST', '/api/v1/user/update', body);
      await recorder.time('GET /api/v1/user/settings', client, 'GET', '/api/v1/user/settings');
    }
    await recorder.time('POST /api/v1/auth/signout', client, 'POST', '/api/v1/auth/signout', {});
    recorder.journeys.members += 1;
  }
}

async function signedInStaff(url: string): Promise<HttpMember> {
  const client = new HttpMember(url, nextAddress());
  const signin = await client.request('POST', '/api/v1/auth/signin', { email: STAFF_EMAIL, password: STAFF_PASSWORD });
  if (signin.status !== 200) throw new Error(`staff sign-in: ${signin.status} ${JSON.stringify(signin.json)}`);
  const enrolled = await client.request('POST', '/api/v1/auth/mfa/enroll', {});
  const secret = String(enrolled.json.secret ?? '');
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  const verified = await client.request('POST', '/api/v1/auth/mfa/verify', { factorId: enrolled.json.factorId, code: totp.generate() });
  if (verified.status !== 200) throw new Error(`staff TOTP: ${verified.status} ${JSON.stringify(verified.json)}`);
  return client;
}

async function staff(client: HttpMember, recorder: Recorder, until: number) {
  while (performance.now() < until) {
    const list = await recorder.time('GET /api/v1/dashboard/members', client, 'GET', '/api/v1/dashboard/members');
    const rows = (list.json.members ?? list.json.items ?? []) as { id?: string }[];
    const id = rows[Math.floor(Math.random() * rows.length)]?.id;
    if (id) await recorder.time('GET /api/v1/dashboard/members/:id', client, 'GET', `/api/v1/dashboard/members/${id}`);
    await recorder.time('GET /api/v1/dashboard/funnel', client, 'GET', '/api/v1/dashboard/funnel');
    recorder.journeys.staff += 1;
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;

async function runOn(label: string, env: Record<string, string>): Promise<{ table: string; errors: number }> {
  // The staff account is made as in production (npm run staff:create) before the server starts.
  const created = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'scripts', 'staff-create.ts'),
      '--email',
      STAFF_EMAIL,
      '--name',
      'Équipe Parcours',
      '--password',
      STAFF_PASSWORD,
    ],
    { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  if (created.status !== 0) throw new Error(`staff:create: ${created.stderr}`);
  // The agency identity is required in production: the demo one, as in development (decision 106).
  const production = { ...env, NODE_ENV: 'production', ALLOW_EMBEDDED_IN_PRODUCTION: 'true', ...agencyEnv(DEMO_AGENCY_IDENTITY) };
  const { child, url } = await startServerProcess(production, [process.execPath, [COMPILED_SERVER]]);
  try {
    const sitemap = await (await fetch(`${url}/sitemap.xml`)).text();
    const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] as string).pathname);
    if (pages.length === 0) throw new Error('no page in /sitemap.xml');
    const staffClients = await Promise.all(Array.from({ length: STAFF }, () => signedInStaff(url)));
    const recorder = new Recorder();
    const started = performance.now();
    const until = started + SECONDS * 1000;
    await Promise.all([
      ...Array.from({ length: VISITORS }, () => visitor(url, pages, recorder, until)),
      ...Array.from({ length: MEMBERS }, () => member(url, recorder, until)),
      ...staffClients.map((client) => staff(client, recorder, until)),
    ]);
    const elapsed = (performance.now() - started) / 1000;
    const byRoute = new Map<string, Sample[]>();
    for (const sample of recorder.samples) byRoute.set(sample.route, [...(byRoute.get(sample.route) ?? []), sample]);
    const errors = recorder.samples.filter((s) => !s.ok).length;
    const lines = [
      `### ${label}`,
      '',
      `${recorder.samples.length} requests in ${elapsed.toFixed(1)} s: **${(recorder.samples.length / elapsed).toFixed(0)} req/s** for the mix, **${errors} errors**; journeys completed: ${recorder.journeys.visitors} visitors, ${recorder.journeys.members} members, ${recorder.journeys.staff} staff rounds.`,
      '',
      '| Route | Requests | p50 | p95 | p99 | Errors |',
      '|---|---:|---:|---:|---:|---:|',
    ];
    for (const [route, samples] of [...byRoute].sort((a, b) => a[0].localeCompare(b[0]))) {
      const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
      lines.push(
        `| ${route} | ${samples.length} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 95))} | ${ms(percentile(sorted, 99))} | ${samples.filter((s) => !s.ok).length} |`,
      );
    }
    return { table: lines.join('\n'), errors };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function main() {
  ensureBuilt();
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}`;
  const sections: string[] = [];
  let errors = 0;
  const dataDir = mkdtempSync(join(tmpdir(), 'us-journeys-'));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const pglite = await runOn('PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' });
  sections.push(pglite.table);
  errors += pglite.errors;
  const database = await postgresUrl('journeys');
  if (database) {
    try {
      const postgres = await runOn('PostgreSQL', { DATA_DIR: dataDir, DATABASE_URL: database });
      sections.push(postgres.table);
      errors += postgres.errors;
    } finally {
      await dropDatabase(database);
    }
  } else sections.push('### PostgreSQL\n\nNo server answered on 127.0.0.1:5432 (or DATABASE_URL): not measured.');
  const section = [
    `## Journeys — ${new Date().toISOString().slice(0, 16).replace('T', ' ')}Z, ${machine}`,
    '',
    `\`npm run bench:journeys\`: ${VISITORS} visitors, ${MEMBERS} members walking the wizard and ${STAFF} staff member(s) at once for ${SECONDS} s, each client waiting for its answer before its next request, against the compiled server in production mode with the embedded stand-ins; latencies are measured by the client, on the same machine.`,
    '',
    ...sections.flatMap((s) => [s, '']),
  ].join('\n');
  console.log(`\n${section}`);
  if (!process.env.BENCH_NO_WRITE) writeSection('Journeys', section);
  if (errors > 0) {
    console.error(`${errors} errors in the journeys`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
