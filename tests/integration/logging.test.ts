import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { startTestProduct } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/**
 * The server's logs (decision 107): one JSON line per entry, a request id on every request line
 * and in every error answer, and none of a member's personal data, whatever the member sent.
 */

const lines: string[] = [];
const capture = { write: (line: string) => void lines.push(line) };
let product: Awaited<ReturnType<typeof startTestProduct>>;

beforeAll(async () => {
  // Everything the logger can say, down to `trace`, goes to the captured stream.
  product = await startTestProduct({ env: { LOG_LEVEL: 'trace' }, logDestination: capture });
});
afterAll(() => product.stop());

type Entry = Record<string, unknown> & { level: string; msg: string };
const entries = (): Entry[] => lines.map((line) => JSON.parse(line) as Entry);
const requestLines = () => entries().filter((e) => e.msg === 'requête');

/** Every string an answer of the member could contain, split from its form body. */
function answersOf(body: Record<string, unknown>): string[] {
  return Object.entries(body)
    .filter(([key]) => key !== 'context')
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]))
    .filter((value): value is string => typeof value === 'string' && value.length >= 4);
}

describe('logs', () => {
  it('never contain the e-mail, name, phone or any answer of a member who signs up, fills the wizard, fails a sign-in and a form', async () => {
    const email = `journal.${Date.now()}@example.fr`;
    const password = 'bismillah-secret-2026';
    const agent = product.agent();
    const created = await signUp(agent, { context: 'init', email, role: 'femme', password });
    expect(created.status).toBe(201);
    const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));

    const sample = samplePayloads({ id, email, gender: 'femme' }, Date.now());
    const profil = {
      ...sample.profil,
      firstName: 'Zoulikha',
      lastName: 'Bensaïdouni',
      phone: '06 71 82 93 04',
      profession: 'Orthoptiste hospitalière',
      practiceDetails: 'Je lis le Coran chaque matin avec ma sœur Yamina.',
    };
    const questionnaire = { ...sample.questionnaire, otherQualities: 'Quelqu’un qui aime la randonnée en Ardèche.' };
    expect((await agent.post('/api/v1/user/update', profil)).status).toBe(200);
    expect((await agent.post('/api/v1/user/update', questionnaire)).status).toBe(200);

    // A failing sign-in (wrong password) and a validation error carrying personal data.
    const stranger = product.agent();
    const signin = await stranger.post('/api/v1/auth/signin', { email, password: 'pas-le-bon-mot-de-passe' });
    expect(signin.status).toBeGreaterThanOrEqual(400);
    const invalid = await agent.post('/api/v1/user/update', { ...profil, birthDate: 'hier', lastName: 'Ouarda-Tizi-Invalide' });
    expect(invalid.status).toBe(400);

    const needles = [
      email,
      email.split('@')[0] as string,
      password,
      'pas-le-bon-mot-de-passe',
      'Ouarda-Tizi-Invalide',
      '+33671829304',
      '0671829304',
      '06 71 82 93 04',
      ...answersOf(profil),
      ...answersOf(questionnaire),
    ];
    const logged = lines.join('\n');
    expect(requestLines().length).toBeGreaterThanOrEqual(6);
    for (const needle of needles) expect(logged.toLowerCase(), `« ${needle} » appears in the logs`).not.toContain(needle.toLowerCase());
    // Neither a cookie nor a session token.
    for (const value of agent.cookies.values()) expect(logged).not.toContain(value.slice(0, 24));
  });

  it('writes one JSON line per request: id, method, route path without the query, status, duration', async () => {
    const agent = product.agent();
    lines.length = 0;
    const answer = await agent.get('/api/v1/content/query?collection=blog&q=secret-de-recherche');
    const unknown = await agent.get('/api/v1/pas-une-route?email=quelquun@example.fr');
    const [first, second] = requestLines();
    expect(first).toMatchObject({ level: 'info', method: 'GET', path: '/api/v1/content/query', status: answer.status });
    expect(second).toMatchObject({ level: 'info', method: 'GET', path: '/api/v1/pas-une-route', status: 404 });
    for (const entry of [first, second]) {
      expect(entry?.reqId).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof entry?.ms).toBe('number');
      expect(typeof entry?.time).toBe('string');
    }
    expect(first?.reqId).not.toBe(second?.reqId);
    expect(lines.join('\n')).not.toContain('secret-de-recherche');
    expect(lines.join('\n')).not.toContain('quelquun');
    // The unknown route's answer carries the same id as its log line, in the body and a header.
    const body = (await unknown.json()) as { error: { code: string; requestId?: string } };
    expect(body.error.requestId).toBe(second?.reqId);
    expect(unknown.headers.get('x-request-id')).toBe(second?.reqId);
  });

  it('logs a route with parameters by its pattern, never the member id in its path', async () => {
    const agent = product.agent();
    lines.length = 0;
    const someone = '0b7e0f4e-8f5c-4c55-9a43-2a1f4f7c1d11';
    const refused = await agent.get(`/api/v1/dashboard/members/${someone}`);
    expect(refused.status).toBe(401);
    const [entry] = requestLines();
    expect(entry).toMatchObject({ path: '/api/v1/dashboard/members/:id', status: 401 });
    expect(lines.join('\n')).not.toContain(someone);
  });

  it('gives every error answer its request id (body and X-Request-Id), and a validation error is a 400 in French', async () => {
    const agent = product.agent();
    lines.length = 0;
    const bad = await agent.post('/api/v1/auth/signin', { email: 42 });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { code: string; message: string; requestId: string } };
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.message).toMatch(/invalide/i);
    expect(body.error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(bad.headers.get('x-request-id')).toBe(body.error.requestId);
    expect(requestLines().map((e) => e.reqId)).toContain(body.error.requestId);
    // A success carries no id header (the prerendered pages' answers stay as they were).
    expect((await agent.get('/api/v1/health')).headers.get('x-request-id')).toBeNull();
  });

  it('takes the request id of our own reverse proxy (TRUST_PROXY) when it is plain, else makes one', async () => {
    const agent = product.agent();
    lines.length = 0;
    const proxied = await agent.get('/api/v1/nulle-part', { 'x-request-id': 'nginx0123456789abcdef' });
    expect(proxied.headers.get('x-request-id')).toBe('nginx0123456789abcdef');
    const forged = await agent.get('/api/v1/nulle-part', { 'x-request-id': '<script>"\n' });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestLines().map((e) => e.reqId)).toEqual(['nginx0123456789abcdef', forged.headers.get('x-request-id')]);
  });
});
