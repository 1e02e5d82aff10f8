import type { ParsedLocation } from '@tanstack/react-router';
import { redirect } from '@tanstack/react-router';
import type { RouterContext } from '#src/lib/router-context.ts';
import type { SessionUser } from '#src/lib/session.ts';

/**
 * The two named guards of the spec (§4), called only from `beforeLoad`. They await the session
 * store and throw a router `redirect`. A failed settings load sends the visitor to `/` (spec §2).
 */
interface GuardArgs {
  context: Pick<RouterContext, 'session'>;
  location: ParsedLocation;
}

/** `auth`: a signed-in member; otherwise `/connexion?redirect=<where they were going>`. */
export async function requireMember({ context, location }: GuardArgs): Promise<{ user: SessionUser }> {
  const state = await context.session.ensure();
  if (state.status === 'failed') throw redirect({ to: '/' });
  if (state.status !== 'signed-in' || !state.user) {
    throw redirect({ to: '/connexion', search: { redirect: location.href } });
  }
  return { user: state.user };
}

/** `dashboard-auth`: a staff member signed in with a second factor (aal2). */
export async function requireStaff({ context, location }: GuardArgs): Promise<{ user: SessionUser }> {
  const state = await context.session.ensure();
  if (state.status === 'failed') throw redirect({ to: '/' });
  if (state.status !== 'signed-in' || !state.user || state.user.role !== 'staff' || state.aal !== 'aal2') {
    throw redirect({ to: '/dashboard/connexion', search: { redirect: location.href } });
  }
  return { user: state.user };
}
