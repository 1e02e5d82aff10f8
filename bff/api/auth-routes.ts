import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { CONFIRMATION_LINK_INVALID, registrationSteps, UNAVAILABLE } from '#bff/api/registration-steps.ts';
import { signOutPage } from '#bff/api/sign-out-page.ts';
import { refuseWeakPassword } from '#bff/auth/strong-password.ts';
import { adminClient, requestClient, statelessClient } from '#bff/auth/supabase.ts';
import { ApiError } from '#bff/http/errors.ts';
import { clientAddress, LIMITS } from '#bff/http/rate-limit.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { log } from '#bff/logger.ts';
import { memberSettings } from '#bff/members/members.ts';
import { CONFIRMATION_PATH, pendingRegistrationOf, REGISTRATION_COOKIE } from '#bff/members/registration.ts';
import { INVITATION_INVALID_MESSAGE, InvitationSchema, invitationOf } from '#bff/members/signup-prefill.ts';
import {
  CODE_DAILY_LIMIT_MESSAGE,
  CREDENTIALS_MESSAGE,
  credentialFailure,
  EMAIL_MESSAGE,
  EMAIL_NOT_CONFIRMED_MESSAGE,
  EmailSchema,
  type Gender,
  GenderSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SIGNIN_PASSWORD_MIN_LENGTH,
} from '#machines/auth/credentials.ts';

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

  const { registerWithProvenAddress, registerPending, registrationProvenBy, createMemberOfRegistration } = registrationSteps(deps);
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
