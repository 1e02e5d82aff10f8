import type { ParsedLocation } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { requireMember, requireStaff } from '#src/lib/guards.ts';
import { createSessionStore, type SessionUser, type SettingsOutcome } from '#src/lib/session.ts';
import { SUBSCRIPTION_NOT_STARTED } from '#tests/support/session-user.ts';

const member: SessionUser = {
  id: 'u1',
  email: 'youssef@example.fr',
  role: 'homme',
  aal: 'aal1',
  selectedPlanId: null,
  meeting: false,
  subscription: SUBSCRIPTION_NOT_STARTED,
};

const at = (href: string) => ({ href, pathname: href.split('?')[0] ?? href }) as ParsedLocation;
const context = (outcome: SettingsOutcome) => ({ session: createSessionStore(async () => outcome) });

async function thrown(promise: Promise<unknown>): Promise<{ to?: unknown; search?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return (error as { options: { to?: unknown; search?: unknown } }).options;
  }
  throw new Error('expected a redirect');
}

describe('auth guard', () => {
  it('lets a member through', async () => {
    await expect(requireMember({ context: context({ kind: 'signed-in', user: member }), location: at('/mon-compte') })).resolves.toEqual({
      user: member,
    });
  });

  it('sends a visitor to /connexion with where they were going', async () => {
    const options = await thrown(requireMember({ context: context({ kind: 'signed-out' }), location: at('/mon-compte/mon-profil?x=1') }));
    expect(options).toMatchObject({ to: '/connexion', search: { redirect: '/mon-compte/mon-profil?x=1' } });
  });

  it('sends home when the settings cannot be loaded', async () => {
    const failed: SettingsOutcome = { kind: 'failed', error: { status: 500, code: 'INTERNAL', message: 'x' } };
    expect(await thrown(requireMember({ context: context(failed), location: at('/mon-compte') }))).toMatchObject({ to: '/' });
  });
});

describe('dashboard-auth guard', () => {
  it('needs staff at aal2', async () => {
    const staff2 = { ...member, role: 'staff', aal: 'aal2' as const };
    await expect(requireStaff({ context: context({ kind: 'signed-in', user: staff2 }), location: at('/dashboard') })).resolves.toEqual({
      user: staff2,
    });
    for (const user of [member, { ...member, role: 'staff' }, { ...member, aal: 'aal2' as const }]) {
      const options = await thrown(
        requireStaff({ context: context({ kind: 'signed-in', user }), location: at('/dashboard/message-direct') }),
      );
      expect(options).toMatchObject({ to: '/dashboard/connexion', search: { redirect: '/dashboard/message-direct' } });
    }
  });
});
