import { Hono } from 'hono';
import type { AuthDeps } from '#bff/stand-ins/auth-service/deps.ts';
import { AuthApiError, errors } from '#bff/stand-ins/auth-service/errors.ts';
import { requireAdmin } from '#bff/stand-ins/auth-service/guards.ts';
import { listFactors, lockUserFactor, removeFactor } from '#bff/stand-ins/auth-service/factors.ts';
import { serializeFactor } from '#bff/stand-ins/auth-service/serialize.ts';
import { findUserById, isUuid, type UserRow } from '#bff/stand-ins/auth-service/users.ts';

/** GoTrue's `loadUser` for `/admin/users/{user_id}/…`: 404 for a malformed id or an unknown user. */
async function loadUser(deps: AuthDeps, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw new AuthApiError(404, 'validation_failed', 'user_id must be an UUID');
  const user = await findUserById(deps.db, id);
  if (!user) throw errors.userNotFound();
  return user;
}

/**
 * The admin factor routes of GoTrue (admin.go `adminUserGetFactors`, `adminUserDeleteFactor`),
 * service-role key only: what supabase-js calls with `auth.admin.mfa.listFactors({ userId })` and
 * `auth.admin.mfa.deleteFactor({ userId, id })`. Deleting a verified factor downgrades the sessions
 * it raised to aal1, as the user's own unenroll does (decision 103).
 */
export function adminFactorRoutes(deps: AuthDeps) {
  const app = new Hono();
  // Mounted before the admin users routes: their `/admin/*` guard is not in this chain.
  for (const path of ['/admin/users/:id/factors', '/admin/users/:id/factors/*']) {
    app.use(path, async (c, next) => {
      await requireAdmin(deps, c);
      await next();
    });
  }

  return app
    .get('/admin/users/:id/factors', async (c) => {
      const user = await loadUser(deps, c.req.param('id'));
      const factors = await listFactors(deps.db, user.id);
      return c.json(factors.map(serializeFactor), 200);
    })

    .delete('/admin/users/:id/factors/:factorId', async (c) => {
      const user = await loadUser(deps, c.req.param('id'));
      const factorId = c.req.param('factorId');
      if (!isUuid(factorId)) throw new AuthApiError(404, 'validation_failed', 'factor_id must be an UUID');
      const removed = await deps.db.transaction(async (tx) => {
        const factor = await lockUserFactor(tx, factorId, user.id);
        await removeFactor(tx, factor, deps.clock.now());
        return factor;
      });
      return c.json(serializeFactor(removed), 200);
    });
}
