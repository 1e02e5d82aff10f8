import { fullNameOf, refuseWeakPassword } from '#bff/auth/strong-password.ts';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { memberOnly } from '#bff/auth/guards.ts';
import { requestClient, statelessClient } from '#bff/auth/supabase.ts';
import { emailTakenByAnother, setMemberEmail } from '#bff/members/member-rows.ts';
import { ApiError } from '#bff/http/errors.ts';
import { clientAddress, LIMITS } from '#bff/http/rate-limit.ts';
import { jsonBody } from '#bff/http/validate.ts';
import { CODE_DAILY_LIMIT_MESSAGE, EMAIL_MESSAGE, EmailSchema, PASSWORD_MAX_LENGTH, PasswordSchema } from '#machines/auth/credentials.ts';
import { log } from '#bff/logger.ts';

/** Where the confirmation link of an e-mail change leads (a page of the SPA, outside the guarded area). */
const EMAIL_CONFIRMATION_PATH = '/mon-compte/confirmer-email';

const CurrentPassword = v.pipe(
  v.string('Saisissez votre mot de passe actuel'),
  v.minLength(1, 'Saisissez votre mot de passe actuel'),
  v.maxLength(PASSWORD_MAX_LENGTH, 'Mot de passe actuel incorrect'),
);

const EmailChangeBody = v.strictObject(
  {
    newEmail: v.pipe(v.string(EMAIL_MESSAGE), v.minLength(1, 'Saisissez la nouvelle adresse e-mail'), EmailSchema),
    currentPassword: CurrentPassword,
  },
  'Données invalides',
);

const PasswordChangeBody = v.pipe(
  v.strictObject(
    {
      currentPassword: CurrentPassword,
      newPassword: PasswordSchema,
      newPasswordRepeat: v.string('Confirmez le nouveau mot de passe'),
    },
    'Données invalides',
  ),
  v.forward(
    v.check((body) => body.newPassword === body.newPasswordRepeat, 'Les mots de passe ne correspondent pas'),
    ['newPasswordRepeat'],
  ),
);

const EmailConfirmBody = v.strictObject(
  { tokenHash: v.pipe(v.string('Lien invalide ou expiré'), v.regex(/^(pkce_)?[0-9a-f]{20,128}$/i, 'Lien invalide ou expiré')) },
  'Données invalides',
);

const UNAVAILABLE = () => new ApiError(503, 'SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.');
const fieldError = (status: 400 | 409, code: string, path: string, message: string) =>
  new ApiError(status, code, message, { issues: [{ path, message }] });
const WRONG_PASSWORD = () => fieldError(400, 'CURRENT_PASSWORD_INVALID', 'currentPassword', 'Mot de passe actuel incorrect.');
const TOO_MANY = () => new ApiError(429, 'RATE_LIMITED', 'Trop de tentatives. Réessayez dans quelques minutes.', { retryAfter: 60 });
const LINK_INVALID = () =>
  new ApiError(
    400,
    'INVALID_TOKEN',
    'Ce lien de confirmation est invalide, a déjà servi ou a expiré. Demandez un nouveau changement depuis Mon profil.',
  );

/** Supabase Auth's refusals of `PUT /user`, as the member reads them. */
function authFailure(
  error: { code?: string | undefined; status?: number | undefined; message?: string | undefined },
  field: 'newEmail' | 'newPassword',
): ApiError {
  switch (error.code) {
    case 'current_password_invalid':
    case 'current_password_required':
    case 'reauthentication_needed':
    case 'reauthentication_not_valid':
      return WRONG_PASSWORD();
    case 'email_exists':
      return fieldError(409, 'EMAIL_EXISTS', 'newEmail', 'Cette adresse e-mail est déjà celle d’un autre compte.');
    case 'validation_failed':
      return field === 'newEmail'
        ? fieldError(400, 'INVALID_EMAIL', 'newEmail', EMAIL_MESSAGE)
        : fieldError(400, 'INVALID_PASSWORD', 'newPassword', 'Ce mot de passe n’est pas accepté.');
    case 'weak_password':
      // The auth service's own message is French (decision 180's policy, applied there too).
      return fieldError(400, 'INVALID_PASSWORD', 'newPassword', error.message || 'Ce mot de passe est trop faible.');
    case 'over_code_daily_limit':
      // The day's codes of this kind are spent (decision 188): the agency helps.
      return new ApiError(429, 'CODE_DAILY_LIMIT', CODE_DAILY_LIMIT_MESSAGE, { retryAfter: 3600 });
    case 'same_password':
      return fieldError(400, 'SAME_PASSWORD', 'newPassword', 'Le nouveau mot de passe doit être différent de l’actuel.');
    case 'over_email_send_rate_limit':
      return new ApiError(429, 'RATE_LIMITED', 'Un e-mail vient d’être envoyé. Patientez une minute avant de redemander.', {
        retryAfter: 60,
      });
    case 'over_request_rate_limit':
      return TOO_MANY();
    default:
      if ((error.status ?? 0) >= 500 || error.status === 0) return UNAVAILABLE();
      return new ApiError(400, 'UPDATE_REFUSED', 'La modification n’a pas pu être enregistrée. Réessayez.');
  }
}

