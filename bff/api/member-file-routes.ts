import { Hono } from 'hono';
import type { ApiDeps } from '#bff/api/deps.ts';
import { existingMemberId } from '#bff/api/member-param.ts';
import { staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { memberRowById } from '#bff/members/member-rows.ts';
import { ApiError } from '#bff/http/errors.ts';
import { memberIntroductions, memberSummary } from '#bff/dashboard/member-summary.ts';

/**
 * A member's file on one screen (issue 63 point 2, decision 209): its header in one answer, and
 * every introduction of the member for the « Mises en relation » tab. Both go through the staff
 * policy (`staffOnly`): a counsellor reaches their own members only, and each read is recorded.
 */
export function memberFileRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);
  return new Hono()
    .get('/dashboard/members/:id/summary', staffOnly, async (c) => {
      const id = await existingMemberId(db, c.req.param('id'));
      const row = await memberRowById(db, id);
      if (!row) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
      c.header('Cache-Control', 'private, no-store');
      return c.json(await memberSummary(db, row, deps.clock.now().getTime()), 200);
    })
    .get('/dashboard/members/:id/introductions', staffOnly, async (c) => {
      const id = await existingMemberId(db, c.req.param('id'));
      c.header('Cache-Control', 'private, no-store');
      return c.json({ introductions: await memberIntroductions(db, id) }, 200);
    });
}
