import { enqueueMail } from '#bff/mail/outbox.ts';
import {
  DEFAULT_EMAIL_CHANGE_PATH,
  emailChangeConfirmationMail,
  emailChangeLink,
  emailChangeRequestedNotice,
  reauthenticationMail,
} from '#bff/mail/account-mails.ts';
import { type AuthDeps, accountMailTo, type Executor } from '#bff/stand-ins/auth-service/deps.ts';
import { claimAccountMail, spendServiceMail } from '#bff/stand-ins/auth-service/mail-budget.ts';
import { AuthApiError, errors } from '#bff/stand-ins/auth-service/errors.ts';
import { generateOtp, tokenHashOf } from '#bff/stand-ins/auth-service/one-time-tokens.ts';
import { storeOneTimeToken, takeOneTimeToken } from '#bff/stand-ins/auth-service/store/one-time-tokens.ts';
import { verifyPassword } from '#bff/stand-ins/auth-service/passwords.ts';
import type { SessionRow, UserRow } from '#bff/stand-ins/auth-service/store/schema.ts';
import { setUserFields } from '#bff/stand-ins/auth-service/store/users.ts';
import { findUserByEmail, isBanned } from '#bff/stand-ins/auth-service/users.ts';
import { withinDailyCodeCap } from '#bff/stand-ins/auth-service/code-caps.ts';

/**
 * How long a session opened by an e-mail code or link (recovery, magic link, OTP) may set a new
 * password or address without the current password: the BFF's reset flow verifies the link and
 * sets the password in the same request, seconds apart (decision 102).
 */
const RECOVERY_SESSION_SECONDS = 10 * 60;

/** GoTrue's `IsRecovery()` methods: the session proves the mailbox, as a reset link does. */
const RECOVERY_METHODS = new Set(['recovery', 'otp', 'magiclink']);

/** Whether the session was opened by an e-mail code or link within the last ten minutes. */
function isRecentRecoverySession(session: SessionRow, now: Date): boolean {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return session.amr.some((entry) => RECOVERY_METHODS.has(entry.method) && nowSeconds - entry.timestamp <= RECOVERY_SESSION_SECONDS);
}

export type Proof = { kind: 'recovery' } | { kind: 'password' } | { kind: 'nonce'; nonce: string };

/**
 * What proves that the caller of `PUT /user` is the account's owner, not someone holding a
 * stolen session, before a password or address change (decision 102): a recent recovery session,
 * the current password (checked here, wrong ones counted against the account), or a nonce from
 * `GET /reauthenticate` (checked by `consumeNonce` in the update's transaction).
 */
export async function proofOf(
  deps: AuthDeps,
  input: { user: UserRow; session: SessionRow; currentPassword: string | null | undefined; nonce: string | null | undefined },
): Promise<Proof> {
  const { user } = input;
  const now = deps.clock.now();
  if (input.currentPassword) {
    const failures = `email:${user.email ?? user.id}`;
    // Taken before the check, given back for the right password (issue 60: atomic under load).
    if (!(await deps.limits.passwordFailures.take(failures))) throw errors.overRequestRateLimit();
    if (!(await verifyPassword(user.encryptedPassword, input.currentPassword))) {
      throw new AuthApiError(400, 'current_password_invalid', 'Current password is invalid.');
    }
    await deps.limits.passwordFailures.giveBack(failures);
    return { kind: 'password' };
  }
  if (input.nonce) return { kind: 'nonce', nonce: input.nonce.trim() };
  if (isRecentRecoverySession(input.session, now)) return { kind: 'recovery' };
  if (user.encryptedPassword) {
    throw new AuthApiError(400, 'current_password_required', 'Current password required when setting a new password or email address.');
  }
  throw new AuthApiError(400, 'reauthentication_needed', 'Password or email update requires reauthentication');
}

/**
 * Consumes a reauthentication nonce (one-time use) in the caller's transaction. A wrong or
 * expired one is 422 reauthentication_not_valid and counts as a code guess on the account.
 */
export async function consumeNonce(deps: AuthDeps, exec: Executor, user: UserRow, nonce: string): Promise<void> {
  const guesses = `email:${user.email ?? user.id}`;
  if (!(await deps.limits.codeGuesses.take(guesses))) throw errors.overRequestRateLimit();
  const invalid = () =>
    new AuthApiError(422, 'reauthentication_not_valid', 'Requires reauthentication: the nonce is invalid or has expired');
  if (!user.email || !/^\d{6}$/.test(nonce)) throw invalid();
  const token = await takeOneTimeToken(exec, tokenHashOf(deps.key.tokenHashKey, user.email, nonce), ['reauthentication_token']);
  if (!token || token.userId !== user.id) throw invalid();
  if (deps.clock.now().getTime() > token.createdAt.getTime() + deps.config.otpExpirySeconds * 1000) throw invalid();
  await deps.limits.codeGuesses.giveBack(guesses);
}

