import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { signInStaff } from '#tests/support/staff.ts';
import type { TestAgent } from '#tests/support/test-product.ts';
import {
  calendlySignature,
  databaseDigest,
  stripeSignature,
  digestDiff,
  isErrorShape,
  writeStamp,
  type SecurityProduct,
  signUpMember,
  startTestProduct,
  TEST_SITE,
} from '#tests/security/support.ts';

/**
 * Property-based fuzzing of every endpoint of the product API (enumerated from the app's routes):
 * wrong types, huge strings, unicode, missing and extra fields, bad JSON, wrong content types,
 * hostile query strings and path parameters, sent anonymously, as a member and as staff (aal2).
 * Properties: never a 5xx; every 4xx in the error shape `{error:{code,message}}`; a refused
 * request leaves the database exactly as it was (digest of row counts and latest updates).
 */

/**
 * Reads take only a query string and a path: fewer runs; bodies get the rest of the budget. `npm test`
 * sends about 1,000 requests (what 10,000 found, 1,000 find: decision 162); `npm run fuzz` sends
 * 10,000 and more on demand.
 */
const READ_RUNS = Number(process.env.FUZZ_READ_RUNS ?? 8);
const MIN_TOTAL = Number(process.env.FUZZ_MIN_TOTAL ?? 1_000);
const AUTH_RUNS = Number(process.env.FUZZ_AUTH_RUNS ?? 15);

let product: SecurityProduct;
let member: { agent: TestAgent; id: string; email: string };
let victim: { id: string };
let staff: TestAgent;
let sent = 0;
const statuses = new Map<number, number>();

