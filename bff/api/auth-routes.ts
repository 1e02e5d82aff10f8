import { Hono } from 'hono';
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
import { createMember, memberSettings } from '#bff/members/members.ts';
import {
  CREDENTIALS_MESSAGE,
  credentialFailure,
  EMAIL_MESSAGE,
  EmailSchema,
  GenderSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SIGNIN_PASSWORD_MIN_LENGTH,
} from '#machines/auth/credentials.ts';
import { log } from '#bff/logger.ts';
import { claimInvitation, INVITATION_INVALID_MESSAGE, InvitationSchema, invitationOf } from '#bff/members/signup-prefill.ts';
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
        const settings = await memberSettings(deps.database.db, verified.data.user.id, deps.clock.now());
        if (!settings || settings.disabled) {
          await supabase.auth.signOut({ scope: 'local' });
          if (settings?.disabled) throw new ApiError(403, 'ACCOUNT_DISABLED', 'Ce compte est désactivé. Contactez l’agence.');
          throw new ApiError(400, 'INVALID_TOKEN', 'Ce lien de réinitialisation est invalide ou a expiré. Demandez-en un nouveau.');
        }
        const updated = await supabase.auth.updateUser({ password: input.password });
        if (updated.error && updated.error.code !== 'same_password') {
          await supabase.auth.signOut({ scope: 'local' });
          throw new ApiError(400, 'INVALID_CREDENTIALS', CREDENTIALS_MESSAGE, { reason: 'PASSWORD_TOO_SHORT' });
        }
        // Every other session of the account ends; this one stays. Staff hold an aal1 session
        // here: their second factor is still asked before anything of the dashboard opens.
        await supabase.auth.signOut({ scope: 'others' });
        return c.json({ ok: true, user: settings.view, mfa: { required: settings.view.role === 'staff' } }, 200);
      })
      .post('/dashboard/subscription', jsonBody(SignupBody), async (c) => {
        const input = c.req.valid('json');
        const { email, password } = checkCredentials(input);
        await deps.rateLimit(LIMITS.signupPerIp, ip(c));
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
          if (code === 'email_exists' || code === 'user_already_exists') {
            throw new ApiError(
              409,
              'EMAIL_EXISTS',
              'Un compte existe déjà pour cette adresse e-mail. Connectez-vous ou réinitialisez votre mot de passe.',
            );
          }
          if (code === 'weak_password' || code === 'validation_failed') {
            throw new ApiError(400, 'INVALID_CREDENTIALS', CREDENTIALS_MESSAGE, { reason: 'PASSWORD_TOO_SHORT' });
          }
          throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.');
        }
        const userId = created.data.user.id;
        try {
          await createMember(deps.database.db, { id: userId, email, gender, now: deps.clock.now() }, async (tx) => {
            if (input.invitation && !(await claimInvitation(tx, input.invitation, userId, deps.clock.now())))
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
        return c.json({ user: settings?.view ?? null }, 201);
      })
  );
}

export { checkCredentials };