/**
 * `PUT /user {email}` (GoTrue's email change, decision 102): the address does not change. The new
 * one is recorded as `email_change`, a one-time token is mailed to it (its link leads to
 * `target`, by default the site's confirmation page), and the current address is told. At most
 * one request per minute per account (429 over_email_send_rate_limit), as GoTrue's
 * `email_change_sent_at` check. Runs in the update's transaction; returns whether mails were
 * queued.
 */
export async function requestEmailChange(
  deps: AuthDeps,
  exec: Executor,
  input: { user: UserRow; next: string; redirectTo: string | undefined; now: Date; client: string | undefined },
): Promise<void> {
  const { user, next, now } = input;
  const holder = await findUserByEmail(exec, next);
  if (holder && holder.id !== user.id) throw errors.emailExists();
  await claimAccountMail(deps, exec, { client: input.client, recipient: user.email ?? user.id, kind: 'email_change', now });
  await spendServiceMail(deps);
  await mailEmailChangeLink(deps, exec, { user, next, redirectTo: input.redirectTo, now });
  if (user.email) {
    await enqueueMail(
      exec,
      emailChangeRequestedNotice({
        ...(await accountMailTo(deps, exec, { to: user.email, userId: user.id })),
        next,
        siteUrl: deps.config.siteUrl,
      }),
    );
  }
}

/** Issues the `email_change_token_new` (replacing any previous one) and mails its link to `next`. */
async function mailEmailChangeLink(
  deps: AuthDeps,
  exec: Executor,
  input: { user: UserRow; next: string; redirectTo: string | undefined; now: Date },
): Promise<void> {
  const { user, next, now } = input;
  const otp = generateOtp();
  const tokenHash = tokenHashOf(deps.key.tokenHashKey, next, otp);
  await storeOneTimeToken(exec, { userId: user.id, type: 'email_change_token_new', tokenHash, relatesTo: next, flowStateId: null, now });
  await setUserFields(exec, user.id, { emailChange: next, emailChangeSentAt: now, updatedAt: now });
  const target = input.redirectTo ?? `${deps.config.siteUrl}${DEFAULT_EMAIL_CHANGE_PATH}`;
  await enqueueMail(
    exec,
    emailChangeConfirmationMail({
      ...(await accountMailTo(deps, exec, { to: next, userId: user.id })),
      current: user.email ?? '',
      link: emailChangeLink(target, tokenHash),
      otp,
      validitySeconds: deps.config.otpExpirySeconds,
    }),
  );
}

/**
 * `POST /resend {type: 'email_change', email}` (`email`: the account's current address): a new
 * link to the address waiting for confirmation. The same answer whether or not the address has an
 * account or a pending change, and the same 60 s repeat limit as the request itself.
 */
export async function resendEmailChange(
  deps: AuthDeps,
  input: { email: string; redirectTo: string | undefined; client: string | undefined },
): Promise<void> {
  const queued = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    await claimAccountMail(deps, tx, { client: input.client, recipient: input.email, kind: 'email_change', now });
    const user = await findUserByEmail(tx, input.email);
    if (!user?.emailChange || isBanned(user, now)) return false;
    await spendServiceMail(deps);
    await mailEmailChangeLink(deps, tx, { user, next: user.emailChange, redirectTo: input.redirectTo, now });
    return true;
  });
  if (queued) deps.mailQueued();
}

/**
 * `GET /reauthenticate`: mails a six-digit code to the user's confirmed address; the code is the
 * `nonce` that `PUT /user` accepts. 422 email_not_confirmed without a confirmed address.
 */
export async function requestReauthentication(deps: AuthDeps, user: UserRow, client: string | undefined): Promise<void> {
  if (!user.email || !user.emailConfirmedAt) throw new AuthApiError(422, 'email_not_confirmed', 'Email not confirmed');
  const email = user.email;
  await withinDailyCodeCap(deps, 'reauthentication', 'mailed', email);
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    await claimAccountMail(deps, tx, { client, recipient: email, kind: 'reauthentication', now });
    await spendServiceMail(deps);
    const otp = generateOtp();
    await storeOneTimeToken(tx, {
      userId: user.id,
      type: 'reauthentication_token',
      tokenHash: tokenHashOf(deps.key.tokenHashKey, email, otp),
      relatesTo: email,
      flowStateId: null,
      now,
    });
    await setUserFields(tx, user.id, { reauthenticationSentAt: now });
    await enqueueMail(
      tx,
      reauthenticationMail({
        ...(await accountMailTo(deps, tx, { to: email, userId: user.id })),
        otp,
        validitySeconds: deps.config.otpExpirySeconds,
      }),
    );
  });
  deps.mailQueued();
}
