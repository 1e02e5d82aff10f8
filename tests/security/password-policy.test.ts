import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_PERSONAL_MESSAGE, PASSWORD_TOO_COMMON_MESSAGE } from '#bff/auth/password-strength.ts';
import { PASSWORD_MIN_LENGTH } from '#machines/auth/credentials.ts';
import { MEMBER_PASSWORD, type OutsideProduct, startOutsideProduct } from '#tests/security/outsider.ts';

/**
 * Issue 60, point 7: an account holding religious practice and photos takes a password of 12
 * characters at least, not a common one, not one built on the person's name or address; the
 * refusal says why, in French. Checked on the server (zxcvbn-ts with French dictionaries), the
 * library never sent to a browser.
 */
let target: OutsideProduct;
beforeAll(async () => {
  target = await startOutsideProduct({ TRUST_PROXY: '1' });
});
afterAll(() => target.stop());

let visitors = 0;
async function register(email: string, password: string) {
  visitors += 1;
  const response = await target.outside('/api/v1/dashboard/subscription', {
    body: { context: 'init', email, role: 'femme', password },
    headers: { 'x-forwarded-for': `203.0.113.${visitors}` },
  });
  return { status: response.status, body: await response.json() };
}

describe('a new account’s password', () => {
  it(`is refused under ${PASSWORD_MIN_LENGTH} characters`, async () => {
    expect(PASSWORD_MIN_LENGTH).toBe(12);
    const refused = await register(`court.${Date.now()}@example.fr`, 'Zq8!vT2#pL');
    expect(refused.status).toBe(400);
    expect(refused.body.error.reason).toBe('PASSWORD_TOO_SHORT');
  });

  it('is refused when common, with a French reason', async () => {
    for (const password of ['motdepasse123', 'azertyuiop123', '123456789abc']) {
      const refused = await register(`courant.${visitors}.${Date.now()}@example.fr`, password);
      expect(refused.status, password).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 'INVALID_CREDENTIALS',
        reason: 'PASSWORD_TOO_COMMON',
        message: PASSWORD_TOO_COMMON_MESSAGE,
      });
    }
  });

  it('is refused when built on the person’s e-mail address, and says so', async () => {
    const refused = await register(`fatima.zahraoui.${Date.now()}@exemple-mail.fr`, 'Fatima.Zahraoui-2026');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ reason: 'PASSWORD_PERSONAL', message: PASSWORD_PERSONAL_MESSAGE });
    expect(PASSWORD_PERSONAL_MESSAGE).toMatch(/votre nom ou votre adresse e-mail/);
  });

  it('is accepted when long and unguessable (the account then waits for its address to be confirmed)', async () => {
    const accepted = await register(`solide.${Date.now()}@example.fr`, MEMBER_PASSWORD);
    expect(accepted.status).toBe(202);
  });
});

describe('a changed password (Mon profil)', () => {
  it('meets the same rules, the name from the contract included', async () => {
    const { agent, email } = await target.registeredMember();
    const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const change = (newPassword: string) =>
      target.outside('/api/v1/user/password', {
        body: { currentPassword: MEMBER_PASSWORD, newPassword, newPasswordRepeat: newPassword },
        headers: { cookie, origin: target.base },
      });
    const common = await change('motdepasse2026');
    expect(common.status).toBe(400);
    expect((await common.json()).error.reason).toBe('PASSWORD_TOO_COMMON');
    const personal = await change(`${email.split('@')[0]}!`);
    expect(personal.status).toBe(400);
    expect((await personal.json()).error.reason).toBe('PASSWORD_PERSONAL');
  });
});

describe('a password set on the embedded auth service itself (PUT /auth/v1/user)', () => {
  it('meets the same rules, refused with GoTrue’s weak_password, its reasons and a French message', async () => {
    const { email } = await target.registeredMember();
    const apikey = target.product.auth.anonKey;
    const signedIn = await target.outside('/auth/v1/token?grant_type=password', {
      body: { email, password: MEMBER_PASSWORD },
      headers: { apikey },
    });
    expect(signedIn.status).toBe(200);
    const { access_token: token } = (await signedIn.json()) as { access_token: string };
    const change = (password: string) =>
      target.outside('/auth/v1/user', {
        method: 'PUT',
        body: { password, current_password: MEMBER_PASSWORD },
        headers: { apikey, authorization: `Bearer ${token}`, 'x-supabase-api-version': '2024-01-01' },
      });
    const refusals: [string, string, string][] = [
      ['Zq8!vT2#pL', 'length', `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`],
      ['motdepasse2026', 'pwned', PASSWORD_TOO_COMMON_MESSAGE],
      ['azertyuiop123', 'pwned', PASSWORD_TOO_COMMON_MESSAGE],
      [`${email.split('@')[0]}!`, 'personal', PASSWORD_PERSONAL_MESSAGE],
    ];
    for (const [password, reason, message] of refusals) {
      const refused = await change(password);
      expect(refused.status, password).toBe(422);
      expect(await refused.json()).toEqual({ code: 'weak_password', message, weak_password: { reasons: [reason] } });
    }
    // Nothing changed: the member's password still opens the account.
    const still = await target.outside('/auth/v1/token?grant_type=password', {
      body: { email, password: MEMBER_PASSWORD },
      headers: { apikey },
    });
    expect(still.status).toBe(200);
    const accepted = await change('figuier-lanterne-boussole-72');
    expect(accepted.status).toBe(200);
  });
});

describe('the strength library', () => {
  it('is never imported by the SPA (it would weigh on the public pages)', () => {
    const files = (readdirSync('src', { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f));
    const importers = files.filter((f) => /zxcvbn|password-strength/.test(readFileSync(`src/${f}`, 'utf8')));
    expect(importers).toEqual([]);
  });
});
