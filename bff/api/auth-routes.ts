import { randomBytes, randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import * as v from 'valibot';
import { adminClient, requestClient, statelessClient } from '#bff/auth/supabase.ts';
import type { ApiDeps } from '#bff/api/deps.ts';
import { signOutPage } from '#bff/api/sign-out-page.ts';
import { ApiError } from '#bff/http/errors.ts';
import { clientAddress, LIMITS } from '#bff/http/rate-limit.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { refuseWeakPassword } from '#bff/auth/strong-password.ts';
import { createAuthUser } from '#bff/members/accounts.ts';
import { queueWelcomeMail } from '#bff/mail/agency-mail-triggers.ts';
import { createMember, insertMember, memberSettings, type SettingsView } from '#bff/members/members.ts';
import {
  CONFIRMATION_LINK_SECONDS,
  CONFIRMATION_PATH,
  decoyPasswordWork,
  memberExists,
  memberWithEmail,
  newRegistrationProof,
  parseRegistrationCookie,
  pendingRegistrationOf,
  pendingStaffInvitationFor,
  provesRegistration,
  REGISTRATION_COOKIE,
  REGISTRATION_COOKIE_SECONDS,
  registrationCookieValue,
  signupAttemptMail,
} from '#bff/members/registration.ts';
import { enqueueMail } from '#bff/mail/outbox.ts';
import { signupConfirmationLink, signupConfirmationMail } from '#bff/auth-service/account-mail.ts';
import {
  CODE_DAILY_LIMIT_MESSAGE,
  CREDENTIALS_MESSAGE,
  EMAIL_NOT_CONFIRMED_MESSAGE,
  credentialFailure,
  EMAIL_MESSAGE,
  EmailSchema,
  GenderSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SIGNIN_PASSWORD_MIN_LENGTH,
} from '#machines/auth/credentials.ts';
import { log } from '#bff/logger.ts';
import {
  claimInvitation,
  claimPreRegistration,
  INVITATION_INVALID_MESSAGE,
  InvitationSchema,
  invitationOf,
} from '#bff/members/signup-prefill.ts';
import type { Gender } from '#machines/auth/credentials.ts';

/** Raw strings first, so that a bad shape yields the spec's reason rather than a type error. */
const SigninBody = v.object({ email: v.string(CREDENTIALS_MESSAGE), password: v.string(CREDENTIALS_MESSAGE) });
const SignupBody = v.object({
  context: v.literal('init', 'Contexte invalide'),
  email: v.string(CREDENTIALS_MESSAGE),
  /** Not asked again when the pre-registration's link is given: its gender is the one kept. */
  role: v.optional(GenderSchema),
  password: v.string(CREDENTIALS_MESSAGE),
  passwordRepeat: v.optional(v.string()),
  /** The token of the pre-registration's link (decision 127). */
  invitation: v.optional(InvitationSchema),
});
const RecoveryBody = v.variant(
  'ctx',
  [
    v.object({ ctx: v.literal('reco'), email: v.string(EMAIL_MESSAGE) }),
    v.object({
      ctx: v.literal('change'),
      // The link's token names the account: the address is no longer asked (decision 127); when
      // an older page still sends it, it must be the token's.
      email: v.optional(v.string(EMAIL_MESSAGE)),
      password: v.string(CREDENTIALS_MESSAGE),
      token: v.pipe(v.string('Lien invalide ou expiré'), v.regex(/^[0-9a-f]{20,128}$/i, 'Lien invalide ou expiré')),
    }),
  ],
  'Contexte invalide (reco ou change)',
);

/** The confirmation mail's link: its token, and, on another device, the address and password chosen at registration. */
const ConfirmationBody = v.object({
  tokenHash: v.pipe(v.string('Lien invalide ou expiré'), v.regex(/^(pkce_)?[0-9a-f]{20,128}$/i, 'Lien invalide ou expiré')),
  email: v.optional(v.string(EMAIL_MESSAGE)),
  password: v.optional(v.pipe(v.string(CREDENTIALS_MESSAGE), v.maxLength(PASSWORD_MAX_LENGTH, CREDENTIALS_MESSAGE))),
});
const ResendBody = v.object({ email: v.string(EMAIL_MESSAGE) });

/** The name the auth service's own mails sign with (its `siteName` default): the confirmation mail looks the same from both. */
const SITE_NAME = 'Union Sincère';

const emailExists = () =>
  new ApiError(409, 'EMAIL_EXISTS', 'Un compte existe déjà pour cette adresse e-mail. Connectez-vous ou réinitialisez votre mot de passe.');
const UNAVAILABLE = () => new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.');
const CONFIRMATION_LINK_INVALID = () =>
  new ApiError(
    400,
    'CONFIRMATION_LINK_INVALID',
    'Ce lien de confirmation est invalide, a déjà servi ou a expiré. Demandez-en un nouveau ci-dessous, ou connectez-vous si votre adresse est déjà confirmée.',
  );

/** The registration's answer, the same whether or not the address already had an account (decision 187). */
function confirmationSentMessage(email: string): string {
  return `Dernière étape : un e-mail vient d’être envoyé à ${email}. Ouvrez le lien qu’il contient pour confirmer votre adresse et accéder à votre espace.`;
}

/** The spec's credential check: 400 with `reason` INVALID_EMAIL / PASSWORD_TOO_SHORT / PASSWORD_REPEAT_FAILED. */
function checkCredentials(
  input: { email: string; password: string; passwordRepeat?: string | undefined },
  message = CREDENTIALS_MESSAGE,
  minLength = PASSWORD_MIN_LENGTH,
) {
  const reason = credentialFailure(input, minLength);
  if (reason) throw new ApiError(400, 'INVALID_CREDENTIALS', message, { reason });
  if (input.password.length > PASSWORD_MAX_LENGTH) {
    throw new ApiError(400, 'INVALID_CREDENTIALS', `Le mot de passe doit contenir au plus ${PASSWORD_MAX_LENGTH} caractères`, {
      reason: 'PASSWORD_TOO_LONG',
    });
  }
  return { email: v.parse(EmailSchema, input.email), password: input.password };
}

export function authRoutes(deps: ApiDeps) {
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
    const db = deps.database.db;
    const now = deps.clock.now();
    let created = false;
    await db.transaction(async (tx) => {
      if (await memberExists(tx, id)) return;
      await insertMember(tx, { id, email, gender: pending.gender, now });
      if (pending.preRegistrationId) await claimPreRegistration(tx, pending.preRegistrationId, id, now);
      await queueWelcomeMail(tx, { siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency }, { id, email });
      created = true;
    });
    if (created) deps.mailQueued();
  }

  return (
    new Hono()
      .post('/auth/signin', jsonBody(SigninBody), async (c) => {
        const input = c.req.valid('json');
        const { email, password } = checkCredentials(input, CREDENTIALS_MESSAGE, SIGNIN_PASSWORD_MIN_LENGTH);
        await deps.rateLimit(LIMITS.signinPerIp, ip(c));
        await deps.rateLimit(LIMITS.signinPerAccount, email);
        const supabase = requestClient(c, deps.auth);
        const { data, error } = await supabase.auth.signInWithPassword({ email, password });
        if (error || !data.user) {
          if (error?.code === 'user_banned') throw new ApiError(403, 'ACCOUNT_DISABLED', 'Ce compte est désactivé. Contactez l’agence.');
          // GoTrue says so only to the right password (decision 187): the page offers a new mail.
          if (error?.code === 'email_not_confirmed')
            throw new ApiError(400, 'EMAIL_NOT_CONFIRMED', EMAIL_NOT_CONFIRMED_MESSAGE, { reason: 'EMAIL_NOT_CONFIRMED' });
          if (error && (error.status ?? 0) >= 500)
            throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.');
          throw new ApiError(400, 'INVALID_CREDENTIALS', CREDENTIALS_MESSAGE);
        }
        const settings = await memberSettings(deps.database.db, data.user.id, deps.clock.now());
        if (!settings) {
          await supabase.auth.signOut({ scope: 'local' });
          throw new ApiError(400, 'INVALID_CREDENTIALS', CREDENTIALS_MESSAGE);
        }
        if (settings.disabled) {
          await supabase.auth.signOut({ scope: 'local' });
          throw new ApiError(403, 'ACCOUNT_DISABLED', 'Ce compte est désactivé. Contactez l’agence.');
        }
        return c.json({ user: settings.view, mfa: { required: settings.view.role === 'staff' } }, 200);
      })
      // A page with a button: a GET changes nothing, so a link elsewhere cannot sign anyone out.
      .get('/auth/signout', (c) => {
        c.header('Cache-Control', 'no-store');
        return c.html(signOutPage(), 200);
      })
      // Sign-out is a write, under the Origin rule of every write (same-origin.ts).
      .post('/auth/signout', async (c) => {
        const supabase = requestClient(c, deps.auth);
        // supabase-js clears the cookies even when the server answers 401/403/404.
        const { error } = await supabase.auth.signOut({ scope: 'local' });
        if (error && error.status !== undefined && error.status >= 500) {
          log.warn('déconnexion distante impossible, session locale effacée', { err: error });
        }
        // The page's form (no script): back to the home page, signed out.
        if (/^application\/x-www-form-urlencoded\b/i.test(c.req.header('content-type') ?? '')) return c.redirect('/', 303);
        return c.json({ ok: true }, 200);
      })
      .post('/auth/pass-recovery', jsonBody(RecoveryBody), async (c) => {
        const input = c.req.valid('json');
        const email = input.email === undefined ? null : v.safeParse(EmailSchema, input.email);
        if (email && !email.success) throw new ApiError(400, 'INVALID_EMAIL', EMAIL_MESSAGE, { reason: 'INVALID_EMAIL' });
        if (input.ctx === 'reco') {
          if (!email) throw new ApiError(400, 'INVALID_EMAIL', EMAIL_MESSAGE, { reason: 'INVALID_EMAIL' });
          await deps.rateLimit(LIMITS.recoveryPerIp, ip(c));
          await deps.rateLimit(LIMITS.recoveryPerAccount, email.output);
          const { error } = await statelessClient(deps.auth, c).auth.resetPasswordForEmail(email.output, {
            redirectTo: `${deps.config.publicSiteUrl}/connexion/update-password`,
          });
          // Same answer whether or not the account exists (no enumeration); only outages surface.
          if (error && (error.status ?? 0) >= 500)
            throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.');
          deps.mailQueued();
          return c.json({ ok: true }, 200);
        }
        // Checked before the token is spent: a too short password leaves the link usable.
        if (input.password.length < PASSWORD_MIN_LENGTH || input.password.length > PASSWORD_MAX_LENGTH) {
          throw new ApiError(400, 'INVALID_CREDENTIALS', CREDENTIALS_MESSAGE, { reason: 'PASSWORD_TOO_SHORT' });
        }
        await deps.rateLimit(LIMITS.recoveryPerIp, ip(c));
        // Also before the token is spent: a weak password leaves the link usable.
        await refuseWeakPassword(input.password, [input.email]);
        // The link signs the member in (decision 127): the verified token opens a session in this
        // browser's cookies, the new password is set on it, and every other session ends.
        const supabase = requestClient(c, deps.auth);
        const verified = await supabase.auth.verifyOtp({ type: 'recovery', token_hash: input.token });
        if (verified.error || !verified.data.user) {
          if (verified.error?.code === 'user_banned')
            throw new ApiError(403, 'ACCOUNT_DISABLED', 'Ce compte est désactivé. Contactez l’agence.');
          if (verified.error && (verified.error.status ?? 0) >= 500)
            throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.');
          throw new ApiError(400, 'INVALID_TOKEN', 'Ce lien de réinitialisation est invalide ou a expiré. Demandez-en un nouveau.');
        }
        if (email && (verified.data.user.email ?? '').toLowerCase() !== email.output) {
          await supabase.auth.signOut({ scope: 'local' });
          throw new ApiError(400, 'INVALID_EMAIL', EMAIL_MESSAGE, { reason: 'INVALID_EMAIL' });
        }
        const user = verified.data.user;
        // A registration still waiting for its confirmation: the mailbox's owner takes it over
        // with the new password (decision 187); its member row is created below.
        const pending = pendingRegistrationOf(user);
        let settings = await memberSettings(deps.database.db, user.id, deps.clock.now());
        if ((!settings && !pending) || settings?.disabled) {
          await supabase.auth.signOut({ scope: 'local' });
          if (settings?.disabled) throw new ApiError(403, 'ACCOUNT_DISABLED', 'Ce compte est désactivé. Contactez l’agence.');
          throw new ApiError(400, 'INVALID_TOKEN', 'Ce lien de réinitialisation est invalide ou a expiré. Demandez-en un nouveau.');
        }
        const updated = await supabase.auth.updateUser({ password: input.password });
        if (updated.error && updated.error.code !== 'same_password') {
          await supabase.auth.signOut({ scope: 'local' });
          if (updated.error.code === 'weak_password')
            throw new ApiError(400, 'INVALID_CREDENTIALS', updated.error.message, { reason: 'PASSWORD_TOO_COMMON' });
          throw new ApiError(400, 'INVALID_CREDENTIALS', CREDENTIALS_MESSAGE, { reason: 'PASSWORD_TOO_SHORT' });
        }
        if (!settings && pending) {
          await createMemberOfRegistration(user.id, (user.email ?? '').toLowerCase(), pending);
          await adminClient(deps.auth)
            .auth.admin.updateUserById(user.id, { app_metadata: { registration: null } })
            .catch(() => {});
          settings = await memberSettings(deps.database.db, user.id, deps.clock.now());
        }
        if (!settings) throw UNAVAILABLE();
        // Every other session of the account ends; this one stays. Staff hold an aal1 session
        // here: their second factor is still asked before anything of the dashboard opens.
        await supabase.auth.signOut({ scope: 'others' });
        return c.json({ ok: true, user: settings.view, mfa: { required: settings.view.role === 'staff' } }, 200);
      })
      .post('/dashboard/subscription', jsonBody(SignupBody), async (c) => {
        const input = c.req.valid('json');
        const { email, password } = checkCredentials(input);
        await deps.rateLimit(LIMITS.signupPerIp, ip(c));
        await deps.rateLimit(LIMITS.signupPerAddress, email);
        await refuseWeakPassword(password, [email]);
        // With the pre-registration's link, the server takes the gender given then (never the
        // browser's) and links the pre-registration to the account (decision 127).
        const invitation = input.invitation ? await invitationOf(deps.database.db, input.invitation, deps.clock.now()) : null;
        if (input.invitation && !invitation) throw new ApiError(400, 'INVITATION_INVALID', INVITATION_INVALID_MESSAGE);
        const gender = invitation ? (invitation.gender as Gender) : input.role;
        if (!gender)
          throw new ApiError(400, 'VALIDATION_FAILED', 'Choisissez « homme » ou « femme »', {
            issues: [{ path: 'role', message: 'Choisissez « homme » ou « femme »' }],
          });
        // The link proves the mailbox of the address it was mailed to: with that address, the
        // account is confirmed at once and the member signed in (decisions 127 and 187).
        if (invitation && invitation.email.trim().toLowerCase() === email && input.invitation) {
          const user = await registerWithProvenAddress(c, { email, password, gender, invitationToken: input.invitation });
          return c.json({ user }, 201);
        }
        await registerPending(c, { email, password, gender, preRegistrationId: invitation?.id ?? null });
        c.header('Cache-Control', 'no-store');
        return c.json({ confirmation: 'sent' as const, email, message: confirmationSentMessage(email) }, 202);
      })
      // The confirmation mail's link (`/connexion/confirmation?token_hash=…&type=signup`): the
      // browser that registered (its cookie) or the password chosen then, plus the mailbox (the
      // link), confirm the address; the member is created and signed in (decision 187).
      .post('/auth/confirmation', jsonBody(ConfirmationBody), async (c) => {
        await deps.rateLimit(LIMITS.emailConfirmPerIp, ip(c));
        const input = c.req.valid('json');
        const admin = adminClient(deps.auth);
        const expected = await registrationProvenBy(c, input);
        const supabase = requestClient(c, deps.auth);
        const verified = await supabase.auth.verifyOtp({ type: 'signup', token_hash: input.tokenHash });
        if (verified.error || !verified.data.user) {
          if (verified.error?.code === 'user_banned')
            throw new ApiError(403, 'ACCOUNT_DISABLED', 'Ce compte est désactivé. Contactez l’agence.');
          if (verified.error && (verified.error.status ?? 0) >= 500) throw UNAVAILABLE();
          throw CONFIRMATION_LINK_INVALID();
        }
        const user = verified.data.user;
        const pending = pendingRegistrationOf(user);
        const matches = 'id' in expected ? user.id === expected.id : (user.email ?? '').toLowerCase() === expected.email;
        if (!matches || !pending) {
          // The link confirmed a registration this caller did not prove: whoever chose its
          // password is unknown, so that password goes (a new registration or a reset replaces it).
          await supabase.auth.signOut({ scope: 'local' }).catch(() => {});
          if (pending) await admin.auth.admin.updateUserById(user.id, { password: randomBytes(32).toString('base64url') }).catch(() => {});
          throw new ApiError(
            400,
            'CONFIRMATION_MISMATCH',
            'Ce lien confirme une autre inscription que la vôtre. Si vous n’êtes pas à l’origine de cette inscription, créez votre compte à nouveau : il remplacera l’inscription en attente.',
          );
        }
        await createMemberOfRegistration(user.id, (user.email ?? '').toLowerCase(), pending);
        await admin.auth.admin.updateUserById(user.id, { app_metadata: { registration: null } }).catch(() => {});
        deleteCookie(c, REGISTRATION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: deps.auth.secureCookies });
        const settings = await memberSettings(deps.database.db, user.id, deps.clock.now());
        c.header('Cache-Control', 'no-store');
        return c.json({ user: settings?.view ?? null }, 201);
      })
      // « Renvoyer le mail de confirmation »: the same answer for every address (decision 187).
      .post('/auth/confirmation/resend', jsonBody(ResendBody), async (c) => {
        const parsed = v.safeParse(EmailSchema, c.req.valid('json').email);
        if (!parsed.success) throw new ApiError(400, 'INVALID_EMAIL', EMAIL_MESSAGE, { reason: 'INVALID_EMAIL' });
        const email = parsed.output;
        await deps.rateLimit(LIMITS.confirmationResendPerIp, ip(c));
        await deps.rateLimit(LIMITS.confirmationResendPerAddress, email);
        const { error } = await statelessClient(deps.auth, c).auth.resend({
          type: 'signup',
          email,
          options: { emailRedirectTo: `${deps.config.publicSiteUrl}${CONFIRMATION_PATH}` },
        });
        if (error?.code === 'over_email_send_rate_limit')
          throw new ApiError(
            429,
            'RATE_LIMITED',
            'Un e-mail vient déjà d’être envoyé à cette adresse. Patientez une minute avant d’en demander un autre.',
            {
              retryAfter: 60,
            },
          );
        if (error?.code === 'over_code_daily_limit') throw new ApiError(429, 'CODE_DAILY_LIMIT', CODE_DAILY_LIMIT_MESSAGE);
        if (error && (error.status ?? 0) >= 500) throw UNAVAILABLE();
        return c.json(
          {
            ok: true as const,
            message: `Si une inscription attend d’être confirmée pour ${email}, un nouveau lien vient d’y être envoyé.`,
          },
          200,
        );
      })
  );
}
