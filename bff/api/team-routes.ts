import { vValidator } from '@hono/valibot-validator';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { type Caller, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { adminClient } from '#bff/auth/supabase.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { staffName } from '#bff/members/staff-names.ts';
import { log } from '#bff/logger.ts';
import { changeStaffRole, recordMfaReset, setStaffDisabledRow, staffRowById, staffWithLastReset } from '#bff/team/team.ts';
import { STAFF_ROLES, staffRoleOf } from '#machines/staff/roles.ts';
import { jsonBody } from '#bff/http/validate.ts';

const RoleBody = v.object(
  { role: v.picklist(STAFF_ROLES, 'Choisissez un rôle : administration ou conseiller·ère.') },
  'Choisissez un rôle : administration ou conseiller·ère.',
);
/** Supabase bans take a Go duration: about a hundred years. */
const STAFF_BAN = '876000h';

const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Paramètres invalides');
};

const StaffIdParam = v.object({ id: v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide')) });

/**
 * The team page of the dashboard (staff at aal2 only, checked before anything else): the staff
 * accounts with the state of their second factor, and the reset of a colleague's lost factor
 * (decision 103). The reset deletes the colleague's factors through the Auth admin API (their
 * sessions drop to aal1, so the dashboard refuses them), is logged in the event log with the
 * staff member who did it, and mails the colleague; they enrol again at their next sign-in.
 */
export function teamRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);

  /**
   * Disables or re-enables a colleague's account (never one's own): the staff row's flag (every
   * request of theirs is refused at once, on every instance, decision 100), their sessions deleted
   * in the same transaction, the auth user banned (no new sign-in, no refresh) or the ban lifted,
   * and the change logged in the event log (context `ban`, as for a member) with who did it.
   */
  async function setStaffDisabled(staff: Caller, id: string, disable: boolean) {
    const changed = await setStaffDisabledRow(db, staff, id, disable, deps.auth.sessionsTable, deps.clock.now());
    const { error } = await adminClient(deps.auth).auth.admin.updateUserById(id, { ban_duration: disable ? STAFF_BAN : 'none' });
    if (error) log.error('compte de l’équipe : utilisateur auth non mis à jour', { staffId: id, err: error });
    log.info(disable ? 'compte de l’équipe désactivé' : 'compte de l’équipe réactivé', { staffId: id, actorId: staff.id, changed });
    return { id, disabled: disable, changed };
  }

  return (
    new Hono()
      .get('/dashboard/staff', staffOnly, async (c) => {
        const staff = c.var.staff;
        const { rows, lastReset } = await staffWithLastReset(db);
        const admin = adminClient(deps.auth);
        const factorLists = await Promise.all(rows.map((row) => admin.auth.admin.mfa.listFactors({ userId: row.id })));
        c.header('Cache-Control', 'private, no-store');
        return c.json(
          {
            staff: rows.map((row, i) => {
              const listed = factorLists[i];
              const factors = listed?.data?.factors ?? [];
              const secondFactor: 'actif' | 'en-attente' | 'aucun' | 'inconnu' = listed?.error
                ? 'inconnu'
                : factors.some((f) => f.status === 'verified')
                  ? 'actif'
                  : factors.length > 0
                    ? 'en-attente'
                    : 'aucun';
              return {
                id: row.id,
                email: row.email,
                name: staffName(row),
                role: staffRoleOf(row.staffRole),
                disabled: row.disabled,
                self: row.id === staff.id,
                secondFactor,
                lastReset: lastReset.get(row.id) ?? null,
              };
            }),
          },
          200,
        );
      })
      // An administrator changes a colleague's role (decision 206), logged with who did it; the
      // agency always keeps one active administrator.
      .put('/dashboard/staff/:id/role', staffOnly, vValidator('param', StaffIdParam, hook), jsonBody(RoleBody), async (c) => {
        const staff = c.var.staff;
        const { id } = c.req.valid('param');
        const { role } = c.req.valid('json');
        const now = deps.clock.now();
        const changed = await changeStaffRole(db, staff, id, role, now);
        // The colleague's next request reads the new role (the member cache follows the row).
        log.info('rôle de l’équipe changé', { staffId: id, actorId: staff.id, role, changed });
        return c.json({ id, role, changed }, 200);
      })
      .post('/dashboard/staff/:id/disable', staffOnly, vValidator('param', StaffIdParam, hook), async (c) =>
        c.json(await setStaffDisabled(c.var.staff, c.req.valid('param').id, true), 200),
      )
      .post('/dashboard/staff/:id/enable', staffOnly, vValidator('param', StaffIdParam, hook), async (c) =>
        c.json(await setStaffDisabled(c.var.staff, c.req.valid('param').id, false), 200),
      )
      .post('/dashboard/staff/:id/reset-mfa', staffOnly, vValidator('param', StaffIdParam, hook), async (c) => {
        const staff = c.var.staff;
        const { id } = c.req.valid('param');
        if (id === staff.id) {
          throw new ApiError(
            400,
            'SELF_RESET_REFUSED',
            'Vous ne pouvez pas réinitialiser votre propre second facteur : demandez-le à un autre membre de l’équipe.',
          );
        }
        const target = await staffRowById(db, id);

        const admin = adminClient(deps.auth);
        const listed = await admin.auth.admin.mfa.listFactors({ userId: id });
        if (listed.error) {
          log.error('réinitialisation du second facteur : facteurs illisibles', { staffId: id, err: listed.error });
          throw new ApiError(503, 'AUTH_UNAVAILABLE', 'Le service d’authentification ne répond pas, réessayez dans un instant.');
        }
        const removed: { id: string; status: string }[] = [];
        for (const factor of listed.data.factors) {
          const { error } = await admin.auth.admin.mfa.deleteFactor({ userId: id, id: factor.id });
          // Already gone (a concurrent reset) is as good as deleted.
          if (error && error.code !== 'mfa_factor_not_found') {
            log.error('réinitialisation du second facteur : facteur non supprimé', { staffId: id, err: error });
            throw new ApiError(503, 'AUTH_UNAVAILABLE', 'Le service d’authentification ne répond pas, réessayez dans un instant.');
          }
          removed.push({ id: factor.id, status: factor.status });
        }

        const now = deps.clock.now();
        const site = { siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency };
        await recordMfaReset(db, { staff, target, removed, site, now });
        deps.mailQueued();
        return c.json({ id, removedFactors: removed.length, resetAt: now.toISOString(), resetBy: staff.email }, 200);
      })
  );
}
