import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { samplePayloads } from '#tests/support/happy-path.ts';

export const ROOT = join(import.meta.dirname, '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The server as a child process, ready once /api/v1/health answers 200: `node --import tsx
 * bff/server.ts` by default, or `command` (the bench runs the compiled server, pinned to a core).
 */
export async function startServerProcess(
  env: Record<string, string>,
  [command, args]: [string, string[]] = [process.execPath, ['--import', 'tsx', 'bff/server.ts']],
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const port = await freePort();
  let output = '';
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_SITE_URL: `http://localhost:${port}`,
      DEMO_DATA: 'false',
      TRUST_PROXY: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Only the last 64 KB: under load the server writes one log line per request (decision 107).
  const keep = (d: unknown) => {
    output = (output + String(d)).slice(-65_536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i += 1) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/api/v1/health`)).status === 200) return { child, url, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server not ready in 60 s:\n${output}`);
}

export function waitExit(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

/** A browser-like HTTP client over a real socket: cookies, same-origin writes, its own address. */
export class HttpMember {
  readonly jar = new Map<string, string>();
  id = '';
  email = '';
  constructor(
    readonly url: string,
    readonly address: string,
  ) {}

  cookie() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        'x-forwarded-for': this.address,
        ...(this.jar.size > 0 ? { cookie: this.cookie() } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json', origin: this.url } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = (pair ?? '').indexOf('=');
      if (index <= 0) continue;
      const name = (pair as string).slice(0, index).trim();
      const value = (pair as string).slice(index + 1);
      if (value === '' || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON
    }
    return { status: response.status, json };
  }

  /** The token of the confirmation mail to this member, from the local mailbox (loopback), once delivered (decision 187). */
  async confirmationToken(): Promise<string> {
    for (let attempt = 0; attempt < 150; attempt += 1) {
      const mails = (await (await fetch(`${this.url}/_local/mailbox?format=json`)).json()) as { to: string; text: string }[];
      const token = mails
        .filter((m) => m.to === this.email)
        .map((m) => /\/connexion\/confirmation\?token_hash=([0-9a-f]+)/.exec(m.text)?.[1])
        .find((found) => found !== undefined);
      if (token) return token;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no confirmation mail to ${this.email}`);
  }

  /** Signs up (registration, then the mailed link) and brings the member to the `formules` step. */
  async signUpToPlans(label: string) {
    this.email = `${label}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.fr`;
    const created = await this.request('POST', '/api/v1/dashboard/subscription', {
      context: 'init',
      email: this.email,
      role: 'femme',
      password: 'bismillah-2026',
    });
    if (created.status !== 202) throw new Error(`sign-up: ${created.status} ${JSON.stringify(created.json)}`);
    const confirmed = await this.request('POST', '/api/v1/auth/confirmation', { tokenHash: await this.confirmationToken() });
    if (confirmed.status !== 201) throw new Error(`confirmation: ${confirmed.status} ${JSON.stringify(confirmed.json)}`);
    const settings = await this.request('GET', '/api/v1/user/settings');
    this.id = String(settings.json.id);
    const samples = samplePayloads({ id: this.id, email: this.email, gender: 'femme' }, Date.now());
    for (const body of [samples.profil, samples.questionnaire, samples.form_per_inf]) {
      const answer = await this.request('POST', '/api/v1/user/update', body);
      if (answer.status !== 200) throw new Error(`${body.context}: ${answer.status} ${JSON.stringify(answer.json)}`);
    }
  }
}

export const SEL_PLAN = { context: 'sel_plan', id: 'plan_serenity_month', renounce: false };
export const SEL_PLAN_RES = { context: 'sel_plan_res' };
