import { createHash, randomBytes } from 'node:crypto';
import { vValidator } from '@hono/valibot-validator';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { firstNameOf } from '#bff/mail/staff-mails.ts';
import { staffName } from '#bff/members/staff-names.ts';
import { type Caller, staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { adminClient, requestClient } from '#bff/auth/supabase.ts';
import type { Transaction } from '#bff/db/database.ts';
import { members, onboardingEvents } from '#bff/db/schema.ts';
import { staffInvitations } from '#bff/db/staff-invitations-schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { clientAddress, LIMITS } from '#bff/http/rate-limit.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { refuseWeakPassword } from '#bff/auth/strong-password.ts';
import { log } from '#bff/logger.ts';
import { type AgencyMailSite, layout } from '#bff/mail/agency-mails.ts';
import { enqueueMail } from '#bff/mail/outbox.ts';
import {
  AcceptInvitationSchema,
  InvitationTokenBodySchema,
  STAFF_INVITATION_VALIDITY_DAYS,
  StaffInvitationSchema,
} from '#machines/auth/staff-invitation.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';

/** The event-log context of invitations (`onboarding_events`): INVITE, RESEND, REVOKE, ACCEPT. */
const INVITATION_CONTEXT = 'staff_invitation';
const STAFF_STATE = 'equipe';
/** Where the mail's link leads: the SPA page that sets the password, then the TOTP enrolment. */
const INVITATION_PATH = '/dashboard/invitation';

const DAY_MS = 24 * 3600 * 1000;
const parisDate = frenchDateFormat({ dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });

/** The invitation forms show the first problem's French message as the error's headline, as it is. */
const firstIssue = (issues: readonly v.BaseIssue<unknown>[]) => issues[0]?.message ?? 'Données invalides';
const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], firstIssue(result.issues ?? []));
};

