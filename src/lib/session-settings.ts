import { send } from '#src/lib/api-result.ts';
import type { SessionUser, SettingsOutcome, SubscriptionSettings } from '#src/lib/session-types.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the settings answer; an answer without an id counts as signed out (spec §7). */
export function toSessionUser(body: unknown): SessionUser | null {
  const source = isRecord(body) && isRecord(body.user) && !('id' in body) ? body.user : body;
  if (!isRecord(source) || typeof source.id !== 'string' || source.id === '') return null;
  return {
    id: source.id,
    email: typeof source.email === 'string' ? source.email : '',
    role: typeof source.role === 'string' ? source.role : '',
    ...(source.role === 'staff' && { staffRole: source.staffRole === 'administration' ? 'administration' : 'conseil' }),
    aal: source.aal === 'aal2' ? 'aal2' : 'aal1',
    selectedPlanId: typeof source.selectedPlanId === 'string' ? source.selectedPlanId : null,
    meeting: source.meeting === true,
    subscription: (isRecord(source.subscription) ? source.subscription : {}) as SubscriptionSettings,
    state: typeof source.state === 'string' ? source.state : null,
    onboarding: isRecord(source.onboarding) ? source.onboarding : null,
    version: typeof source.version === 'number' ? source.version : 0,
    firstName: typeof source.firstName === 'string' && source.firstName.trim() !== '' ? source.firstName.trim() : null,
  };
}

/** Reads the answer of `GET /api/v1/auth/session` (see `fetchSettings` in session.ts). */
export async function readSettings(request: Promise<Response>): Promise<SettingsOutcome> {
  const result = await send(request);
  if (result.ok) {
    const user = toSessionUser(result.data);
    return user ? { kind: 'signed-in', user } : { kind: 'signed-out' };
  }
  if (result.error.status === 401) return { kind: 'signed-out' };
  const { status, code, message } = result.error;
  return { kind: 'failed', error: { status, code, message } };
}
