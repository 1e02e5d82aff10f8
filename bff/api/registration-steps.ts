import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { signupConfirmationLink, signupConfirmationMail } from '#bff/mail/account-mails.ts';
import { adminClient, requestClient, statelessClient } from '#bff/auth/supabase.ts';
import { ApiError } from '#bff/http/errors.ts';
import { clientAddress, LIMITS } from '#bff/http/rate-limit.ts';
import { log } from '#bff/logger.ts';
import { queueWelcomeMail } from '#bff/mail/agency-mail-triggers.ts';
import { enqueueMail } from '#bff/mail/outbox.ts';
import { createAuthUser } from '#bff/members/accounts.ts';
import { createMember, memberSettings, type SettingsView } from '#bff/members/members.ts';
import {
  CONFIRMATION_LINK_SECONDS,
  CONFIRMATION_PATH,
  decoyPasswordWork,
  createConfirmedMember,
  memberWithEmail,
  newRegistrationProof,
  parseRegistrationCookie,
  pendingStaffInvitationFor,
  provesRegistration,
  REGISTRATION_COOKIE,
  REGISTRATION_COOKIE_SECONDS,
  registrationCookieValue,
  signupAttemptMail,
} from '#bff/members/registration.ts';
import { claimInvitation, INVITATION_INVALID_MESSAGE } from '#bff/members/signup-prefill.ts';
import { CREDENTIALS_MESSAGE, EMAIL_MESSAGE, EmailSchema, type Gender } from '#machines/auth/credentials.ts';

/**
 * The steps of a registration that the auth routes (`auth-routes.ts`) call: the account of a
 * proven address, a registration waiting for its confirmation, the proof asked before a
 * confirmation link is spent, and the member row of a confirmed registration (decisions 127, 187).
 */
/** The name the auth service's own mails sign with (its `siteName` default): the confirmation mail looks the same from both. */
const SITE_NAME = 'Union Sincère';

const emailExists = () =>
  new ApiError(409, 'EMAIL_EXISTS', 'Un compte existe déjà pour cette adresse e-mail. Connectez-vous ou réinitialisez votre mot de passe.');
export const UNAVAILABLE = () => new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.');
export const CONFIRMATION_LINK_INVALID = () =>
  new ApiError(
    400,
    'CONFIRMATION_LINK_INVALID',
    'Ce lien de confirmation est invalide, a déjà servi ou a expiré. Demandez-en un nouveau ci-dessous, ou connectez-vous si votre adresse est déjà confirmée.',
  );

