import { type APIRequestContext, expect } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

/**
 * Staff accounts seeded by tests/e2e/serve.ts, one per browser spec, so that specs running in
 * parallel never share a TOTP factor (one factor per account).
 */
export const E2E_STAFF_PASSWORD = 'e2e-equipe-solide-2026';
export const E2E_STAFF_NAMES = [
  'onboarding',
  'dashboard',
  'quality',
  'privacy',
  'spare',
  'factor-lost',
  'factor-reset',
  'leads',
  'follow-up',
  'colleague',
  'team-admin',
  'messages',
  'templates',
  'inviter',
] as const;
export type E2EStaffName = (typeof E2E_STAFF_NAMES)[number];
/** The name each account is created with, as staff read it on the team page and in access logs. */
export const E2E_STAFF_DISPLAY_NAMES: Record<E2EStaffName, string> = {
  onboarding: 'Malika Ouali',
  dashboard: 'Inès Lefèvre',
  quality: 'Sonia Chergui',
  privacy: 'Farida Zerrouki',
  spare: 'Rachid Saïdi',
  'factor-lost': 'Samira Benali',
  'factor-reset': 'Karim Haddad',
  leads: 'Leïla Mansouri',
  'follow-up': 'Nadia Rahmani',
  colleague: 'Yasmine Idrissi',
  'team-admin': 'Sofiane Meziane',
  messages: 'Houda Tazi',
  templates: 'Zineb Alaoui',
  inviter: 'Hafsa Karimi',
};
export const e2eStaffEmail = (name: E2EStaffName) => `equipe.${name}@e2e.union-sincere.test`;

/** Signs a request context in as that staff account and passes the TOTP step (enrols on first use). */
export async function signInE2EStaff(request: APIRequestContext, name: E2EStaffName): Promise<{ secret: string; factorId: string }> {
  const signin = await request.post('/api/v1/auth/signin', { data: { email: e2eStaffEmail(name), password: E2E_STAFF_PASSWORD } });
  expect(signin.status(), await signin.text()).toBe(200);
  const enrol = await request.post('/api/v1/auth/mfa/enroll', { data: {} });
  expect(enrol.status(), `${name}: the account must be enrolled by this spec only`).toBe(201);
  const factor = (await enrol.json()) as { factorId: string; secret: string };
  const totp = new TOTP({ secret: Secret.fromBase32(factor.secret), digits: 6, period: 30, algorithm: 'SHA1' });
  const verified = await request.post('/api/v1/auth/mfa/verify', { data: { factorId: factor.factorId, code: totp.generate() } });
  expect(verified.status(), await verified.text()).toBe(200);
  return factor;
}