beforeAll(async () => {
  product = await startTestProduct();
  member = await signUpMember(product);
  victim = await signUpMember(product, 'homme');
  // The stand-ins' webhook secrets are generated on first use: generate them before the baseline.
  await stripeSignature(product, '{}');
  await calendlySignature(product, '{}');
  const s = await signInStaff(product);
  await s.passTotp();
  staff = s.agent;
});
afterAll(async () => {
  console.log(`[fuzz] ${sent} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
  await product?.stop();
});

/** Valid bodies per endpoint: the seeds the mutations start from. */
function seeds(key: string): Record<string, unknown>[] {
  const email = `fuzz.${Date.now()}@example.fr`;
  switch (key) {
    case 'POST /api/v1/auth/signin':
      return [{ email, password: 'bismillah-2026' }];
    case 'POST /api/v1/auth/pass-recovery':
      return [
        { ctx: 'reco', email },
        { ctx: 'change', email, password: 'nouveau-mot-2026', token: 'ab'.repeat(20) },
        { ctx: 'change', password: 'nouveau-mot-2026', token: 'ab'.repeat(20) },
      ];
    case 'POST /api/v1/dashboard/subscription':
      return [
        { context: 'init', email, role: 'femme', password: 'bismillah-2026' },
        { context: 'init', email, password: 'bismillah-2026', invitation: 'A'.repeat(43) },
      ];
    case 'POST /api/v1/auth/confirmation':
      return [{ tokenHash: 'ab'.repeat(28) }, { tokenHash: 'ab'.repeat(28), email, password: 'bismillah-2026' }];
    case 'POST /api/v1/auth/confirmation/resend':
      return [{ email }];
    case 'POST /api/v1/subscription/pre-subscription':
      return [{ gender: 'homme', email, age: 31, zip_code: '69003', city: 'Lyon', consent: true }];
    case 'POST /api/v1/contact':
      return [{ name: 'Amina', email, subject: 'Autre', message: 'Bonjour, une question sur les formules.', consent: true }];
    case 'POST /api/v1/consent':
      return [
        {
          anonymousId: randomUUID(),
          version: '2026-11',
          choices: { functional: true, statistic: false, marketing: false, unclassified: false },
        },
      ];
    case 'POST /api/v1/user/update':
      return Object.values(samplePayloads({ id: member.id, email: member.email, gender: 'femme' }, Date.now()));
    case 'POST /api/v1/auth/mfa/verify':
      return [{ factorId: randomUUID(), code: '123456' }];
    case 'POST /api/v1/auth/ban':
      return [{ disable: false, uid: victim.id }];
    case 'POST /api/v1/dashboard/members/:id/messages':
      return [{ subject: 'Bonjour', body: 'Un message de l’agence.' }];
    case 'POST /api/v1/user/messages':
      return [{ subject: 'Une question', body: 'Bonjour, une question sur mon dossier.' }, { body: 'Merci.' }];
    case 'POST /api/v1/dashboard/message-templates':
    case 'PUT /api/v1/dashboard/message-templates/:id':
      return [
        { title: 'Confirmation', subject: 'Votre entretien, {prenom}', body: 'Bonjour {prenom} {nom},\n{agence}' },
        { title: 'Relance', body: 'Bonjour {prénom}' },
      ];
    case 'PUT /api/v1/dashboard/settings/plans':
      return [{ payInFull: 'cash' }];
    case 'POST /api/v1/dashboard/coupons':
      return [
        { code: 'FUZZOFFERT', discount: { kind: 'waiver' }, validFrom: '2026-01-01', validUntil: '2026-12-31', maxUses: 5 },
        {
          code: 'FUZZMOINS',
          discount: { kind: 'amount', amountCents: 2_000 },
          validFrom: '2026-01-01',
          validUntil: '2026-01-31',
          maxUses: 1,
        },
      ];
    case 'PATCH /api/v1/dashboard/coupons/:id':
      return [{ active: false }, { active: true }];
    case 'PATCH /api/v1/dashboard/leads/:id':
      return [{ status: 'contacte', assigneeId: null, followUpOn: '2026-12-03' }];
    case 'POST /api/v1/dashboard/leads/:id/notes':
      return [{ body: 'Rappelée ce matin.' }];
    case 'POST /api/v1/dashboard/leads/:id/answers/preview':
    case 'POST /api/v1/dashboard/leads/:id/answers':
      return [
        { subject: 'Votre message, {prenom}', body: 'Bonjour {prenom},\nMerci.\n{agence}' },
        { subject: 'Bonjour', body: 'Merci.', templateId: 1 },
      ];
    case 'POST /api/v1/dashboard/members/:id/notes':
    case 'PATCH /api/v1/dashboard/members/:id/notes/:noteId':
      return [{ body: 'Appelée ce matin.' }];
    case 'PUT /api/v1/dashboard/members/:id/counsellor':
      return [{ counsellorId: null }, { counsellorId: victim.id }];
    case 'POST /api/v1/dashboard/members/:id/tags':
      return [{ tag: 'Île-de-France' }, { tag: 'dossier prioritaire' }];
    case 'POST /api/v1/dashboard/introductions':
      return [{ a: member.id, b: victim.id, noteA: 'Un profil sérieux.', noteB: 'Une proposition réfléchie.' }];
    case 'POST /api/v1/dashboard/introductions/:id/events':
      return [
        { type: 'CLOSE', note: 'Fin de la mise en relation.' },
        { type: 'CLOSE', note: 'À la demande du membre.', message: 'Bonjour,\n\nNous mettons fin à la mise en relation.', askedBy: 'a' },
        { type: 'PLAN_MEETING', meetingAt: '2026-12-01T10:00:00.000Z', place: 'Agence', expectedVersion: 2 },
        { type: 'REOPEN', note: 'À la demande du membre.' },
      ];
    case 'POST /api/v1/dashboard/introductions/:id/feedback':
      return [
        { side: 'a', outcome: 'continuer' },
        { side: 'b', outcome: 'arreter', reason: 'autre', expectedVersion: 3 },
      ];
    case 'POST /api/v1/user/introductions/:id/events':
      return [
        { type: 'ACCEPT' },
        { type: 'DECLINE', reason: 'age', comment: 'Merci.' },
        { type: 'FEEDBACK', outcome: 'arreter', reason: 'autre' },
      ];
    case 'PUT /api/v1/user/introductions/:id/contact':
      return [{ via: 'moi' }, { via: 'wali' }, { via: 'reglages' }];
    case 'PUT /api/v1/user/guardian':
      return [
        {
          name: 'Ahmed Benali',
          relation: 'pere',
          email: 'pere@example.fr',
          phone: '06 12 34 56 78',
          receives: 'copie-propositions',
          informed: true,
        },
        {
          name: 'N’Diaye',
          relation: 'imam',
          email: '',
          phone: '+33612345678',
          receives: 'coordonnees',
          informed: true,
          contactVia: 'wali',
        },
      ];
    case 'PUT /api/v1/user/answers':
    case 'POST /api/v1/user/change-requests':
      return [
        {
          section: 'profil',
          firstName: 'Amina',
          lastName: 'Benali',
          birthDate: '1995-04-17',
          phone: '06 12 34 56 78',
          postcode: '69003',
          city: 'Lyon',
          maritalStatus: 'celibataire',
          childrenCount: 0,
          profession: 'Infirmière',
          prayerPractice: 'reguliere',
          practiceDetails: '',
          note: 'J’ai déménagé.',
        },
        {
          section: 'questionnaire',
          soughtPractice: 'indifferent',
          soughtAgeMin: 25,
          soughtAgeMax: 40,
          soughtRegions: ['ile-de-france'],
          soughtFamilySituations: ['celibataire'],
          acceptsChildren: true,
          soughtProfessionalSituation: 'indifferent',
          wantsChildren: 'peut-etre',
          readyToRelocate: false,
          requiredCriteria: ['age', 'desir-enfants'],
          otherQualities: 'Sincère et attaché à la famille.',
        },
      ];
    case 'PUT /api/v1/user/presentation':
      return [{ presentation: 'Infirmière à Lyon, j’aime la lecture.' }, { presentation: '' }];
    case 'POST /api/v1/dashboard/member-list/bulk':
      return [
        { action: 'etiquette', ids: [victim.id], tag: 'Fuzz' },
        { action: 'conseiller', ids: [victim.id, member.id], counsellorId: null },
        { action: 'message', ids: [victim.id], templateId: 1 },
      ];
    case 'POST /api/v1/dashboard/members/:id/never-propose':
      return [{ otherId: victim.id, reason: 'Cousins germains.' }];
    case 'POST /api/v1/dashboard/members/:id/presentation/review':
      return [
        { decision: 'approuver', updatedAt: '2026-12-07T10:00:00.000Z' },
        { decision: 'refuser', updatedAt: '2026-12-07T10:00:00.000Z', message: 'Retirez votre pseudonyme.' },
      ];
    case 'POST /api/v1/dashboard/change-requests/:requestId':
      return [{ decision: 'apply' }, { decision: 'decline', note: 'Nous en reparlerons.' }];
    case 'POST /api/v1/user/consents/withdraw':
      return [{ kind: 'sensitive_data' }, { kind: 'cookies' }];
    case 'POST /api/v1/user/erase':
      // Never the member's own address: the fuzzer must not erase its own caller.
      return [{ email: 'quelqu-un-d-autre@example.fr' }];
    case 'POST /api/v1/webhooks/stripe':
      return [
        {
          id: 'evt_fuzz',
          object: 'event',
          type: 'checkout.session.completed',
          livemode: false,
          data: { object: { id: 'cs_test_x', object: 'checkout.session' } },
        },
        // A later instalment of a monthly plan (decision 120).
        {
          id: 'evt_fuzz_instalment',
          object: 'event',
          type: 'invoice.payment_failed',
          livemode: false,
          data: {
            object: {
              id: 'in_fuzz',
              object: 'invoice',
              amount_paid: 0,
              amount_due: 9500,
              livemode: false,
              billing_reason: 'subscription_cycle',
              parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_fuzz' } },
            },
          },
        },
      ];
    case 'POST /api/v1/webhooks/calendly':
      return [
        {
          event: 'invitee.created',
          payload: {
            uri: 'https://x',
            scheduled_event: { uri: 'https://y', start_time: '2026-01-01T10:00:00Z', end_time: '2026-01-01T10:15:00Z' },
          },
        },
      ];
    case 'POST /auth/v1/signup':
    case 'POST /auth/v1/token':
    case 'POST /auth/v1/admin/users':
    case 'PUT /auth/v1/admin/users/:id':
      return [{ email, password: 'bismillah-2026', email_confirm: true, refresh_token: 'abcdefghijkl', data: { a: 1 } }];
    case 'POST /auth/v1/recover':
      return [{ email }];
    case 'POST /auth/v1/verify':
      return [
        { type: 'recovery', token_hash: 'ab'.repeat(28) },
        { type: 'email', email, token: '123456' },
      ];
    case 'PUT /auth/v1/user':
      return [{ email, password: 'nouveau-mot-2026', current_password: 'bismillah-2026', nonce: '123456', data: { a: 1 } }];
    case 'POST /auth/v1/factors':
      return [{ factor_type: 'totp', friendly_name: 'Téléphone', issuer: 'x' }];
    case 'POST /auth/v1/factors/:id/verify':
      return [{ challenge_id: randomUUID(), code: '123456' }];
    case 'POST /auth/v1/admin/generate_link':
      return [{ type: 'recovery', email, new_email: email, redirect_to: 'https://ailleurs.example/' }];
    default:
      return [{}];
  }
}

const QUERY_KEYS = [
  'collection',
  'slug',
  'offer',
  'memberId',
  'q',
  'step',
  'status',
  'kind',
  'assignee',
  'tag',
  'counsellor',
  'sort',
  'dir',
  'page',
  'perPage',
  'url',
  'w',
  'redirect',
  'token',
  'etat',
  'limit',
  'region',
  'practice',
  'ageMin',
  'ageMax',
  'gender',
  'minScore',
  'du',
  'au',
  'scope',
];

const HUGE = ['a'.repeat(70_000), 'é'.repeat(40_000), '\u{1F600}'.repeat(20_000), `${'x'.repeat(300_000)}`];
const hostileString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uD800',
    '\u202E',
    "' OR 1=1 --",
    '"; DROP TABLE members; --',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '__proto__',
    'constructor',
    '1e309',
    '-0',
    '00000000-0000-0000-0000-000000000000',
    'https://evil.example',
  ),
  fc.constantFrom(...HUGE.slice(0, 3)),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, Number.MAX_SAFE_INTEGER, 1e308, [], {}, [null], { $gt: '' }) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 5 }) },
);

type Body = { text: string | undefined; contentType: string | undefined };

const json = (value: unknown) => JSON.stringify(value) ?? 'null';

function bodyArbitrary(key: string): fc.Arbitrary<Body> {
  const seedList = seeds(key);
  const seed = fc.constantFrom(...seedList);
  const mutated = fc
    .tuple(
      seed,
      fc.array(
        fc.oneof(
          fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
          fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: hostileValue }),
          fc.record({
            op: fc.constant('extra' as const),
            name: fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'role', 'uid', 'isStaff', 'aal')),
            value: hostileValue,
          }),
        ),
        { minLength: 1, maxLength: 4 },
      ),
    )
    .map(([base, ops]) => {
      const out: Record<string, unknown> = { ...base };
      for (const op of ops) {
        const keys = Object.keys(out);
        if (op.op === 'drop' && keys.length > 0) delete out[keys[op.at % keys.length] as string];
        else if (op.op === 'set' && keys.length > 0) out[keys[op.at % keys.length] as string] = op.value;
        else if (op.op === 'extra')
          Object.defineProperty(out, op.name, { value: op.value, enumerable: true, configurable: true, writable: true });
      }
      return { text: json(out), contentType: 'application/json' } as Body;
    });
  const anyJson = hostileValue.map((value) => ({ text: json(value), contentType: 'application/json' }) as Body);
  const badJson = fc
    .oneof(
      fc.string({ maxLength: 50 }).map((s) => `{${s}`),
      fc.constantFrom('{', '{"a":', '[1,2', 'undefined', "{'a':1}", '{"a":1}}', '\uFEFF{}', 'NaN', '{"a":1,}', ''),
      seed.map((s) => json(s).slice(0, -1)),
    )
    .map((text) => ({ text, contentType: 'application/json' }) as Body);
  const wrongType = fc
    .tuple(
      seed,
      fc.constantFrom(
        undefined,
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/json-patch+json',
        'application/jsonx',
        'application/json; charset=utf-16',
        '*/*',
      ),
    )
    .map(
      ([s, contentType]) =>
        ({ text: contentType?.startsWith('application/x-www') ? 'email=a%40b.fr&password=x' : json(s), contentType }) as Body,
    );
  const huge = fc
    .constantFrom(...HUGE)
    .map((s) => ({ text: json({ ...seedList[0], email: s, message: s, body: s }), contentType: 'application/json' }) as Body);
  const none = fc.constant<Body>({ text: undefined, contentType: undefined });
  return fc.oneof(
    { weight: 5, arbitrary: mutated },
    { weight: 2, arbitrary: anyJson },
    { weight: 2, arbitrary: badJson },
    { weight: 2, arbitrary: wrongType },
    { weight: 1, arbitrary: huge },
    { weight: 1, arbitrary: none },
  );
}

/** Percent-encodes anything; a lone surrogate becomes an invalid UTF-8 sequence (hostile on purpose). */
const enc = (s: string) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '\u0001')).replaceAll('%01', '%ED%A0%80');

const queryArbitrary = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS, '__proto__', 'x'), hostileString), { maxLength: 4 })
  .map((pairs) => pairs.map(([k, v]) => `${enc(k)}=${enc(v.slice(0, 2000))}`).join('&'));

const idArbitrary = fc.oneof(
  fc.constant('MEMBER'),
  fc.uuid(),
  hostileString.map((s) => enc(s.slice(0, 500)) || 'x'),
  fc.constantFrom('%2e%2e', '..%2F..%2Fetc', '%00', '1', '-1', '%F0%9F%98%80'),
);

const callerArbitrary = fc.constantFrom('anonymous', 'member', 'staff');
const addressArbitrary = fc.tuple(fc.nat(255), fc.nat(255)).map(([a, b]) => `203.0.${a}.${b}`);

function apiRoutes(): [string, string][] {
  const keys = new Set<string>();
  for (const route of product.app.routes)
    if (route.method !== 'ALL' && route.path.startsWith('/api/v1/')) keys.add(`${route.method} ${route.path}`);
  return [...keys].sort().map((k) => k.split(' ') as [string, string]);
}

function cookieOf(caller: string, key: string): string | undefined {
  // Signing out ends the session: only ever sent anonymously.
  if (key === 'POST /api/v1/auth/signout') return undefined;
  const agent = caller === 'member' ? member.agent : caller === 'staff' ? staff : undefined;
  if (!agent || agent.cookies.size === 0) return undefined;
  return [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

/**
 * The properties every fuzzed answer must have: never a 5xx; a refusal in JSON (and in `shape`
 * when given); a refused request leaves the database exactly as it was (its digest is taken
 * again after each accepted one).
 */
class Referee {
  private digest = '';
  private stamp = '';

  async start() {
    this.digest = await databaseDigest(product.database);
    this.stamp = await writeStamp(product.database);
  }

  async judge(response: Response, what: string, shape?: (parsed: unknown) => boolean) {
    sent += 1;
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    const text = await response.text();
    const label = `${what}: ${response.status} ${text.slice(0, 300)}`;
    expect(response.status, label).toBeLessThan(500);
    if (response.status < 400) {
      await this.start();
      return;
    }
    expect(response.headers.get('content-type') ?? '', label).toMatch(/^application\/json/);
    let parsed: unknown;
    expect(() => {
      parsed = JSON.parse(text);
    }, label).not.toThrow();
    if (shape) expect(shape(parsed), label).toBe(true);
    const nextStamp = await writeStamp(product.database);
    if (nextStamp !== this.stamp) {
      const after = await databaseDigest(product.database);
      expect(digestDiff(this.digest, after), `${label}: a refused request changed the database`).toBe('');
      this.stamp = nextStamp;
    }
  }
}
const referee = new Referee();

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : json(value)).toString('base64url');

/**
 * What an attacker puts in `Authorization`: nothing, the public anon key, the member's real token,
 * the service-role key (admin routes), or a token forged from hostile headers and claims.
 */
function tokenArbitrary(): fc.Arbitrary<string | undefined> {
  const realKid = () => (JSON.parse(Buffer.from(product.auth.anonKey.split('.')[0] ?? '', 'base64url').toString()) as { kid: string }).kid;
  const forged = fc
    .tuple(
      fc.record({
        alg: fc.constantFrom('none', 'None', 'HS256', 'ES256', 'RS256', 'EdDSA', '', 'x'),
        kid: fc.oneof(
          fc.constant('REAL'),
          fc.uuid(),
          hostileString.map((k) => k.slice(0, 200)),
        ),
        typ: fc.constantFrom('JWT', undefined),
      }),
      fc.record({
        sub: fc.oneof(fc.constant('MEMBER'), fc.uuid(), hostileValue),
        session_id: fc.oneof(fc.uuid(), hostileValue),
        role: fc.constantFrom('authenticated', 'service_role', 'supabase_admin', 'anon', undefined),
        aal: fc.constantFrom('aal1', 'aal2', 'aal3', undefined),
        exp: fc.oneof(fc.integer({ min: 0, max: 4_000_000_000 }), hostileValue),
      }),
      fc.oneof(fc.constant(''), fc.constant('AAAA'), fc.string({ maxLength: 100 }).map(b64)),
    )
    .map(([header, claims, signature]) => {
      const h = { ...header, kid: header.kid === 'REAL' ? realKid() : header.kid };
      const c = { ...claims, sub: claims.sub === 'MEMBER' ? member.id : claims.sub };
      return `${b64(h)}.${b64(c)}.${signature}`;
    });
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant('ANON') },
    { weight: 1, arbitrary: fc.constant('MEMBER') },
    { weight: 1, arbitrary: fc.constant('SERVICE') },
    { weight: 4, arbitrary: forged },
    // A header carries bytes: what is not latin1 (or is a control) arrives as other bytes.
    { weight: 1, arbitrary: hostileString.map((t) => t.slice(0, 5000).replace(/[^\x21-\x7e\xa0-\xff]/g, '\xe9')) },
  );
}

function authRoutes(): [string, string][] {
  const keys = new Set<string>();
  for (const route of product.app.routes)
    if (route.method !== 'ALL' && route.path.startsWith('/auth/v1/')) keys.add(`${route.method} ${route.path}`);
  return [...keys].sort().map((k) => k.split(' ') as [string, string]);
}

/** The member's access token, from the session cookie the BFF wrote (@supabase/ssr, base64-). */
function memberAccessToken(): string {
  const names = [...member.agent.cookies.keys()].filter((name) => /^sb-.*-auth-token(\.\d+)?$/.test(name)).sort();
  const raw = names.map((name) => member.agent.cookies.get(name) ?? '').join('');
  return (JSON.parse(Buffer.from(raw.slice('base64-'.length), 'base64url').toString()) as { access_token: string }).access_token;
}

describe('fuzzing the embedded auth service', () => {
  it('every /auth/v1 route: never 5xx, always JSON on a refusal, and a refused request changes nothing', async () => {
    const routes = authRoutes();
    expect(routes.length).toBeGreaterThan(15);
    const memberToken = memberAccessToken();
    await referee.start();
    let count = 0;
    for (const [method, pattern] of routes) {
      const key = `${method} ${pattern}`;
      const write = method !== 'GET' && method !== 'HEAD' && method !== 'DELETE';
      // Signing out or deleting with the member's real token would end what other runs use.
      const tokens = tokenArbitrary().filter(
        (t) => !(t === 'MEMBER' && (key === 'POST /auth/v1/logout' || key.startsWith('DELETE ') || key === 'PUT /auth/v1/user')),
      );
      await fc.assert(
        fc.asyncProperty(
          tokens,
          write ? bodyArbitrary(key) : fc.constant<Body>({ text: undefined, contentType: undefined }),
          queryArbitrary,
          idArbitrary,
          addressArbitrary,
          async (token, body, query, id, address) => {
            const path = pattern.replace(/:[A-Za-z]+/g, id === 'MEMBER' ? member.id : id);
            const url = `${TEST_SITE}${path}${query ? `?${query}` : ''}`;
            const headers: Record<string, string> = {
              'x-forwarded-for': address,
              'sb-forwarded-for': address,
              apikey: product.auth.anonKey,
            };
            if (body.contentType) headers['content-type'] = body.contentType;
            const bearer =
              token === 'ANON'
                ? product.auth.anonKey
                : token === 'MEMBER'
                  ? memberToken
                  : token === 'SERVICE'
                    ? product.auth.serviceRoleKey
                    : token;
            // The service role may create and change users: it is only sent to reads.
            if (bearer && !(token === 'SERVICE' && write)) headers.authorization = `Bearer ${bearer}`;
            const response = await product.app.request(url, { method, headers, ...(body.text !== undefined ? { body: body.text } : {}) });
            count += 1;
            // GoTrue's error shapes differ from the API's: only JSON is required of them.
            await referee.judge(response, `${key} (${String(token).slice(0, 60)})`);
          },
        ),
        { numRuns: AUTH_RUNS, endOnFailure: true },
      );
    }
    expect(count).toBeGreaterThanOrEqual(routes.length * AUTH_RUNS);
  }, 300_000);
});

describe('fuzzing every endpoint', () => {
  it('has endpoints to fuzz', () => {
    expect(apiRoutes().length).toBeGreaterThan(20);
  });

  it(`never 5xx, always the error shape, and a refused request changes nothing (≥ ${MIN_TOTAL} requests in all)`, async () => {
    const routes = apiRoutes();
    const reads = routes.filter(([m]) => m === 'GET').length;
    const writeRuns = Math.max(READ_RUNS, Math.ceil((MIN_TOTAL * 1.02 - reads * READ_RUNS) / (routes.length - reads)));
    await referee.start();
    for (const [method, pattern] of routes) {
      const key = `${method} ${pattern}`;
      const write = method !== 'GET' && method !== 'HEAD';
      const started = performance.now();
      const before = sent;
      await fc.assert(
        fc.asyncProperty(
          callerArbitrary,
          write ? bodyArbitrary(key) : fc.constant<Body>({ text: undefined, contentType: undefined }),
          queryArbitrary,
          idArbitrary,
          addressArbitrary,
          fc.boolean(),
          async (caller, body, query, id, address, sameOrigin) => {
            const path = pattern.replace(/:[A-Za-z]+/g, id === 'MEMBER' ? member.id : id);
            const url = `${TEST_SITE}${path}${query ? `?${query}` : ''}`;
            const headers: Record<string, string> = { 'x-forwarded-for': address };
            if (body.contentType) headers['content-type'] = body.contentType;
            if (write && sameOrigin) headers.origin = TEST_SITE;
            const cookie = cookieOf(caller, key);
            if (cookie) headers.cookie = cookie;
            const response = await product.app.request(url, { method, headers, ...(body.text !== undefined ? { body: body.text } : {}) });
            await referee.judge(response, `${key} as ${caller}`, isErrorShape);
          },
        ),
        { numRuns: write ? writeRuns : READ_RUNS, endOnFailure: true },
      );
      if (process.env.FUZZ_VERBOSE) console.log(`[fuzz] ${key}: ${sent - before} in ${Math.round(performance.now() - started)} ms`);
    }
    expect(sent).toBeGreaterThanOrEqual(MIN_TOTAL);
  }, 300_000);
});

describe('fuzzing photo uploads (decision 116)', () => {
  /** A real PNG whose header claims 100,000 × 100,000 pixels (CRC fixed): a decompression bomb. */
  async function bombPng(): Promise<Uint8Array> {
    const { default: sharp } = await import('sharp');
    const { crc32 } = await import('node:zlib');
    const real = Buffer.from(
      await sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    );
    real.writeUInt32BE(100_000, 16);
    real.writeUInt32BE(100_000, 20);
    real.writeUInt32BE(crc32(real.subarray(12, 29)) >>> 0, 29);
    return new Uint8Array(real);
  }

  it('hostile bytes (random, truncated, corrupted, bombs, wrong types): never 5xx, always a French error, a refusal changes nothing', async () => {
    const { default: sharp } = await import('sharp');
    const solid = { width: 64, height: 48, channels: 3 as const, background: '#a52' };
    const reals = [
      new Uint8Array(await sharp({ create: solid }).jpeg().toBuffer()),
      new Uint8Array(await sharp({ create: solid }).png().toBuffer()),
      new Uint8Array(await sharp({ create: solid }).webp().toBuffer()),
    ];
    const bomb = await bombPng();
    // Several members, so that the rate of decodings (30 per member and hour) leaves the decoder fuzzed.
    const uploaders: TestAgent[] = [];
    for (let i = 0; i < 6; i += 1) uploaders.push((await signUpMember(product)).agent);
    const cookieOfAgent = (agent: TestAgent) => [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const hostileBytes = fc.oneof(
      fc.uint8Array({ maxLength: 4096 }),
      fc
        .tuple(fc.constantFrom(...reals), fc.uint8Array({ maxLength: 512 }))
        .map(([r, tail]) => new Uint8Array([...r.subarray(0, 12), ...tail])),
      fc.tuple(fc.constantFrom(...reals), fc.nat()).map(([r, cut]) => r.subarray(0, cut % r.length)),
      fc
        .tuple(fc.constantFrom(...reals), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }))
        .map(([r, flips]) => {
          const copy = new Uint8Array(r);
          for (const [at, value] of flips) copy[at % copy.length] = value;
          return copy;
        }),
      fc.constant(bomb),
      fc.constant(new Uint8Array()),
    );
    await referee.start();
    await fc.assert(
      fc.asyncProperty(
        fc.nat(uploaders.length - 1),
        hostileBytes,
        fc.constantFrom('image/jpeg', 'image/png', 'image/webp', 'application/octet-stream', 'text/plain', 'application/json', undefined),
        async (who, bytes, contentType) => {
          const uploader = uploaders[who] as TestAgent;
          const headers: Record<string, string> = { 'x-forwarded-for': '203.0.113.9', origin: TEST_SITE, cookie: cookieOfAgent(uploader) };
          if (contentType) headers['content-type'] = contentType;
          const response = await product.app.request(`${TEST_SITE}/api/v1/user/photos`, {
            method: 'POST',
            headers,
            body: bytes as Uint8Array<ArrayBuffer>,
          });
          if (response.status === 201) {
            // Accepted (a corruption that still decodes): removed again, so the limit of 3 is never what answers.
            const { photo } = (await response.clone().json()) as { photo: { id: string } };
            await uploader.request('DELETE', `/api/v1/user/photos/${photo.id}`);
          }
          await referee.judge(response, `POST /api/v1/user/photos (${bytes.length} octets, ${contentType})`, isErrorShape);
        },
      ),
      { numRuns: Number(process.env.FUZZ_PHOTO_RUNS ?? 40), endOnFailure: true },
    );
    // The bomb itself: refused in French, not decoded (a member of its own: no rate limit in the way).
    const fresh = (await signUpMember(product)).agent;
    const response = await product.app.request(`${TEST_SITE}/api/v1/user/photos`, {
      method: 'POST',
      headers: { 'x-forwarded-for': '203.0.113.9', origin: TEST_SITE, 'content-type': 'image/png', cookie: cookieOfAgent(fresh) },
      body: bomb as Uint8Array<ArrayBuffer>,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('JPEG, PNG ou WebP');
  }, 120_000);
});

describe('fuzzing termination forms and proofs (decision 189)', () => {
  it('hostile forms and files (random, disguised, truncated, duplicated, broken multipart): never 5xx, always a French error, a refusal changes nothing', async () => {
    const { default: sharp } = await import('sharp');
    const { seedActiveMember } = await import('#tests/support/active-member-seed.ts');
    const { proofForm, samplePdf } = await import('#tests/support/termination.ts');
    const solid = { width: 40, height: 30, channels: 3 as const, background: '#eee' };
    const reals = [
      samplePdf(),
      new Uint8Array(await sharp({ create: solid }).jpeg().toBuffer()),
      new Uint8Array(await sharp({ create: solid }).png().toBuffer()),
    ];
    // Members with a pending request (its proof replaceable): several, so that the hourly limit on
    // decodings (20 per person) leaves the checks fuzzed.
    const pending: { agent: TestAgent; id: string; terminationId: number }[] = [];
    for (let i = 0; i < 3; i += 1) {
      const email = `fuzz.resiliation.${i}.${Date.now()}@example.fr`;
      const seeded = await seedActiveMember(product, product.clock.now().getTime(), {
        email,
        firstName: 'Nadia',
        gender: 'femme',
        age: 31,
      });
      const agent = product.agent();
      expect((await agent.post('/api/v1/auth/signin', { email, password: seeded.password })).status).toBe(200);
      const asked = await agent.request(
        'POST',
        '/api/v1/user/terminations',
        proofForm(
          { reason: 'demenagement', explanation: 'Je déménage à Lille pour mon travail.' },
          { bytes: samplePdf(), name: 'a.pdf', type: 'application/pdf' },
        ),
      );
      expect(asked.status, await asked.clone().text()).toBe(201);
      const { termination } = (await asked.json()) as { termination: { id: number } };
      pending.push({ agent, id: seeded.id, terminationId: termination.id });
    }
    const cookieOfAgent = (agent: TestAgent) => [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const hostileBytes = fc.oneof(
      fc.uint8Array({ maxLength: 2048 }),
      fc
        .tuple(fc.constantFrom(...reals), fc.uint8Array({ maxLength: 256 }))
        .map(([r, tail]) => new Uint8Array([...r.subarray(0, 12), ...tail])),
      fc.tuple(fc.constantFrom(...reals), fc.nat()).map(([r, cut]) => r.subarray(0, cut % r.length)),
      fc
        .tuple(fc.constantFrom(...reals), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }))
        .map(([r, flips]) => {
          const copy = new Uint8Array(r);
          for (const [at, value] of flips) copy[at % copy.length] = value;
          return copy;
        }),
      fc.constant(new Uint8Array(Buffer.from('<html><script>alert(1)</script></html>'))),
      fc.constant(new Uint8Array()),
    );
    const fieldName = fc.oneof(
      fc.constantFrom('reason', 'explanation', 'receivedOn', 'justificatif', 'proof', 'uid', 'context'),
      hostileString,
    );
    const part = fc.oneof(
      fc
        .tuple(
          fieldName,
          hostileString.map((v) => v.slice(0, 3000)),
        )
        .map(([name, value]) => ({ name, value: value as string | Blob })),
      fc
        .tuple(
          fieldName,
          hostileBytes,
          fc.constantFrom('application/pdf', 'image/jpeg', 'image/png', 'text/html', ''),
          fc.constantFrom('a.pdf', 'b.jpg', '', 'x.exe'),
        )
        .map(([name, bytes, type, filename]) => ({
          name,
          value: new File([bytes as Uint8Array<ArrayBuffer>], filename, { type }) as string | Blob,
        })),
    );
    const seedParts = fc.constantFrom(
      [
        { name: 'reason', value: 'demenagement' },
        { name: 'explanation', value: 'Je déménage à Lille pour mon travail.' },
      ],
      [
        { name: 'receivedOn', value: '2026-11-30' },
        { name: 'reason', value: 'autre-motif-grave' },
        { name: 'explanation', value: 'Courrier reçu ce matin.' },
      ],
      [] as { name: string; value: string | Blob }[],
    );
    const formBody = fc
      .tuple(
        seedParts,
        fc.array(part, { maxLength: 4 }),
        fc.option(fc.tuple(hostileBytes, fc.constantFrom('application/pdf', 'image/png'))),
      )
      .map(([seed, extra, file]) => {
        const form = new FormData();
        for (const { name, value } of [...seed, ...extra]) form.append(name, value);
        if (file) form.append('justificatif', new File([file[0] as Uint8Array<ArrayBuffer>], 'justificatif.pdf', { type: file[1] }));
        return { form } as { form?: FormData; raw?: string; type?: string };
      });
    const brokenMultipart = fc
      .tuple(
        hostileString,
        fc.constantFrom(
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'multipart/form-data; boundary=x',
          'multipart/form-data; boundary="a b"',
        ),
      )
      .map(
        ([text, type]) =>
          ({ raw: `--x\r\nContent-Disposition: form-data; name="reason"\r\n\r\n${text}\r\n--x`, type }) as {
            form?: FormData;
            raw?: string;
            type?: string;
          },
      );
    const routes = fc.constantFrom('member-request', 'member-proof', 'other-proof', 'staff-letter');
    await referee.start();
    await fc.assert(
      fc.asyncProperty(
        fc.nat(pending.length - 1),
        routes,
        fc.oneof({ weight: 4, arbitrary: formBody }, { weight: 1, arbitrary: brokenMultipart }),
        async (who, route, body) => {
          const mine = pending[who] as (typeof pending)[number];
          const other = pending[(who + 1) % pending.length] as (typeof pending)[number];
          const path =
            route === 'member-request'
              ? '/api/v1/user/terminations'
              : route === 'member-proof'
                ? `/api/v1/user/terminations/${mine.terminationId}/proof`
                : route === 'other-proof'
                  ? `/api/v1/user/terminations/${other.terminationId}/proof`
                  : `/api/v1/dashboard/members/${mine.id}/terminations`;
          const headers: Record<string, string> = {
            'x-forwarded-for': '203.0.113.19',
            origin: TEST_SITE,
            cookie: route === 'staff-letter' ? (cookieOf('staff', 'x') ?? '') : cookieOfAgent(mine.agent),
          };
          if (body.type) headers['content-type'] = body.type;
          const response = await product.app.request(`${TEST_SITE}${path}`, { method: 'POST', headers, body: body.form ?? body.raw ?? '' });
          if (route === 'other-proof') expect(response.status, 'another member’s request').not.toBe(200);
          await referee.judge(response, `POST ${path} (${route})`, isErrorShape);
        },
      ),
      { numRuns: Number(process.env.FUZZ_PROOF_RUNS ?? 60), endOnFailure: true },
    );
  }, 180_000);
});
