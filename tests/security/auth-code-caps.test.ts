import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { DEFAULT_DAILY_CODE_CAPS } from '#bff/stand-ins/auth-service/code-caps.ts';
import { CODE_DAILY_LIMIT_MESSAGE } from '#machines/auth/credentials.ts';
import { eventSentence } from '#machines/onboarding/event-labels.ts';
import { MEMBER_PASSWORD, type OutsideProduct, startOutsideProduct } from '#tests/security/outsider.ts';
import { type StaffSession, signInStaff } from '#tests/support/staff.ts';
import { TestAgent } from '#tests/support/test-product.ts';

/**
 * Issue 60, point 5 (decision 188): every six-digit code of the embedded auth service has a daily
 * ceiling per account, as the contract's signing code has (signing-code-cap.test.ts): codes tried
 * (recovery, sign-up confirmation, staff invitation, e-mail change, reauthentication nonce) and
 * codes mailed at the account's own request (e-mail change, reauthentication). Past it, the person
 * is told in French to contact the agency, even the right code is refused for the day, and staff
 * see it in the member's history. Attacked from outside over the socket; the per-hour buckets
 * refill on the service's clock, moved here between tries so that only the daily ceiling is met.
 */
const clock = fakeClock(new Date());
let target: OutsideProduct;
let staff: StaffSession;
beforeAll(async () => {
  target = await startOutsideProduct({ TRUST_PROXY: '1' }, { clock });
  const inProcess = Object.assign(Object.create(target.product) as typeof target.product, {
    agent: () => new TestAgent(target.product.app, target.database),
  });
  staff = await signInStaff(inProcess);
  await staff.passTotp();
}, 90_000);
afterAll(() => target.stop());

const TRIES = DEFAULT_DAILY_CODE_CAPS.tried;
const MAILED = DEFAULT_DAILY_CODE_CAPS.mailed;

