import { vValidator } from '@hono/valibot-validator';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { type Caller, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { adminClient } from '#bff/auth/supabase.ts';
import { members, onboardingEvents } from '#bff/db/schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { mfaResetMail } from '#bff/mail/staff-mails.ts';
import { enqueueMail } from '#bff/mail/outbox.ts';
import { staffName } from '#bff/members/staff-names.ts';
import { log } from '#bff/logger.ts';
import { STAFF_ROLES, staffRoleOf } from '#machines/staff/roles.ts';
import { jsonBody } from '#bff/http/validate.ts';

/** The event-log context of a second-factor reset (`onboarding_events`, staff's own rows). */
const MFA_RESET_CONTEXT = 'mfa_reset';
/** The event-log context of a role change (decision 206). */
const STAFF_ROLE_CONTEXT = 'staff_role';
const RoleBody = v.object(
  { role: v.picklist(STAFF_ROLES, 'Choisissez un rôle : administration ou conseiller·ère.') },
  'Choisissez un rôle : administration ou conseiller·ère.',
);
/** Staff rows have no onboarding chart: their log rows say so in place of a state. */
const STAFF_STATE = 'equipe';
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
    if (id === staff.id)
      throw new ApiError(400, 'SELF_DISABLE_REFUSED', 'Vous ne pouvez pas désactiver votre propre compte : demandez-le à un collègue.');
    const now = deps.clock.now();
    const changed = await db.transaction(async (tx) => {
      const [target] = await tx.select().from(members).where(eq(members.id, id)).for('update');
      if (target?.role !== 'staff') throw new ApiError(404, 'STAFF_NOT_FOUND', 'Membre de l’équipe introuvable.');
      if (target.disabled === disable) return false;
      const version = target.version + 1;
      await tx.update(members).set({ disabled: disable, version, updatedAt: now }).where(eq(members.id, id));
      if (disable) await tx.execute(sql`DELETE FROM ${sql.raw(deps.auth.sessionsTable)} WHERE user_id = ${id}::uuid`);
      await tx.insert(onboardingEvents).values({
        memberId: id,
        context: 'ban',
        event: disable ? 'DISABLE' : 'ENABLE',
        payload: { disable, uid: id },
        fromState: STAFF_STATE,
        toState: STAFF_STATE,
        actorId: staff.id,
        actorRole: 'staff',
        version,
        createdAt: now,
      });
      return true;
    });
    const { error } = await adminClient(deps.auth).auth.admin.updateUserById(id, { ban_duration: disable ? STAFF_BAN : 'none' });
    if (error) log.error('compte de l’équipe : utilisateur auth non mis à jour', { staffId: id, err: error });
    log.info(disable ? 'compte de l’équipe désactivé' : 'compte de l’équipe réactivé', { staffId: id, actorId: staff.id, changed });
    return { id, disabled: disable, changed };
  }

  return (
    new Hono()
      .get('/dashboard/staff', staffOnly, async (c) => {
        const staff = c.var.staff;
        const rows = await db
          .select()
          .from(members)
          .where(eq(members.role, 'staff'))
          .orderBy(asc(sql`lower(${members.email})`));
        const admin = adminClient(deps.auth);
        const factorLists = await Promise.all(rows.map((row) => admin.auth.admin.mfa.listFactors({ userId: row.id })));
        const resets =
          rows.length > 0
            ? await db
                .select({ memberId: onboardingEvents.memberId, actorId: onboardingEvents.actorId, at: onboardingEvents.createdAt })
                .from(onboardingEvents)
                .where(
                  and(
                    eq(onboardingEvents.context, MFA_RESET_CONTEXT),
                    inArray(
                      onboardingEvents.memberId,
                      rows.map((r) => r.id),
                    ),
                  ),
                )
                .orderBy(desc(onboardingEvents.id))
            : [];
        const emailOf = new Map(rows.map((r) => [r.id, r.email]));
        const lastReset = new Map<string, { at: string; byEmail: string | null }>();
        for (const reset of resets) {
          if (lastReset.has(reset.memberId)) continue;
          lastReset.set(reset.memberId, {
            at: reset.at.toISOString(),
            byEmail: reset.actorId ? (emailOf.get(reset.actorId) ?? null) : null,
          });
        }
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
        const changed = await db.transaction(async (tx) => {
          // Every staff row locked in one order: two demotions at once cannot both pass the count.
          const rows = await tx.select().from(members).where(eq(members.role, 'staff')).orderBy(asc(members.id)).for('update');
          const target = rows.find((r) => r.id === id);
          if (!target) throw new ApiError(404, 'STAFF_NOT_FOUND', 'Membre de l’équipe introuvable.');
          const from = staffRoleOf(target.staffRole);
          if (from === role) return false;
          const admins = rows.filter((r) => !r.disabled && staffRoleOf(r.staffRole) === 'administration' && r.id !== id);
          if (role !== 'administration' && admins.length === 0)
            throw new ApiError(
              409,
              'LAST_ADMINISTRATOR',
              'L’agence doit garder au moins une personne à l’administration : nommez-en une autre avant de changer ce rôle.',
            );
          const version = target.version + 1;
          await tx.update(members).set({ staffRole: role, version, updatedAt: now }).where(eq(members.id, id));
          await tx.insert(onboardingEvents).values({
            memberId: id,
            context: STAFF_ROLE_CONTEXT,
            event: 'ROLE',
            payload: { from, to: role },
            fromState: STAFF_STATE,
            toState: STAFF_STATE,
            actorId: staff.id,
            actorRole: 'staff',
            version,
            createdAt: now,
          });
          return true;
        });
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
        const [target] = await db.select().from(members).where(eq(members.id, id)).limit(1);
        if (target?.role !== 'staff') throw new ApiError(404, 'STAFF_NOT_FOUND', 'Membre de l’équipe introuvable.');

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
        const actor = staffName(staff.member) === staff.email ? staff.email : `${staffName(staff.member)} (${staff.email})`;
        await db.transaction(async (tx) => {
          // The version moves with every logged event (UNIQUE (member_id, version)), as for the ban.
          const [bumped] = await tx
            .update(members)
            .set({ version: sql`${members.version} + 1`, updatedAt: now })
            .where(eq(members.id, id))
            .returning({ version: members.version });
          if (!bumped) throw new ApiError(404, 'STAFF_NOT_FOUND', 'Membre de l’équipe introuvable.');
          await tx.insert(onboardingEvents).values({
            memberId: id,
            context: MFA_RESET_CONTEXT,
            event: 'RESET_MFA',
            payload: { factors: removed },
            fromState: STAFF_STATE,
            toState: STAFF_STATE,
            actorId: staff.id,
            actorRole: 'staff',
            version: bumped.version,
            createdAt: now,
          });
          await enqueueMail(tx, mfaResetMail(site, { to: target.email, name: staffName(target), actor, at: now }));
        });
        deps.mailQueued();
        return c.json({ id, removedFactors: removed.length, resetAt: now.toISOString(), resetBy: staff.email }, 200);
      })
  );
}
