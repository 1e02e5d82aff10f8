import { vValidator } from '@hono/valibot-validator';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { existingMemberId } from '#bff/api/member-param.ts';
import { staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { dashboardFunnel } from '#bff/dashboard/funnel.ts';
import { memberFile } from '#bff/dashboard/member-file.ts';
import { csvDownload } from '#bff/http/csv-download.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { refreshStaleStages } from '#bff/members/stage.ts';
import { BulkBody, runBulkAction } from '#bff/dashboard/member-bulk.ts';
import { memberListCsv } from '#bff/dashboard/member-list-export.ts';
import { MemberListFilterQuery, MemberListQuery, memberListPage } from '#bff/dashboard/member-list.ts';
import { log } from '#bff/logger.ts';
import { readPayInFull, writePayInFull } from '#bff/onboarding/plan-settings.ts';
import { couponActiveSchema, couponCreateSchema, createCoupon, listCoupons, setCouponActive } from '#bff/payments/coupons.ts';
import { accessLogForStaff } from '#bff/auth/access-log.ts';
import { activePlans, payInFullSettingSchema } from '#machines/onboarding/plans.ts';

const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Paramètres invalides');
};

const uuidSchema = v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide'));
const PlansBody = v.object({ payInFull: payInFullSettingSchema });

function plansView(setting: 'cash' | 'cashback') {
  return {
    payInFull: setting,
    plans: activePlans(setting).map((p) => ({
      id: p.id,
      title: p.title,
      type: p.type,
      durationMonths: p.durationMonths,
      totalCents: p.totalCents,
    })),
  };
}

/**
 * The staff dashboard's API: every route answers only staff at aal2 (`requireStaff`); direct
 * messages are in `message-routes.ts` (decision 121). Staff actions on a
 * member are not here: they go through the chart's authority (`POST /user/update`) or the ban.
 */
export function dashboardRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);
  return (
    new Hono()
      .get('/dashboard/funnel', staffOnly, async (c) => {
        // Members per state and per step at `now`, a counsellor's own (decisions 204, 206).
        const funnel = await dashboardFunnel(db, c.var.staff, deps.clock.now());
        c.header('Cache-Control', 'private, no-store');
        return c.json(funnel, 200);
      })
      .get('/dashboard/members', staffOnly, vValidator('query', MemberListQuery, hook), async (c) => {
        const now = deps.clock.now();
        await refreshStaleStages(db);
        // Every filter, the order and the page in SQL, over the stored stage (decisions 204, 210).
        const page = await memberListPage(db, c.req.valid('query'), c.var.staff, now);
        c.header('Cache-Control', 'private, no-store');
        return c.json(page, 200);
      })
      // The filtered list as CSV, streamed; recorded in the access log by its policy (decision 210).
      .get('/dashboard/member-list/export', staffOnly, vValidator('query', MemberListFilterQuery, hook), async (c) => {
        const filter = c.req.valid('query');
        const now = deps.clock.now();
        await refreshStaleStages(db);
        log.info('export de la liste des membres', { reqId: c.get('requestId'), staffId: c.var.staff.id });
        return csvDownload(c, 'membres', now, memberListCsv(db, filter, c.var.staff, now));
      })
      // Bulk actions on the members chosen in the list (decision 210): all or nothing.
      .post('/dashboard/member-list/bulk', staffOnly, jsonBody(BulkBody), async (c) => {
        const input = c.req.valid('json');
        const result = await runBulkAction(
          { db, clock: deps.clock, mailSite: () => ({ siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency }) },
          c.var.staff,
          input,
        );
        if (input.action === 'message') deps.mailQueued();
        log.info('action groupée sur des membres', {
          reqId: c.get('requestId'),
          staffId: c.var.staff.id,
          action: input.action,
          members: input.ids.length,
          changed: result.changed,
        });
        return c.json(result, 200);
      })
      .get('/dashboard/members/:id', staffOnly, async (c) => {
        const id = v.safeParse(uuidSchema, c.req.param('id'));
        if (!id.success) throw validationError(id.issues, 'Paramètres invalides');
        // The walī and the presentation are read with the file (logged by its policy).
        const file = await memberFile(db, id.output, deps.clock.now().getTime());
        c.header('Cache-Control', 'private, no-store');
        return c.json(file, 200);
      })
      .get('/dashboard/members/:id/access-log', staffOnly, async (c) => {
        const id = await existingMemberId(db, c.req.param('id'));
        c.header('Cache-Control', 'private, no-store');
        return c.json({ entries: await accessLogForStaff(db, id) }, 200);
      })
      .get('/dashboard/settings/plans', staffOnly, async (c) => {
        c.header('Cache-Control', 'private, no-store');
        return c.json(plansView(await readPayInFull(db)), 200);
      })
      .put('/dashboard/settings/plans', staffOnly, jsonBody(PlansBody), async (c) => {
        const { payInFull } = c.req.valid('json');
        await writePayInFull(db, payInFull, deps.clock.now());
        // This instance's public pages follow at once; the others within seconds (decision 106).
        deps.payInFullChanged?.(payInFull);
        return c.json(plansView(payInFull), 200);
      })
      // Codes members type on the payment step (decision 195).
      .get('/dashboard/coupons', staffOnly, async (c) => {
        c.header('Cache-Control', 'private, no-store');
        return c.json({ coupons: await listCoupons(db) }, 200);
      })
      .post('/dashboard/coupons', staffOnly, jsonBody(couponCreateSchema), async (c) => {
        const coupon = await createCoupon(db, c.req.valid('json'), { staffId: c.var.staff.id, now: deps.clock.now() });
        return c.json({ coupon }, 201);
      })
      .patch('/dashboard/coupons/:id', staffOnly, jsonBody(couponActiveSchema), async (c) => {
        const id = c.req.param('id');
        if (!/^[1-9][0-9]{0,15}$/.test(id)) throw new ApiError(404, 'COUPON_NOT_FOUND', 'Code introuvable.');
        return c.json({ coupon: await setCouponActive(db, Number(id), c.req.valid('json').active) }, 200);
      })
  );
}