/**
 * Mon profil's account security (issue 19, decision 102): changing the address (applied only
 * once confirmed from the new one) and the password (with the current one). Every write needs the
 * current password, which the auth service checks and counts against the account.
 */
export function accountRoutes(deps: ApiDeps) {
  const db = deps.database.db;

  // Mon profil is the members' page; staff accounts are managed by the agency. The session is
  // checked before the body is read; each write then counts against the account's limit.
  const member = memberOnly(deps);

  return new Hono()
    .post('/user/email', member, jsonBody(EmailChangeBody), async (c) => {
      const who = c.var.member;
      await deps.rateLimit(LIMITS.accountChangePerAccount, who.id);
      const { newEmail, currentPassword } = c.req.valid('json');
      if (newEmail === who.email.toLowerCase()) {
        throw fieldError(400, 'SAME_EMAIL', 'newEmail', 'C’est déjà l’adresse de votre compte.');
      }
      if (await emailTakenByAnother(db, newEmail, who.id)) throw authFailure({ code: 'email_exists' }, 'newEmail');
      const supabase = requestClient(c, deps.auth);
      const { data, error } = await supabase.auth.updateUser(
        { email: newEmail, current_password: currentPassword },
        { emailRedirectTo: `${deps.config.publicSiteUrl}${EMAIL_CONFIRMATION_PATH}` },
      );
      if (error || !data.user) throw authFailure(error ?? {}, 'newEmail');
      deps.mailQueued();
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          email: who.email,
          pendingEmail: data.user.new_email ?? newEmail,
          message: `Un lien de confirmation a été envoyé à ${newEmail}. Votre adresse reste ${who.email} tant que vous ne l’avez pas confirmée depuis la nouvelle boîte de réception ; votre adresse actuelle a été prévenue.`,
        },
        200,
      );
    })
    .get('/user/email', member, async (c) => {
      const { data, error } = await requestClient(c, deps.auth).auth.getUser();
      if (error || !data.user)
        throw (error?.status ?? 0) >= 500 ? UNAVAILABLE() : new ApiError(401, 'UNAUTHENTICATED', 'Vous devez être connecté.');
      c.header('Cache-Control', 'private, no-store');
      return c.json({ email: data.user.email ?? '', pendingEmail: data.user.new_email ?? null }, 200);
    })
    .post('/user/email/confirm', jsonBody(EmailConfirmBody), async (c) => {
      await deps.rateLimit(LIMITS.emailConfirmPerIp, clientAddress(c, deps.config.trustProxy));
      const { tokenHash } = c.req.valid('json');
      // Nobody needs to be signed in: the link may be opened on another device.
      const client = statelessClient(deps.auth, c);
      const verified = await client.auth.verifyOtp({ type: 'email_change', token_hash: tokenHash });
      if (verified.error) {
        if (verified.error.code === 'email_exists')
          throw fieldError(409, 'EMAIL_EXISTS', 'tokenHash', 'Cette adresse e-mail est entre-temps devenue celle d’un autre compte.');
        if (verified.error.code === 'over_request_rate_limit') throw TOO_MANY();
        if ((verified.error.status ?? 0) >= 500) throw UNAVAILABLE();
        throw LINK_INVALID();
      }
      const user = verified.data.user;
      // Hosted Supabase with "secure email change": the first of two confirmations gives no user.
      if (!user) {
        return c.json(
          { done: false as const, email: null, message: 'Lien accepté. Confirmez aussi depuis le lien envoyé à votre autre adresse.' },
          200,
        );
      }
      // The session the verification opened is of no use here.
      await client.auth.signOut({ scope: 'local' }).catch(() => {});
      const email = (user.email ?? '').toLowerCase();
      // A change of the row like any other: its version moves (an event deciding on the old row retries).
      await setMemberEmail(db, user.id, email, deps.clock.now()).catch((error: unknown) => {
        log.error('members.email non mis à jour', { memberId: user.id, err: error });
        throw UNAVAILABLE();
      });
      deps.mailQueued();
      return c.json({ done: true as const, email, message: `C’est fait : l’adresse de votre compte est désormais ${email}.` }, 200);
    })
    .post('/user/password', member, jsonBody(PasswordChangeBody), async (c) => {
      await deps.rateLimit(LIMITS.accountChangePerAccount, c.var.member.id);
      const { currentPassword, newPassword } = c.req.valid('json');
      await refuseWeakPassword(newPassword, [c.var.member.email, fullNameOf(c.var.member.member.contract)], 'newPassword');
      const supabase = requestClient(c, deps.auth);
      const { error } = await supabase.auth.updateUser({ password: newPassword, current_password: currentPassword });
      if (error) throw authFailure(error, 'newPassword');
      c.header('Cache-Control', 'private, no-store');
      return c.json({ ok: true as const, message: 'Votre mot de passe a été modifié. Vos autres appareils ont été déconnectés.' }, 200);
    });
}
