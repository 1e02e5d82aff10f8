import { counselledIds } from '#bff/auth/staff-policy.ts';
import { Hono } from 'hono';
import * as v from 'valibot';
import { agendaItems } from '#bff/agenda/agenda.ts';
import type { ApiDeps } from '#bff/api/deps.ts';
import { staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { validationError } from '#bff/http/errors.ts';
import { AgendaQuery, periodInstants } from '#machines/agenda/agenda.ts';

/**
 * `GET /api/v1/dashboard/agenda?du=AAAA-MM-JJ&au=AAAA-MM-JJ` (issue 22, decision 122): staff at
 * aal2; the meetings of the Paris days `du` to `au` inclusive (31 days at most), by time. A bad
 * period is a French 400 naming what is wrong.
 */
export function agendaRoutes(deps: ApiDeps) {
  const staffOnly = staffOnlyFor(deps);
  return new Hono().get('/dashboard/agenda', staffOnly, async (c) => {
    const parsed = v.safeParse(AgendaQuery, c.req.query());
    if (!parsed.success) throw validationError(parsed.issues, parsed.issues[0]?.message ?? 'Période invalide');
    const { du, au } = parsed.output;
    const { fromMs, toMs } = periodInstants(du, au);
    const all = await agendaItems(deps.database.db, fromMs, toMs);
    // A counsellor's agenda: the meetings of their members (decision 206).
    const mine = await counselledIds(deps.database.db, c.var.staff);
    const items = mine ? all.filter((item) => item.members.some((m) => mine.has(m.id.toLowerCase()))) : all;
    c.header('Cache-Control', 'private, no-store');
    return c.json({ du, au, items }, 200);
  });
}
