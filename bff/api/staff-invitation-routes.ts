import { randomBytes } from 'node:crypto';
import { vValidator } from '@hono/valibot-validator';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { invitationMail } from '#bff/mail/staff-mails.ts';
import { staffName } from '#bff/members/staff-names.ts';
import {
  acceptInvitation,
  assertInvitable,
  createInvitation,
  INVALID,
  pendingInvitations,
  resendInvitation,
  revokeInvitation,
  usableInvitation,
} from '#bff/team/staff-invitations.ts';
import { type Caller, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { adminClient, requestClient } from '#bff/auth/supabase.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { clientAddress, LIMITS } from '#bff/http/rate-limit.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { refuseWeakPassword } from '#bff/auth/strong-password.ts';
import { log } from '#bff/logger.ts';
import {
  AcceptInvitationSchema,
  InvitationTokenBodySchema,
  STAFF_INVITATION_VALIDITY_DAYS,
  StaffInvitationSchema,
} from '#machines/auth/staff-invitation.ts';

/** Where the mail's link leads: the SPA page that sets the password, then the TOTP enrolment. */
const INVITATION_PATH = '/dashboard/invitation';

const DAY_MS = 24 * 3600 * 1000;

/** The invitation forms show the first problem's French message as the error's headline, as it is. */
const firstIssue = (issues: readonly v.BaseIssue<unknown>[]) => issues[0]?.message ?? 'Données invalides';
const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], firstIssue(result.issues ?? []));
};

