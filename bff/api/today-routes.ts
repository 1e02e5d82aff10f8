import { vValidator } from '@hono/valibot-validator';
import { Hono } from 'hono';
import type * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { staffRoleOfCaller } from '#bff/auth/staff-policy.ts';
import { staffToday, TodayQuery } from '#bff/dashboard/today.ts';
import { validationError } from '#bff/http/errors.ts';

const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Paramètres invalides');
};

/**
 * `GET /api/v1/dashboard/today?scope=mine|agency` (issue 63, decision 203): staff at aal2; what
 * needs a person today, in groups (bff/dashboard/today.ts). A bad scope is a French 400; a
 * counsellor's answer is « mine » whatever they ask.
 */
export function todayRoutes(deps: ApiDeps) {
  const staffOnly = staffOnlyFor(deps);
  return new Hono().get('/dashboard/today', staffOnly, vValidator('query', TodayQuery, hook), async (c) => {
    // A counsellor reaches their own members only (decision 206): their day is always « mine ».
    const asked = c.req.valid('query').scope;
    const scope = staffRoleOfCaller(c.var.staff) === 'administration' ? asked : 'mine';
    const now = deps.clock.now();
    const groups = await staffToday(deps.database.db, { scope, staffId: c.var.staff.id, now });
    c.header('Cache-Control', 'private, no-store');
    return c.json({ scope, at: now.toISOString(), groups }, 200);
  });
}