/** A call to the auth service as supabase-js makes it from outside: the anon key, the 2024 error shape. */
async function auth(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await target.outside(`/auth/v1${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    ...(init.body === undefined ? {} : { body: init.body }),
    headers: {
      apikey: target.product.auth.anonKey,
      'x-supabase-api-version': '2024-01-01',
      'x-forwarded-for': '203.0.113.77',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as { code?: string; message?: string } };
}

/** The hour's buckets (code guesses, one mail a minute) refill: only the day's ceiling is left to meet. */
const later = () => clock.set(new Date(clock.now().getTime() + 121_000));

/**
 * Sends wrong codes until the ceiling answers; returns how many were checked (refused as wrong)
 * before it, and the ceiling's answer.
 */
async function guessUntilCapped(tryOne: (guess: string) => Promise<{ status: number; body: { code?: string; message?: string } }>) {
  let checked = 0;
  for (let i = 0; i < TRIES + 5; i += 1) {
    later();
    const answer = await tryOne(String(100_000 + i * 7));
    if (answer.body.code === 'over_code_daily_limit') return { checked, refusal: answer };
    expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(400);
    expect(answer.body.code).not.toBe('over_request_rate_limit');
    checked += 1;
  }
  throw new Error('the daily ceiling never answered');
}

function expectCeiling(refusal: { status: number; body: { code?: string; message?: string } }) {
  expect(refusal.status).toBe(429);
  expect(refusal.body).toEqual({ code: 'over_code_daily_limit', message: CODE_DAILY_LIMIT_MESSAGE });
  expect(CODE_DAILY_LIMIT_MESSAGE).toMatch(/Contactez l’agence/);
}

let members = 0;
/** A member with a confirmed account, their id, and a cookie header for the site's API. */
async function member() {
  const { email, agent } = await target.registeredMember();
  members += 1;
  const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return { email, id, cookie, n: members };
}

async function accessToken(email: string): Promise<string> {
  const signedIn = await auth('/token?grant_type=password', { body: { email, password: MEMBER_PASSWORD } });
  expect(signedIn.status).toBe(200);
  return (signedIn.body as { access_token?: string }).access_token as string;
}

/** What staff read on the member's file: the lines of a context in its history. */
async function historyLines(memberId: string, context: string) {
  const file = await staff.agent.json<{ events: { context: string }[] }>(staff.agent.get(`/api/v1/dashboard/members/${memberId}`));
  return file.events.filter((event) => event.context === context);
}

async function expectShownToStaff(memberId: string, context: string, sentence: RegExp) {
  await expect.poll(async () => (await historyLines(memberId, context)).length, { timeout: 10_000 }).toBe(1);
  expect(eventSentence({ context, event: 'CODE_CAP', outcome: null, planId: null })).toMatch(sentence);
}

describe('the daily ceiling of the auth service’s six-digit codes', () => {
  it(`recovery code: ${TRIES} tries a day, then even the right code is refused; the mailed link still works; staff see it`, async () => {
    const { email, id } = await member();
    expect((await target.outside('/api/v1/auth/pass-recovery', { body: { ctx: 'reco', email } })).status).toBe(200);
    await target.product.flushMail();
    const mails = (await (await fetch(`${target.base}/_local/mailbox?format=json`)).json()) as { to: string; text: string }[];
    const text = mails.find((m) => m.to === email && m.text.includes('/connexion/update-password'))?.text ?? '';
    const code = /Code de vérification : (\d{6})/.exec(text.replaceAll('\u00a0', ' '))?.[1];
    const link = /token_hash=([0-9a-f]+)/.exec(text)?.[1];
    expect(code).toBeDefined();
    const { checked, refusal } = await guessUntilCapped((guess) =>
      auth('/verify', { body: { type: 'recovery', email, token: guess === code ? '000000' : guess } }),
    );
    expect(checked).toBe(TRIES);
    expectCeiling(refusal);
    later();
    expectCeiling(await auth('/verify', { body: { type: 'recovery', email, token: code } }));
    // The guesser locks nobody out: the mailed link is no six-digit code.
    const reset = await target.outside('/api/v1/auth/pass-recovery', {
      body: { ctx: 'change', password: 'figuier-lanterne-boussole-72', token: link },
      headers: { 'x-forwarded-for': '203.0.113.78' },
    });
    expect(reset.status).toBe(200);
    await expectShownToStaff(id, 'recovery_code_cap', /^Plafond quotidien des codes de réinitialisation du mot de passe atteint/);
  });

  it(`sign-up confirmation code: ${TRIES} tries a day on a registration waiting for its confirmation; its link still confirms`, async () => {
    const email = `attente.${Date.now()}@exemple-boite.fr`;
    const registered = await target.outside('/api/v1/dashboard/subscription', {
      body: { context: 'init', email, role: 'femme', password: MEMBER_PASSWORD },
      headers: { 'x-forwarded-for': '203.0.113.79' },
    });
    expect(registered.status).toBe(202);
    const { checked, refusal } = await guessUntilCapped((guess) => auth('/verify', { body: { type: 'signup', email, token: guess } }));
    expect(checked).toBe(TRIES);
    expectCeiling(refusal);
    await target.product.flushMail();
    const mails = (await (await fetch(`${target.base}/_local/mailbox?format=json`)).json()) as { to: string; text: string }[];
    const tokenHash = /\/connexion\/confirmation\?token_hash=([0-9a-f]+)/.exec(mails.find((m) => m.to === email)?.text ?? '')?.[1];
    const confirmed = await target.outside('/api/v1/auth/confirmation', {
      body: { tokenHash, email, password: MEMBER_PASSWORD },
      headers: { 'x-forwarded-for': '203.0.113.79' },
    });
    expect(confirmed.status).toBe(201);
  });

  it(`staff invitation code: ${TRIES} tries a day; the colleague still accepts with the invitation’s link`, async () => {
    const email = `collegue.${Date.now()}@agence.example.fr`;
    expect((await staff.agent.post('/api/v1/dashboard/staff-invitations', { email, name: 'Inès Collègue' })).status).toBe(201);
    const { checked, refusal } = await guessUntilCapped((guess) => auth('/verify', { body: { type: 'invite', email, token: guess } }));
    expect(checked).toBe(TRIES);
    expectCeiling(refusal);
    await target.product.flushMail();
    const mails = (await (await fetch(`${target.base}/_local/mailbox?format=json`)).json()) as { to: string; text: string }[];
    const token = /\/dashboard\/invitation\?token=([A-Za-z0-9_-]{43})/.exec(mails.find((m) => m.to === email)?.text ?? '')?.[1];
    const accepted = await target.outside('/api/v1/staff-invitation/accept', {
      body: { token, password: 'tisserand-horizon-4417', passwordRepeat: 'tisserand-horizon-4417' },
      headers: { 'x-forwarded-for': '203.0.113.80' },
    });
    expect(accepted.status).toBe(200);
  });

  it(`e-mail change code: ${MAILED} mails a day (the member is told, in French, to contact the agency), ${TRIES} tries a day; staff see it`, async () => {
    const { email, id, cookie } = await member();
    const ask = (n: number) =>
      target.outside('/api/v1/user/email', {
        body: { newEmail: `nouvelle.${n}.${email}`, currentPassword: MEMBER_PASSWORD },
        headers: { cookie, origin: target.base, 'x-forwarded-for': '203.0.113.81' },
      });
    for (let n = 0; n < MAILED; n += 1) {
      later();
      const asked = await ask(n);
      expect(asked.status, await asked.clone().text()).toBe(200);
    }
    later();
    const capped = await ask(MAILED);
    expect(capped.status).toBe(429);
    expect((await capped.json()).error).toMatchObject({ code: 'CODE_DAILY_LIMIT', message: CODE_DAILY_LIMIT_MESSAGE });
    await expectShownToStaff(id, 'email_change_code_cap', /^Plafond quotidien des codes de changement d’adresse e-mail atteint/);

    const pending = `nouvelle.${MAILED - 1}.${email}`;
    const { checked, refusal } = await guessUntilCapped((guess) =>
      auth('/verify', { body: { type: 'email_change', email: pending, token: guess } }),
    );
    expect(checked).toBe(TRIES);
    expectCeiling(refusal);
  });

  it(`reauthentication nonce: ${MAILED} codes a day, ${TRIES} tries a day, even the right one refused after; staff see it`, async () => {
    const { email, id } = await member();
    const token = await accessToken(email);
    for (let n = 0; n < MAILED; n += 1) {
      later();
      const asked = await auth('/reauthenticate', { token });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    }
    later();
    expectCeiling(await auth('/reauthenticate', { token }));
    await expectShownToStaff(id, 'reauthentication_code_cap', /^Plafond quotidien des codes de confirmation d’identité atteint/);

    // A second member's nonce guessed with their session (a thief's): the tries have a ceiling too.
    const other = await member();
    const otherToken = await accessToken(other.email);
    later();
    expect((await auth('/reauthenticate', { token: otherToken })).status).toBe(200);
    const { checked, refusal } = await guessUntilCapped((guess) =>
      auth('/user', { method: 'PUT', token: otherToken, body: { password: 'figuier-lanterne-boussole-72', nonce: guess } }),
    );
    expect(checked).toBe(TRIES);
    expectCeiling(refusal);
    await target.product.flushMail();
    const mails = (await (await fetch(`${target.base}/_local/mailbox?format=json`)).json()) as {
      to: string;
      subject: string;
      text: string;
    }[];
    const nonce = /(\d{6})/.exec(mails.find((m) => m.to === other.email && m.subject === 'Votre code de confirmation')?.text ?? '')?.[1];
    expect(nonce).toBeDefined();
    later();
    expectCeiling(await auth('/user', { method: 'PUT', token: otherToken, body: { password: 'figuier-lanterne-boussole-72', nonce } }));
    await expectShownToStaff(other.id, 'reauthentication_code_cap', /^Plafond quotidien des codes de confirmation d’identité atteint/);
  });
});