const InvitationIdParam = v.object({ id: v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide')) });

const newToken = () => randomBytes(32).toString('base64url');

const AUTH_DOWN = () => new ApiError(503, 'AUTH_UNAVAILABLE', 'Le service d’authentification ne répond pas, réessayez dans un instant.');

/**
 * Invitations of colleagues to the dashboard (issue 21, decision 126). Staff at aal2 invite,
 * resend and revoke (the rule of the team page's other actions); the invited colleague accepts
 * from the mail's link without being signed in. The auth user is made at once through the auth
 * service's admin `generate_link` of type `invite` (an unconfirmed user with `invited_at`, as
 * Supabase's invitation makes); the acceptance asks for a fresh invite token of that user and
 * verifies it (`verifyOtp`, type `invite`) to open the colleague's session, then sets the password
 * chosen. The member row (role staff) appears only then; the TOTP enrolment of /dashboard/connexion
 * follows before the dashboard opens (its routes require aal2).
 */
export function staffInvitationRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);
  const site = () => deps.config.publicSiteUrl.replace(/\/$/, '');
  const mailSite = () => ({ siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency });
  const linkOf = (token: string) => `${site()}${INVITATION_PATH}?token=${token}`;
  const actorOf = (staff: Caller) =>
    staffName(staff.member) === staff.email ? staff.email : `${staffName(staff.member)} (${staff.email})`;
  const ip = (c: Parameters<typeof clientAddress>[0]) => clientAddress(c, deps.config.trustProxy);

  return (
    new Hono()
      .get('/dashboard/staff-invitations', staffOnly, async (c) => {
        const invitations = await pendingInvitations(db, deps.clock.now().getTime());
        c.header('Cache-Control', 'private, no-store');
        return c.json({ invitations }, 200);
      })

      .post('/dashboard/staff-invitations', staffOnly, jsonBody(StaffInvitationSchema, firstIssue), async (c) => {
        const staff = c.var.staff;
        const { email, name, role } = c.req.valid('json');
        await assertInvitable(db, email);

        // The auth user, as Supabase's invitation makes it: unconfirmed, `invited_at` set.
        const generated = await adminClient(deps.auth).auth.admin.generateLink({ type: 'invite', email, options: { data: { name } } });
        if (generated.error || !generated.data.user) {
          if (generated.error?.code === 'email_exists')
            throw new ApiError(
              409,
              'EMAIL_TAKEN',
              'Un compte existe déjà avec cette adresse : invitez le collègue avec une autre adresse.',
            );
          log.error('invitation : lien non généré', { err: generated.error });
          throw AUTH_DOWN();
        }
        const authUserId = generated.data.user.id;
        const token = newToken();
        const now = deps.clock.now();
        const expiresAt = new Date(now.getTime() + STAFF_INVITATION_VALIDITY_DAYS * DAY_MS);
        const mail = invitationMail(mailSite(), { to: email, name, actor: actorOf(staff), link: linkOf(token), expiresAt });
        const invitation = await createInvitation(db, { staff, email, name, role, authUserId, token, now, expiresAt, mail });
        deps.mailQueued();
        log.info('collègue invité', { invitationId: invitation.id, actorId: staff.id });
        return c.json({ id: invitation.id, email, name, role, expiresAt: expiresAt.toISOString() }, 201);
      })

      .post('/dashboard/staff-invitations/:id/resend', staffOnly, vValidator('param', InvitationIdParam, hook), async (c) => {
        const staff = c.var.staff;
        const { id } = c.req.valid('param');
        const token = newToken();
        const now = deps.clock.now();
        const expiresAt = new Date(now.getTime() + STAFF_INVITATION_VALIDITY_DAYS * DAY_MS);
        await resendInvitation(db, {
          staff,
          id,
          token,
          now,
          expiresAt,
          mail: (row) =>
            invitationMail(mailSite(), { to: row.email, name: row.name, actor: actorOf(staff), link: linkOf(token), expiresAt }),
        });
        deps.mailQueued();
        return c.json({ id, sentAt: now.toISOString(), expiresAt: expiresAt.toISOString() }, 200);
      })

      .post('/dashboard/staff-invitations/:id/revoke', staffOnly, vValidator('param', InvitationIdParam, hook), async (c) => {
        const staff = c.var.staff;
        const { id } = c.req.valid('param');
        const now = deps.clock.now();
        const row = await revokeInvitation(db, staff, id, now);
        // The invited auth user never signed in: it goes too (the link was already refused above).
        const { error } = await adminClient(deps.auth).auth.admin.deleteUser(row.authUserId);
        if (error && error.status !== 404)
          log.error('invitation révoquée : utilisateur auth non supprimé', { invitationId: id, err: error });
        return c.json({ id, revokedAt: now.toISOString() }, 200);
      })

      /** What the invitation page shows before the password is chosen (or why the link fails). */
      .post('/staff-invitation/check', jsonBody(InvitationTokenBodySchema, firstIssue), async (c) => {
        await deps.rateLimit(LIMITS.emailConfirmPerIp, ip(c));
        const row = await usableInvitation(db, c.req.valid('json').token, deps.clock.now());
        return c.json({ email: row.email, name: row.name, expiresAt: row.expiresAt.toISOString() }, 200);
      })

      .post('/staff-invitation/accept', jsonBody(AcceptInvitationSchema, firstIssue), async (c) => {
        await deps.rateLimit(LIMITS.emailConfirmPerIp, ip(c));
        const { token, password } = c.req.valid('json');
        const invitation = await usableInvitation(db, token, deps.clock.now());
        await refuseWeakPassword(password, [invitation.email, invitation.name]);
        const admin = adminClient(deps.auth);

        // A fresh invite token of the invited user, verified at once: the colleague's session.
        let link = await admin.auth.admin.generateLink({ type: 'invite', email: invitation.email });
        // Confirmed by an acceptance that stopped half-way: a magic link opens the session instead.
        if (link.error?.code === 'email_exists') link = await admin.auth.admin.generateLink({ type: 'magiclink', email: invitation.email });
        if (link.error || !link.data.properties?.hashed_token || link.data.user?.id !== invitation.authUserId) {
          log.error('invitation : lien d’acceptation non généré', { invitationId: invitation.id, err: link.error });
          throw link.error ? AUTH_DOWN() : INVALID();
        }
        const supabase = requestClient(c, deps.auth);
        const verified = await supabase.auth.verifyOtp({
          type: link.data.properties.verification_type === 'magiclink' ? 'magiclink' : 'invite',
          token_hash: link.data.properties.hashed_token,
        });
        if (verified.error || verified.data.user?.id !== invitation.authUserId) {
          log.error('invitation : vérification refusée', { invitationId: invitation.id, err: verified.error });
          throw AUTH_DOWN();
        }
        const updated = await supabase.auth.updateUser({ password });
        if (updated.error && updated.error.code !== 'same_password') {
          await supabase.auth.signOut({ scope: 'local' });
          if (updated.error.code === 'weak_password')
            throw new ApiError(400, 'WEAK_PASSWORD', 'Ce mot de passe est trop faible : choisissez-en un plus long ou plus varié.');
          throw AUTH_DOWN();
        }
        await admin.auth.admin.updateUserById(invitation.authUserId, {
          app_metadata: { role: 'staff' },
          user_metadata: { name: invitation.name },
        });

        const now = deps.clock.now();
        try {
          await acceptInvitation(db, invitation, now);
        } catch (error) {
          await supabase.auth.signOut({ scope: 'local' }).catch(() => {});
          throw error;
        }
        log.info('invitation acceptée', { invitationId: invitation.id, staffId: invitation.authUserId });
        // Signed in at aal1: /dashboard/connexion resumes at the TOTP enrolment.
        return c.json({ email: invitation.email, name: invitation.name, next: '/dashboard/connexion' }, 200);
      })
  );
}
