import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { existingMemberId } from '#bff/api/member-param.ts';
import { requireCaller, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { csvDownload } from '#bff/http/csv-download.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { log } from '#bff/logger.ts';
import { agencyBillingCsv, agencyBillingPage, BillingPageSchema } from '#bff/payments/agency-billing.ts';
import { billingEntries, BillingQuerySchema, billingTotals, entryJson } from '#bff/payments/billing.ts';
import { type MemberInstalments, memberInstalments } from '#bff/payments/instalment-schedules.ts';

/**
 * Billing (decision 120): the member's own instalment schedule (`/user/instalments`); for staff
 * at aal2, one member's billing (`/dashboard/members/:id/billing`) and the agency's
 * (`/dashboard/billing`, filterable by period, status and kind) with its CSV export.
 */

function scheduleJson(current: MemberInstalments | null) {
  if (!current) return null;
  const s = current.schedule;
  return {
    planId: s.planId,
    of: s.of,
    paidCount: s.paidCount,
    paidCents: s.paidCents,
    refundedCents: s.refundedCents,
    leftCents: s.leftCents,
    next: s.next ? { number: s.next.number, dueAt: new Date(s.next.dueAt).toISOString(), amountCents: s.next.amountCents } : null,
    rows: s.rows.map((r) => ({
      number: r.number,
      of: r.of,
      dueAt: new Date(r.dueAt).toISOString(),
      amountCents: r.amountCents,
      status: r.status,
      paidAt: r.paidAt === null ? null : new Date(r.paidAt).toISOString(),
      failedAt: r.failedAt === null ? null : new Date(r.failedAt).toISOString(),
      refundedCents: r.refundedCents,
      due: r.due,
    })),
    flagged: current.flagged.map((f) => ({ ...f, at: f.at.toISOString() })),
  };
}

function queryOf(raw: Record<string, string>) {
  const parsed = v.safeParse(BillingQuerySchema, {
    ...(raw.from ? { from: raw.from } : {}),
    ...(raw.to ? { to: raw.to } : {}),
    ...(raw.status ? { status: raw.status } : {}),
    ...(raw.kind ? { kind: raw.kind } : {}),
  });
  if (!parsed.success) throw validationError(parsed.issues, 'Filtres invalides.');
  return parsed.output;
}

export function billingRoutes(deps: ApiDeps) {
  const staffOnly = staffOnlyFor(deps);
  const db = deps.database.db;
  const memberOf = (id: string) => existingMemberId(db, id);
  return new Hono()
    .get('/user/instalments', async (c) => {
      const caller = await requireCaller(c, deps);
      c.header('Cache-Control', 'private, no-store');
      if (caller.role === 'staff') throw new ApiError(404, 'NOT_A_MEMBER', 'Réservé aux membres.');
      return c.json({ schedule: scheduleJson(await memberInstalments(db, caller.id, deps.clock.now())) }, 200);
    })
    .get('/dashboard/members/:id/billing', staffOnly, async (c) => {
      const memberId = await memberOf(c.req.param('id'));
      const now = deps.clock.now();
      const entries = await billingEntries(db, { memberId }, now);
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          schedule: scheduleJson(await memberInstalments(db, memberId, now)),
          entries: entries.map(entryJson),
          totals: billingTotals(entries),
        },
        200,
      );
    })
    .get('/dashboard/billing', staffOnly, async (c) => {
      const raw = c.req.query();
      const query = queryOf(raw);
      const paging = v.safeParse(BillingPageSchema, { page: raw.page, perPage: raw.perPage });
      if (!paging.success) throw validationError(paging.issues, 'Filtres invalides.');
      // Filtered, counted, summed and paged by the database (decision 204).
      const page = await agencyBillingPage(db, query, paging.output, deps.clock.now());
      c.header('Cache-Control', 'private, no-store');
      return c.json({ ...page, entries: page.entries.map(entryJson) }, 200);
    })
    .get('/dashboard/billing/export', staffOnly, async (c) => {
      const query = queryOf(c.req.query());
      const now = deps.clock.now();
      // A bulk export of members' payments: who, when, what (decision 120).
      log.info('export de facturation', { staffId: c.var.staff?.id ?? null, ...query });
      // Streamed chunk by chunk as the database gives them (decision 204): never the whole file in memory.
      return csvDownload(c, 'facturation', now, agencyBillingCsv(db, query, now));
    });
}
