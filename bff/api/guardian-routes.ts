import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { type Caller, requireMember } from '#bff/auth/guards.ts';
import { readJson } from '#bff/http/validate.ts';
import { deleteGuardian, guardianOf, putGuardian } from '#bff/introductions/guardian.ts';
import { memberProgress } from '#bff/introductions/progress.ts';
import { log } from '#bff/logger.ts';

/**
 * The member's guardian (`/user/guardian`: read, set, remove) and « Mon accompagnement »
 * (`/user/progress`), issue 22, decision 117. Members only, their own data only (the id comes
 * from the session); bad input is a French 400 that changes nothing.
 */
export function guardianRoutes(deps: ApiDeps) {
  const db = deps.database.db;

  const memberCaller = (c: Context): Promise<Caller> => requireMember(c, deps);

  return new Hono()
    .get('/user/guardian', async (c) => {
      const caller = await memberCaller(c);
      c.header('Cache-Control', 'private, no-store');
      return c.json({ guardian: await guardianOf(db, caller.id) }, 200);
    })
    .put('/user/guardian', async (c) => {
      const caller = await memberCaller(c);
      const body = await readJson(c, v.unknown());
      const guardian = await putGuardian(db, caller.id, body, deps.clock.now());
      log.info('proche associé enregistré', { reqId: c.get('requestId'), memberId: caller.id });
      c.header('Cache-Control', 'private, no-store');
      return c.json({ guardian }, 200);
    })
    .delete('/user/guardian', async (c) => {
      const caller = await memberCaller(c);
      const removed = await deleteGuardian(db, caller.id);
      if (removed) log.info('proche associé retiré', { reqId: c.get('requestId'), memberId: caller.id });
      c.header('Cache-Control', 'private, no-store');
      return c.json({ guardian: null, removed }, 200);
    })
    .get('/user/progress', async (c) => {
      const caller = await memberCaller(c);
      c.header('Cache-Control', 'private, no-store');
      return c.json(await memberProgress(db, caller.id, deps.clock.now()), 200);
    });
}