const InvitationIdParam = v.object({ id: v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide')) });

const digestOf = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

const INVALID = () =>
  new ApiError(
    400,
    'INVITATION_INVALID',
    'Ce lien d’invitation n’est plus valable : il a déjà servi, a été révoqué ou remplacé par un envoi plus récent. Demandez à un collègue de vous renvoyer l’invitation.',
  );
const EXPIRED = () =>
  new ApiError(
    400,
    'INVITATION_EXPIRED',
    'Ce lien d’invitation a expiré. Demandez à un collègue de l’équipe de vous renvoyer l’invitation depuis la page Équipe.',
  );
const AUTH_DOWN = () => new ApiError(503, 'AUTH_UNAVAILABLE', 'Le service d’authentification ne répond pas, réessayez dans un instant.');

/** The French invitation mail (the same for a resend: only the link and the date change), in the agency's mail layout. */
export function invitationMail(site: AgencyMailSite, input: { to: string; name: string; actor: string; link: string; expiresAt: Date }) {
  return layout(
    site,
    { to: input.to, firstName: firstNameOf(input.name) },
    'staff-invitation',
    'Invitation à rejoindre l’équipe Union Sincère',
    [
      { text: `${input.actor} vous invite à rejoindre l’équipe de l’agence Union Sincère sur son tableau de bord.` },
      {
        text: 'Pour créer votre accès, ouvrez ce lien, choisissez votre mot de passe, puis enregistrez le second facteur (une application d’authentification sur votre téléphone : Google Authenticator, Microsoft Authenticator, FreeOTP…).',
      },
      { link: input.link, label: 'Créer mon accès' },
      {
        text: `Ce lien est personnel, ne sert qu’une fois et reste valable jusqu’au ${parisDate.format(input.expiresAt)} (heure de Paris).`,
      },
      { text: 'Si vous ne vous attendiez pas à cette invitation, ignorez ce message : aucun compte ne sera ouvert.' },
    ],
  );
}

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

  /** Logs a staff member's action on an invitation in their own event log (the version moves). */
  async function logOnActor(tx: Transaction, staff: Caller, event: string, payload: Record<string, unknown>, now: Date) {
    const [bumped] = await tx
      .update(members)
      .set({ version: sql`${members.version} + 1`, updatedAt: now })
      .where(eq(members.id, staff.id))
      .returning({ version: members.version });
    if (!bumped) throw new ApiError(401, 'UNAUTHENTICATED', 'Vous devez être connecté.');
    await tx.insert(onboardingEvents).values({
      memberId: staff.id,
      context: INVITATION_CONTEXT,
      event,
      payload,
      fromState: STAFF_STATE,
      toState: STAFF_STATE,
      actorId: staff.id,
      actorRole: 'staff',
      version: bumped.version,
      createdAt: now,
    });
  }

  async function pendingById(tx: Transaction, id: string) {
    const [row] = await tx
      .select()
      .from(staffInvitations)
      .where(and(eq(staffInvitations.id, id), isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)))
      .for('update');
    if (!row) throw new ApiError(404, 'INVITATION_NOT_FOUND', 'Cette invitation n’est plus en attente (acceptée ou révoquée).');
    return row;
  }

  /** The invitation a link names, still pending and not expired; 400 with the reason otherwise. */
  async function usableInvitation(token: string) {
    const [row] = await db
      .select()
      .from(staffInvitations)
      .where(eq(staffInvitations.tokenDigest, digestOf(token)))
      .limit(1);
    if (!row || row.acceptedAt || row.revokedAt) throw INVALID();
    if (deps.clock.now().getTime() > row.expiresAt.getTime()) throw EXPIRED();
    return row;
  }

  return (
    new Hono()
      .get('/dashboard/staff-invitations', staffOnly, async (c) => {
        const rows = await db
          .select({ invitation: staffInvitations, inviter: { email: members.email, onboarding: members.onboarding } })
          .from(staffInvitations)
          .leftJoin(members, eq(members.id, staffInvitations.invitedBy))
          .where(and(isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)))
          .orderBy(asc(staffInvitations.createdAt));
        const now = deps.clock.now().getTime();
        c.header('Cache-Control', 'private, no-store');
        return c.json(
          {
            invitations: rows.map(({ invitation, inviter }) => ({
              id: invitation.id,
              email: invitation.email,
              name: invitation.name,
              role: invitation.staffRole,
              invitedBy: inviter ? { email: inviter.email, name: staffName(inviter) } : null,
              createdAt: invitation.createdAt.toISOString(),
              sentAt: invitation.sentAt.toISOString(),
              expiresAt: invitation.expiresAt.toISOString(),
              expired: now > invitation.expiresAt.getTime(),
            })),
          },
          200,
        );
      })

      .post('/dashboard/staff-invitations', staffOnly, jsonBody(StaffInvitationSchema, firstIssue), async (c) => {
        const staff = c.var.staff;
        const { email, name, role } = c.req.valid('json');
        const [holder] = await db.select({ role: members.role }).from(members).where(sql`lower(${members.email}) = ${email}`).limit(1);
        if (holder?.role === 'staff')
          throw new ApiError(409, 'ALREADY_STAFF', 'Cette adresse est déjà celle d’un membre de l’équipe : il peut se connecter.');
        if (holder)
          throw new ApiError(
            409,
            'MEMBER_ACCOUNT',
            'Cette adresse est celle d’un compte adhérent : invitez le collègue avec une autre adresse (professionnelle).',
          );
        const pending = await db
          .select({ id: staffInvitations.id })
          .from(staffInvitations)
          .where(
            and(sql`lower(${staffInvitations.email}) = ${email}`, isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)),
          )
          .limit(1);
        if (pending.length > 0)
          throw new ApiError(409, 'INVITATION_PENDING', 'Une invitation est déjà en attente pour cette adresse : utilisez « Renvoyer ».');

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
        const invitation = await db
          .transaction(async (tx) => {
            const [row] = await tx
              .insert(staffInvitations)
              .values({
                email,
                name,
                staffRole: role,
                authUserId,
                tokenDigest: digestOf(token),
                invitedBy: staff.id,
                createdAt: now,
                sentAt: now,
                expiresAt,
              })
              .returning();
            if (!row) throw new Error('invitation non enregistrée');
            await logOnActor(tx, staff, 'INVITE', { invitationId: row.id, email, role }, now);
            await enqueueMail(tx, invitationMail(mailSite(), { to: email, name, actor: actorOf(staff), link: linkOf(token), expiresAt }));
            return row;
          })
          .catch((error: unknown) => {
            // Two invitations of one address at once: the partial unique index keeps one.
            if (
              (error as { code?: string }).code === '23505' ||
              String((error as Error).message).includes('staff_invitations_pending_email')
            )
              throw new ApiError(
                409,
                'INVITATION_PENDING',
                'Une invitation est déjà en attente pour cette adresse : utilisez « Renvoyer ».',
              );
            throw error;
          });
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
        await db.transaction(async (tx) => {
          const row = await pendingById(tx, id);
          // The new secret replaces the old one: the previous mail's link stops working.
          await tx
            .update(staffInvitations)
            .set({ tokenDigest: digestOf(token), sentAt: now, expiresAt })
            .where(eq(staffInvitations.id, id));
          await logOnActor(tx, staff, 'RESEND', { invitationId: id, email: row.email }, now);
          await enqueueMail(
            tx,
            invitationMail(mailSite(), { to: row.email, name: row.name, actor: actorOf(staff), link: linkOf(token), expiresAt }),
          );
        });
        deps.mailQueued();
        return c.json({ id, sentAt: now.toISOString(), expiresAt: expiresAt.toISOString() }, 200);
      })

      .post('/dashboard/staff-invitations/:id/revoke', staffOnly, vValidator('param', InvitationIdParam, hook), async (c) => {
        const staff = c.var.staff;
        const { id } = c.req.valid('param');
        const now = deps.clock.now();
        const row = await db.transaction(async (tx) => {
          const pending = await pendingById(tx, id);
          await tx.update(staffInvitations).set({ revokedAt: now, revokedBy: staff.id }).where(eq(staffInvitations.id, id));
          await logOnActor(tx, staff, 'REVOKE', { invitationId: id, email: pending.email }, now);
          return pending;
        });
        // The invited auth user never signed in: it goes too (the link was already refused above).
        const { error } = await adminClient(deps.auth).auth.admin.deleteUser(row.authUserId);
        if (error && error.status !== 404)
          log.error('invitation révoquée : utilisateur auth non supprimé', { invitationId: id, err: error });
        return c.json({ id, revokedAt: now.toISOString() }, 200);
      })

      /** What the invitation page shows before the password is chosen (or why the link fails). */
      .post('/staff-invitation/check', jsonBody(InvitationTokenBodySchema, firstIssue), async (c) => {
        await deps.rateLimit(LIMITS.emailConfirmPerIp, ip(c));
        const row = await usableInvitation(c.req.valid('json').token);
        return c.json({ email: row.email, name: row.name, expiresAt: row.expiresAt.toISOString() }, 200);
      })

      .post('/staff-invitation/accept', jsonBody(AcceptInvitationSchema, firstIssue), async (c) => {
        await deps.rateLimit(LIMITS.emailConfirmPerIp, ip(c));
        const { token, password } = c.req.valid('json');
        const invitation = await usableInvitation(token);
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
          await db.transaction(async (tx) => {
            const [taken] = await tx
              .update(staffInvitations)
              .set({ acceptedAt: now })
              .where(and(eq(staffInvitations.id, invitation.id), isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)))
              .returning({ id: staffInvitations.id });
            // Revoked (or accepted elsewhere) while the password was being set.
            if (!taken) throw INVALID();
            await tx.insert(members).values({
              id: invitation.authUserId,
              email: invitation.email,
              gender: 'staff',
              role: 'staff',
              staffRole: invitation.staffRole,
              onboarding: { staff: true, name: invitation.name },
              version: 1,
              createdAt: now,
              updatedAt: now,
            });
            await tx.insert(onboardingEvents).values({
              memberId: invitation.authUserId,
              context: INVITATION_CONTEXT,
              event: 'ACCEPT',
              payload: { invitationId: invitation.id, invitedBy: invitation.invitedBy },
              fromState: STAFF_STATE,
              toState: STAFF_STATE,
              actorId: invitation.authUserId,
              actorRole: 'staff',
              version: 1,
              createdAt: now,
            });
          });
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
