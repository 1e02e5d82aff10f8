import sharp from 'sharp';
import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { recordConsent } from '#bff/privacy/consents.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import { uploadPhoto } from '#tests/support/active-member.ts';
import { seedActiveMember } from '#tests/support/active-member-seed.ts';
import { requestTermination, samplePdf } from '#tests/support/termination.ts';
import type { TestAgent, TestProduct } from '#tests/support/test-product.ts';

/**
 * « Privacy ends when the introduction ends » (issue 62 point 3, decision 194), as a table shared by
 * the integration suite and the authorisation matrix: two members with a photo each, a guardian
 * who receives the contact details and phones of their own, a mutually accepted introduction
 * (photos released, contact shared), then one cause of its end applied through the product's own
 * HTTP API or job, on the agency's clock (`/_local/clock`).
 */

export interface Person {
  id: string;
  email: string;
  phone: string;
  firstName: string;
  password: string;
  agent: TestAgent;
  /** Their own photo's id (the other side's URL is `/api/v1/user/introductions/:id/photos/:photoId`). */
  photoId: string;
  /** Their guardian's address (who receives the contact details): must leave with the contact. */
  guardianEmail: string;
}

export interface Pair {
  a: Person;
  b: Person;
  introductionId: string;
}

export interface Env {
  product: TestProduct;
  /** A staff agent at aal2. */
  staff: TestAgent;
}

let n = 0;

/** The agency's now (the test's base clock plus what `/_local/clock` moved). */
export const agencyNow = (env: Env) => env.product.clock.now().getTime();

/** Moves the agency's clock to `at` (ms), running every job due on the way, as a person does at `/_local/clock`. */
export async function moveClockTo(env: Env, at: number): Promise<void> {
  const moved = await env.staff.post('/_local/clock', { to: new Date(at).toISOString() });
  expect(moved.status, await moved.clone().text()).toBe(200);
}

type SeedOptions = Parameters<typeof seedActiveMember>[3];

async function person(env: Env, firstName: string, gender: 'femme' | 'homme', options: SeedOptions = {}): Promise<Person> {
  n += 1;
  const email = `${firstName.toLowerCase()}.fin${n}.${Date.now()}@example.fr`;
  // A phone of their own: searching an answer for it finds nobody else's.
  const phone = `+336${String(10_000_000 + ((Date.now() + n * 7919) % 89_999_999)).padStart(8, '0')}`;
  const { id, password } = await seedActiveMember(
    env.product,
    agencyNow(env),
    { email, firstName, gender, age: 31 },
    { ...options, phone },
  );
  const agent = env.product.agent();
  const signin = await agent.post('/api/v1/auth/signin', { email, password });
  expect(signin.status).toBe(200);
  const jpeg = await sharp({ create: { width: 120, height: 150, channels: 3, background: gender === 'femme' ? '#aa6644' : '#446688' } })
    .jpeg()
    .toBuffer();
  const uploaded = await uploadPhoto(env.product, { id, email, firstName, agent }, new Uint8Array(jpeg));
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);
  const photoId = ((await uploaded.json()) as { photo: { id: string } }).photo.id;
  const guardianEmail = `proche.fin${n}.${Date.now()}@example.fr`;
  const guardian = await agent.request('PUT', '/api/v1/user/guardian', {
    name: 'Karim Proche',
    relation: 'frere',
    email: guardianEmail,
    phone: '',
    receives: 'coordonnees',
    informed: true,
  });
  expect(guardian.status, await guardian.clone().text()).toBe(200);
  return { id, email, phone, firstName, password, agent, photoId, guardianEmail };
}

/** Staff propose a to b; each accepts when asked to (a first). */
async function introduce(env: Env, a: Person, b: Person, accepts: { a: boolean; b: boolean }): Promise<string> {
  const proposed = await env.staff.post('/api/v1/dashboard/introductions', { a: a.id, b: b.id });
  expect(proposed.status, await proposed.clone().text()).toBe(201);
  const id = ((await proposed.json()) as { introduction: { id: string } }).introduction.id;
  for (const side of ['a', 'b'] as const) {
    if (!accepts[side]) continue;
    const who = side === 'a' ? a : b;
    const accepted = await who.agent.post(`/api/v1/user/introductions/${id}/events`, { type: 'ACCEPT' });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
  }
  return id;
}

/** The other side's photo URL, as `viewer`'s view listed it while shared. */
export function otherPhotoUrl(pair: Pair, viewer: 'a' | 'b'): string {
  const owner = viewer === 'a' ? pair.b : pair.a;
  return `/api/v1/user/introductions/${pair.introductionId}/photos/${owner.photoId}`;
}

/** The strings that would give the other person's contact away: their address, phone (both ways), their guardian's address. */
export function contactStrings(p: Person): string[] {
  return [p.email, p.phone, `0${p.phone.slice(3)}`, p.guardianEmail];
}

