import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SecurityProduct, signUpMember, startTestProduct } from '#tests/security/support.ts';

/**
 * The session cookie's access token is verified locally (bff/auth/access-token.ts, with a cache
 * of verified tokens): forged, re-signed, unsigned or tampered tokens must never pass, whichever
 * path (fast or supabase-js) handles them.
 */

let product: SecurityProduct;
beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function sessionCookie(cookies: Map<string, string>): [string, Record<string, unknown>] {
  const [name, value] = [...cookies].find(([k]) => /^sb-.*-auth-token$/.test(k)) as [string, string];
  return [name, JSON.parse(Buffer.from(value.replace(/^base64-/, ''), 'base64url').toString('utf8'))];
}

async function settingsWith(token: string, template: Map<string, string>) {
  const [name, session] = sessionCookie(template);
  const cookie = `${name}=base64-${b64({ ...session, access_token: token })}`;
  return product.app.request('http://localhost:3999/api/v1/user/settings', { headers: { cookie } });
}

describe('forged access tokens in the session cookie', () => {
  it('are refused: other subject, re-signed with another key, alg none, HS256 with the anon key, truncated', async () => {
    const victim = await signUpMember(product);
    const attacker = await signUpMember(product);
    // The attacker's own token works (and is now in the verified-token cache).
    expect((await attacker.agent.get('/api/v1/user/settings')).status).toBe(200);
    const [, session] = sessionCookie(attacker.agent.cookies);
    const token = session.access_token as string;
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const asVictim = b64({ ...claims, sub: victim.id });
    const asStaff = b64({ ...claims, aal: 'aal2', role: 'service_role' });

    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const resigned = `${header}.${asVictim}`;
    const resignedToken = `${resigned}.${sign('sha256', Buffer.from(resigned), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    const hsHeader = b64({ alg: 'HS256', typ: 'JWT' });
    const hs = `${hsHeader}.${asVictim}`;
    const hsToken = `${hs}.${createHmac('sha256', product.auth.anonKey).update(hs).digest('base64url')}`;

    const forged: [string, string][] = [
      ['other subject, original signature', `${header}.${asVictim}.${signature}`],
      ['elevated claims, original signature', `${header}.${asStaff}.${signature}`],
      ['re-signed with another EC key', resignedToken],
      ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${asVictim}.`],
      ['HS256 with the anon key', hsToken],
      ['truncated signature', `${header}.${payload}.${signature.slice(0, 20)}`],
      ['garbage', 'not-a-jwt'],
    ];
    for (const [label, forgedToken] of forged) {
      const response = await settingsWith(forgedToken, attacker.agent.cookies);
      expect(response.status, label).toBe(401);
    }
    // The genuine token still works after all that (the cache holds only verified strings).
    const genuine = await settingsWith(token, attacker.agent.cookies);
    expect(genuine.status).toBe(200);
    expect((await genuine.json()).id).toBe(attacker.id);
  });

  it('a token close to expiry goes through supabase-js, which refreshes the session and rewrites the cookie', async () => {
    const member = await signUpMember(product);
    const [name, session] = sessionCookie(member.agent.cookies);
    // Same token, but the session says it expires now: supabase-js refreshes with the refresh token.
    const cookie = `${name}=base64-${b64({ ...session, expires_at: Math.floor(Date.now() / 1000) })}`;
    const response = await product.app.request('http://localhost:3999/api/v1/user/settings', { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${name}=`))).toBe(true);
  });
});