export function registrationSteps(deps: ApiDeps) {
  const ip = (c: Parameters<typeof clientAddress>[0]) => clientAddress(c, deps.config.trustProxy);

  /** The account of a pre-registration's own address (its link proves the mailbox): confirmed at once, signed in, 201. */
  async function registerWithProvenAddress(
    c: Context,
    input: { email: string; password: string; gender: Gender; invitationToken: string },
  ): Promise<SettingsView | null> {
    const { email, password, gender } = input;
    if (await pendingStaffInvitationFor(deps.database.db, email)) throw emailExists();
    const admin = adminClient(deps.auth);
    const created = await createAuthUser(admin, deps.database.db, {
      email,
      password,
      email_confirm: true,
      app_metadata: { role: gender },
      user_metadata: { gender },
    });
    if (created.error || !created.data.user) {
      const code = created.error?.code;
      // The caller proved this mailbox: telling them the account exists reveals nothing.
      if (code === 'email_exists' || code === 'user_already_exists') throw emailExists();
      if (code === 'weak_password' || code === 'validation_failed') {
        throw new ApiError(400, 'INVALID_CREDENTIALS', CREDENTIALS_MESSAGE, { reason: 'PASSWORD_TOO_SHORT' });
      }
      throw UNAVAILABLE();
    }
    const userId = created.data.user.id;
    try {
      await createMember(deps.database.db, { id: userId, email, gender, now: deps.clock.now() }, async (tx) => {
        if (!(await claimInvitation(tx, input.invitationToken, userId, deps.clock.now())))
          throw new ApiError(400, 'INVITATION_INVALID', INVITATION_INVALID_MESSAGE);
        await queueWelcomeMail(tx, { siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency }, { id: userId, email });
      });
      deps.mailQueued();
    } catch (error) {
      // Never leave an auth user without its member record.
      await admin.auth.admin.deleteUser(userId).catch(() => {});
      throw error;
    }
    const supabase = requestClient(c, deps.auth);
    const signedIn = await supabase.auth.signInWithPassword({ email, password });
    if (signedIn.error) throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Compte créé, mais la connexion a échoué : connectez-vous.');
    const settings = await memberSettings(deps.database.db, userId, deps.clock.now());
    return settings?.view ?? null;
  }

  /**
   * A registration whose address is not proven yet (decision 187). A new address gets an auth
   * user that is not confirmed (no member row) and the confirmation mail; one waiting for its
   * confirmation is replaced (the previous link stops working); one with an account gets a mail
   * saying someone tried, and nothing changes; one with a pending staff invitation is left alone.
   * Every case does the same work and sets the same kind of cookie: the answer tells nothing.
   */
  async function registerPending(
    c: Context,
    input: { email: string; password: string; gender: Gender; preRegistrationId: string | null },
  ): Promise<void> {
    const { email, password, gender } = input;
    const db = deps.database.db;
    const proof = newRegistrationProof();
    let userId: string = randomUUID();
    if (await memberWithEmail(db, email)) {
      await enqueueMail(db, signupAttemptMail({ siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency }, email));
      deps.mailQueued();
      await decoyPasswordWork(password);
    } else if (await pendingStaffInvitationFor(db, email)) {
      // Reserved for the invited colleague: the invitation and its auth user stay as they are.
      await decoyPasswordWork(password);
    } else {
      const created = await createAuthUser(adminClient(deps.auth), db, {
        email,
        password,
        email_confirm: false,
        app_metadata: {
          role: gender,
          registration: proof.digest,
          ...(input.preRegistrationId ? { pre_registration: input.preRegistrationId } : {}),
        },
        user_metadata: { gender },
      });
      if (created.data.user) {
        userId = created.data.user.id;
        // The confirmation link of this registration, mailed at once (not GoTrue's /resend, whose
        // one mail a minute would leave a registration that replaced another within the minute
        // without a link): the registration's own limits bound these mails.
        const link = await adminClient(deps.auth).auth.admin.generateLink({ type: 'signup', email, password });
        const tokenHash = link.data.properties?.hashed_token;
        if (link.error || !tokenHash) {
          log.error('inscription : lien de confirmation non généré', { err: link.error });
          throw UNAVAILABLE();
        }
        await enqueueMail(
          db,
          signupConfirmationMail({
            to: email,
            link: signupConfirmationLink(`${deps.config.publicSiteUrl}${CONFIRMATION_PATH}`, tokenHash),
            siteName: SITE_NAME,
            site: { siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency },
            validitySeconds: CONFIRMATION_LINK_SECONDS,
          }),
        );
        deps.mailQueued();
      } else if (created.error?.code !== 'email_exists' && created.error?.code !== 'user_already_exists') {
        log.error('inscription : utilisateur non créé', { err: created.error });
        throw UNAVAILABLE();
      }
      // email_exists here: an account or an invitation appeared meanwhile; it is left as it is.
    }
    setCookie(c, REGISTRATION_COOKIE, registrationCookieValue(userId, proof.secret), {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure: deps.auth.secureCookies,
      maxAge: REGISTRATION_COOKIE_SECONDS,
    });
  }

  /**
   * What proves the caller made the registration the link confirms, checked before the link is
   * spent: this browser's cookie (it registered), or the address and password chosen then (the
   * auth service answers `email_not_confirmed` only to the right password).
   */
  async function registrationProvenBy(
    c: Context,
    input: { email?: string | undefined; password?: string | undefined },
  ): Promise<{ id: string } | { email: string }> {
    const cookie = parseRegistrationCookie(getCookie(c, REGISTRATION_COOKIE));
    if (cookie) {
      const { data } = await adminClient(deps.auth).auth.admin.getUserById(cookie.userId);
      if (data.user && !data.user.email_confirmed_at && provesRegistration(data.user, cookie.secret)) return { id: data.user.id };
    }
    if (input.email === undefined || input.password === undefined) {
      throw new ApiError(
        400,
        'CONFIRMATION_PASSWORD_REQUIRED',
        'Pour confirmer votre adresse sur cet appareil, saisissez l’adresse e-mail et le mot de passe choisis à l’inscription.',
      );
    }
    const parsed = v.safeParse(EmailSchema, input.email);
    if (!parsed.success) throw new ApiError(400, 'INVALID_EMAIL', EMAIL_MESSAGE, { reason: 'INVALID_EMAIL' });
    const email = parsed.output;
    await deps.rateLimit(LIMITS.signinPerIp, ip(c));
    await deps.rateLimit(LIMITS.signinPerAccount, email);
    const probe = statelessClient(deps.auth, c);
    const { data, error } = await probe.auth.signInWithPassword({ email, password: input.password });
    if (data.session) {
      // Already confirmed: this sign-in was only a check.
      await probe.auth.signOut({ scope: 'local' }).catch(() => {});
      throw CONFIRMATION_LINK_INVALID();
    }
    if (error?.code === 'email_not_confirmed') return { email };
    if (error && (error.status ?? 0) >= 500) throw UNAVAILABLE();
    if (error?.code === 'over_request_rate_limit')
      throw new ApiError(429, 'RATE_LIMITED', 'Trop de tentatives. Réessayez dans quelques minutes.');
    throw new ApiError(
      400,
      'INVALID_CREDENTIALS',
      'Cette adresse et ce mot de passe ne correspondent pas à l’inscription à confirmer. Si vous ne retrouvez pas votre mot de passe, inscrivez-vous à nouveau ou réinitialisez-le.',
      { reason: 'REGISTRATION_NOT_PROVEN' },
    );
  }

  /** The member row of a registration now confirmed, once (with its welcome mail and its pre-registration). */
  async function createMemberOfRegistration(
    id: string,
    email: string,
    pending: { gender: Gender; preRegistrationId: string | null },
  ): Promise<void> {
    const site = { siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency };
    const created = await createConfirmedMember(deps.database.db, site, { id, email, ...pending, now: deps.clock.now() });
    if (created) deps.mailQueued();
  }

  return { registerWithProvenAddress, registerPending, registrationProvenBy, createMemberOfRegistration };
}