export interface View {
  id: string;
  state: string;
  proposedAt: string;
  other: { firstName: string | null } | null;
  otherFirstName: string | null;
  contact: { email: string; phone: string | null; guardian: { email: string | null } | null } | null;
  photos: { id: string; url: string }[];
  ended: { at: string | null; why: string | null; wasShared: boolean } | null;
}

export async function viewOf(p: Person, introductionId: string): Promise<View | undefined> {
  const response = await p.agent.get('/api/v1/user/introductions');
  expect(response.status).toBe(200);
  return ((await response.json()) as { introductions: View[] }).introductions.find((v) => v.id === introductionId);
}

export interface EndingCase {
  /** The cause, in the words. */
  name: string;
  /** Accepted by both (photos and contact shared) before the cause; false: one acceptance, nothing shared yet. */
  mutual: boolean;
  /** How b is seeded, when the cause needs a contract of its own (the term near, an early start). */
  b?: (now: number) => SeedOptions;
  /** Before the introduction (e.g. the consent the withdrawal withdraws). */
  before?: (env: Env, pair: Omit<Pair, 'introductionId'>) => Promise<void>;
  /** Applies the cause, through the HTTP API or the clock. */
  apply: (env: Env, pair: Pair) => Promise<void>;
  /** After the cause, what may not bring anything back (a ban lifted, a consent given back). */
  after?: (env: Env, pair: Pair) => Promise<void>;
  /** Who can no longer sign in (erased, disabled): their answers are 401, checked as such. */
  gone?: 'b';
  /** The introduction's state afterwards, as the member's list shows it. */
  state: string;
}

const post = async (agent: TestAgent, path: string, body: unknown, status = 200) => {
  const response = await agent.post(path, body);
  expect(response.status, `${path} ${await response.clone().text()}`).toBe(status);
  return response;
};

/** Every cause of the issue that can end an introduction once something was or could be shared. */
export const endingCases: EndingCase[] = [
  {
    name: 'refusée (b décline après l’acceptation de a)',
    mutual: false,
    apply: async (_env, { b, introductionId }) => {
      await post(b.agent, `/api/v1/user/introductions/${introductionId}/events`, { type: 'DECLINE', reason: 'pas-de-feeling' });
    },
    state: 'declinee',
  },
  {
    name: 'expirée (7 jours sans la réponse de b)',
    mutual: false,
    apply: async (env) => moveClockTo(env, agencyNow(env) + 8 * DAY_MS),
    state: 'expiree',
  },
  {
    name: 'arrêtée par un membre après la rencontre',
    mutual: true,
    apply: async (env, { b, introductionId }) => {
      const meetingAt = agencyNow(env) + 2 * 60 * 60 * 1000;
      const events = `/api/v1/dashboard/introductions/${introductionId}/events`;
      await post(env.staff, events, { type: 'PLAN_MEETING', meetingAt: toIsoInstant(meetingAt), place: 'Locaux de l’agence' });
      await moveClockTo(env, meetingAt + 60_000);
      await post(env.staff, events, { type: 'RECORD_MEETING_HELD' });
      await post(b.agent, `/api/v1/user/introductions/${introductionId}/events`, {
        type: 'FEEDBACK',
        outcome: 'arreter',
        reason: 'pas-de-feeling',
      });
    },
    state: 'close',
  },
  {
    name: 'close par l’équipe',
    mutual: true,
    apply: async (env, { introductionId }) => {
      await post(env.staff, `/api/v1/dashboard/introductions/${introductionId}/events`, { type: 'CLOSE', note: 'Demande des deux.' });
    },
    state: 'close',
  },
  {
    name: 'contrat rétracté (b avait demandé à commencer avant 14 jours)',
    mutual: true,
    b: (now) => ({ signedAt: now - 8 * DAY_MS, startedEarly: true }),
    apply: async (_env, { b }) => {
      await post(b.agent, '/api/v1/user/update', { context: 'withdraw', confirm: true });
    },
    state: 'close',
  },
  {
    name: 'contrat résilié pour motif légitime',
    mutual: true,
    apply: async (env, { b }) => {
      const asked = await requestTermination(
        b.agent,
        {
          reason: 'demenagement',
          explanation: 'Je pars vivre au Canada pour mon travail.',
        },
        { bytes: samplePdf('Contrat de travail a Montreal'), name: 'contrat.pdf', type: 'application/pdf' },
      );
      expect(asked.status, JSON.stringify(asked.body)).toBe(201);
      await post(env.staff, '/api/v1/user/update', { context: 'terminate_ok', uid: b.id });
    },
    state: 'close',
  },
  {
    name: 'contrat arrivé à son terme (le jour passe sur l’horloge de l’agence)',
    mutual: true,
    // Signed 363 days ago on a 12-month plan: the term passes in about two days.
    b: (now) => ({ signedAt: now - 363 * DAY_MS }),
    apply: async (env, { b }) => {
      const [row] = (
        (await env.product.database.db.execute(
          sql`SELECT onboarding->>'subscriptionDate' AS signed FROM members WHERE id = ${b.id}::uuid`,
        )) as unknown as { rows: { signed: string }[] }
      ).rows;
      const term = termEndsAtMs({ subscriptionDate: row?.signed ?? null, selectedPlanId: 'plan_serenity_year' }) ?? 0;
      expect(term).toBeGreaterThan(agencyNow(env));
      await moveClockTo(env, term + 60 * 60 * 1000);
    },
    state: 'close',
  },
  {
    name: 'compte effacé',
    mutual: true,
    apply: async (_env, { b }) => {
      await post(b.agent, '/api/v1/user/erase', { email: b.email });
    },
    gone: 'b',
    state: 'close',
  },
  {
    name: 'compte désactivé (banni)',
    mutual: true,
    apply: async (env, { b }) => {
      await post(env.staff, '/api/v1/auth/ban', { disable: true, uid: b.id });
    },
    // Lifting the ban brings nothing back (the end is recorded): b, signed in again, sees nothing of a either.
    after: async (env, { b }) => {
      expect((await b.agent.get('/api/v1/user/introductions')).status).toBe(401);
      await post(env.staff, '/api/v1/auth/ban', { disable: false, uid: b.id });
      await post(b.agent, '/api/v1/auth/signin', { email: b.email, password: b.password });
    },
    state: 'close',
  },
  {
    name: 'consentement aux photos (données sensibles) retiré',
    mutual: true,
    before: async (env, { b }) => {
      await recordConsent(env.product.database.db, { memberId: b.id, kind: 'sensitive_data', given: true, at: env.product.clock.now() });
    },
    apply: async (_env, { b }) => {
      await post(b.agent, '/api/v1/user/consents/withdraw', { kind: 'sensitive_data' });
    },
    // Given back (as the wizard does when the member consents again): nothing comes back.
    after: async (env, { b }) => {
      await env.product.database.db.execute(sql`UPDATE members SET matchmaking_paused_at = NULL WHERE id = ${b.id}::uuid`);
    },
    state: 'close',
  },
];

/** Two members (b seeded as the case says) and their introduction, accepted by a, and by b when the case is mutual. */
export async function setUpPair(env: Env, c: Pick<EndingCase, 'mutual' | 'b' | 'before'>): Promise<Pair> {
  const a = await person(env, 'Amina', 'femme');
  const b = await person(env, 'Youssef', 'homme', c.b?.(agencyNow(env)));
  await c.before?.(env, { a, b });
  const introductionId = await introduce(env, a, b, { a: true, b: c.mutual });
  return { a, b, introductionId };
}

/**
 * « A contract renounced » (decision 212's audit): within the 7-day renunciation period the member
 * cannot be proposed at all, even when they asked to start at once — so no introduction is ever
 * ended by a renunciation. The staff's proposal of such a member, as the matrix's other rows make it.
 */
export async function proposeDuringRenunciation(env: Env): Promise<Response> {
  const a = await person(env, 'Amina', 'femme');
  const b = await person(env, 'Youssef', 'homme', { signedAt: agencyNow(env) - 3 * DAY_MS, startedEarly: true });
  return env.staff.post('/api/v1/dashboard/introductions', { a: a.id, b: b.id });
}

/** The highest mail id so far: mails queued after it are the ones a cause may have caused. */
export async function lastMailId(env: Env): Promise<number> {
  const [row] = (
    (await env.product.database.db.execute(sql`SELECT coalesce(max(id), 0)::int AS id FROM mail_outbox`)) as unknown as {
      rows: { id: number }[];
    }
  ).rows;
  return row?.id ?? 0;
}

/** Mails queued after `afterId` to anyone but `owner`, that name `owner`'s contact details. */
export async function newMailsWithContactOf(env: Env, owner: Person, afterId: number): Promise<string[]> {
  const rows = (
    (await env.product.database.db.execute(
      sql`SELECT to_address, subject, text_body, coalesce(html_body, '') AS html FROM mail_outbox WHERE id > ${afterId}`,
    )) as unknown as { rows: { to_address: string; subject: string; text_body: string; html: string }[] }
  ).rows;
  const secrets = contactStrings(owner);
  return rows
    .filter((m) => m.to_address !== owner.email && m.to_address !== owner.guardianEmail)
    .filter((m) => secrets.some((s) => `${m.text_body}${m.html}`.includes(s)))
    .map((m) => `${m.to_address}: ${m.subject}`);
}
