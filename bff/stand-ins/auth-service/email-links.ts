import { enqueueMail } from '#bff/mail/outbox.ts';
import { type AuthDeps, accountMailTo, type Executor } from '#bff/stand-ins/auth-service/deps.ts';
import { AuthApiError, errors } from '#bff/stand-ins/auth-service/errors.ts';
import { generateOtp, tokenHashOf } from '#bff/stand-ins/auth-service/one-time-tokens.ts';
import { storeOneTimeToken, takeOneTimeToken } from '#bff/stand-ins/auth-service/store/one-time-tokens.ts';
import { type CodeChallenge, createFlowState } from '#bff/stand-ins/auth-service/pkce.ts';
import { DEFAULT_RECOVERY_PATH, recoveryLink, recoveryMail } from '#bff/mail/recovery-mail.ts';
import { deleteFlowState } from '#bff/stand-ins/auth-service/store/flow-state.ts';
import type { OneTimeTokenType, UserRow } from '#bff/stand-ins/auth-service/store/schema.ts';
import { setUserFields, syncEmailIdentity } from '#bff/stand-ins/auth-service/store/users.ts';
import {
  DEFAULT_SIGNUP_CONFIRMATION_PATH,
  emailChangedNotice,
  signupConfirmationLink,
  signupConfirmationMail,
} from '#bff/mail/account-mails.ts';
import { claimAccountMail, spendServiceMail } from '#bff/stand-ins/auth-service/mail-budget.ts';
import { findUserByEmail, findUserById, isBanned, updateUser, updateUserAddress } from '#bff/stand-ins/auth-service/users.ts';

/** GoTrue's MAILER_MAX_FREQUENCY: one mail of a kind per address per minute. */

export type EmailVerifyType = 'recovery' | 'magiclink' | 'signup' | 'invite' | 'email' | 'email_change';

const TOKEN_TYPES: Record<EmailVerifyType, OneTimeTokenType[]> = {
  recovery: ['recovery_token'],
  magiclink: ['recovery_token'],
  signup: ['confirmation_token'],
  invite: ['confirmation_token'],
  email: ['confirmation_token', 'recovery_token'],
  email_change: ['email_change_token_new'],
};

export function emailVerifyType(raw: string): EmailVerifyType {
  // Own keys only: `in` would take `__proto__` or `constructor` for a type (a 500 the fuzzer found).
  if (Object.hasOwn(TOKEN_TYPES, raw)) return raw as EmailVerifyType;
  throw errors.validation('Unsupported verification type');
}

/** The authentication method a verified link records (amr and PKCE flow states). */
function authenticationMethodOf(type: EmailVerifyType): string {
  return type === 'signup' || type === 'invite' ? 'email/signup' : type === 'email' ? 'otp' : type;
}

/**
 * Creates the one-time code of a mail (or generated link) for a user: stores its hash, notes
 * when it was sent, and ties it to a PKCE flow when the client started one.
 */
export async function issueEmailToken(
  exec: Executor,
  input: { user: UserRow; type: EmailVerifyType; challenge?: CodeChallenge | undefined; now: Date; hashKey: Uint8Array },
): Promise<{ otp: string; tokenHash: string }> {
  const { user, now } = input;
  if (!user.email) throw errors.validation('User has no e-mail address');
  const otp = generateOtp();
  const tokenHash = tokenHashOf(input.hashKey, user.email, otp);
  const flowStateId = input.challenge
    ? await createFlowState(exec, {
        userId: user.id,
        challenge: input.challenge,
        authenticationMethod: authenticationMethodOf(input.type),
        now,
      })
    : null;
  const tokenType: OneTimeTokenType = input.type === 'signup' || input.type === 'invite' ? 'confirmation_token' : 'recovery_token';
  await storeOneTimeToken(exec, { userId: user.id, type: tokenType, tokenHash, relatesTo: user.email, flowStateId, now });
  const sent = tokenType === 'confirmation_token' ? { confirmationSentAt: now } : { recoverySentAt: now };
  await setUserFields(exec, user.id, sent);
  return { otp, tokenHash };
}

/**
 * Consumes an e-mail token (one-time use), checks it is still valid and that its user may sign
 * in, and confirms the user's address (following the link proves it). Runs in the caller's
 * transaction; every refusal is 403 `otp_expired` with `invalidMessage`, or 403 `user_banned`.
 */
export async function consumeEmailToken(
  deps: AuthDeps,
  exec: Executor,
  input: { tokenHash: string; type: EmailVerifyType; invalidMessage: string },
): Promise<{ user: UserRow; flowStateId: string | null }> {
  const now = deps.clock.now();
  const expired = () => new AuthApiError(403, 'otp_expired', input.invalidMessage);
  const token = await takeOneTimeToken(exec, input.tokenHash, TOKEN_TYPES[input.type]);
  if (!token) throw expired();
  const user = await findUserById(exec, token.userId);
  if (!user || user.deletedAt) throw expired();
  if (isBanned(user, now)) throw errors.userBanned(403);
  if (now.getTime() > token.createdAt.getTime() + deps.config.otpExpirySeconds * 1000) throw expired();
  if (input.type === 'email_change') {
    return { user: await applyEmailChange(deps, exec, user, token.relatesTo, now, expired), flowStateId: token.flowStateId };
  }
  if (user.emailConfirmedAt) return { user, flowStateId: token.flowStateId };
  const confirmed = await updateUser(exec, user.id, { emailConfirmedAt: now, updatedAt: now });
  if (!confirmed) throw expired();
  await syncEmailIdentity(exec, confirmed, now);
  return { user: confirmed, flowStateId: token.flowStateId };
}

/**
 * Verifying an `email_change` token (sent to the new address) applies the change: the address
 * becomes the confirmed one, the pending change is forgotten, and the old address is told. A
 * token for an address the user no longer waits for (a later request replaced it) is refused; an
 * address another account took meanwhile is 422 email_exists.
 */
async function applyEmailChange(
  deps: AuthDeps,
  exec: Executor,
  user: UserRow,
  next: string,
  now: Date,
  expired: () => AuthApiError,
): Promise<UserRow> {
  if (user.emailChange !== next) throw expired();
  const holder = await findUserByEmail(exec, next);
  if (holder && holder.id !== user.id) throw errors.emailExists();
  const changed = await updateUserAddress(exec, user.id, {
    email: next,
    emailChange: null,
    emailChangeSentAt: null,
    emailConfirmedAt: now,
    updatedAt: now,
  });
  if (!changed) throw expired();
  await syncEmailIdentity(exec, changed, now);
  if (user.email && user.email !== next) {
    await enqueueMail(exec, emailChangedNotice({ ...(await accountMailTo(deps, exec, { to: user.email, userId: user.id })), next }));
  }
  return changed;
}

/** Forgets a PKCE flow that a direct (token_hash) verification made useless. */
export async function dropFlowState(exec: Executor, flowStateId: string | null): Promise<void> {
  if (flowStateId) await deleteFlowState(exec, flowStateId);
}

/**
 * POST /recover: queues the French recovery mail when the address has an account; answers the
 * same either way. The mail is written in the same transaction as its token.
 */
export async function requestRecovery(
  deps: AuthDeps,
  input: { email: string; redirectTo: string | undefined; challenge: CodeChallenge | undefined; client: string | undefined },
): Promise<void> {
  const target = input.redirectTo ?? `${deps.config.siteUrl}${DEFAULT_RECOVERY_PATH}`;
  const queued = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    await claimAccountMail(deps, tx, { client: input.client, recipient: input.email, kind: 'recovery', now });
    const user = await findUserByEmail(tx, input.email);
    if (!user?.email || isBanned(user, now)) return false;
    await spendServiceMail(deps);
    const { otp, tokenHash } = await issueEmailToken(tx, {
      user,
      type: 'recovery',
      challenge: input.challenge,
      now,
      hashKey: deps.key.tokenHashKey,
    });
    await enqueueMail(
      tx,
      recoveryMail({
        ...(await accountMailTo(deps, tx, { to: user.email, userId: user.id })),
        link: recoveryLink(target, tokenHash),
        otp,
        validitySeconds: deps.config.otpExpirySeconds,
      }),
    );
    return true;
  });
  if (queued) deps.mailQueued();
}

/**
 * `POST /resend {type: 'signup'}` (GoTrue's resend of the sign-up confirmation, decision 187): a new
 * confirmation link (the previous one stops working) to an address whose account waits for it.
 * The same empty answer for an address with no account, a confirmed one or an invitation (an
 * invited colleague confirms through the invitation), after the same mail budgets.
 */
export async function resendSignupConfirmation(
  deps: AuthDeps,
  input: { email: string; redirectTo: string | undefined; client: string | undefined },
): Promise<void> {
  const target = input.redirectTo ?? `${deps.config.siteUrl}${DEFAULT_SIGNUP_CONFIRMATION_PATH}`;
  const queued = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    await claimAccountMail(deps, tx, { client: input.client, recipient: input.email, kind: 'signup', now });
    const user = await findUserByEmail(tx, input.email);
    if (!user?.email || user.emailConfirmedAt || user.invitedAt || isBanned(user, now)) return false;
    await spendServiceMail(deps);
    // One link at a time: storing the new token replaces the earlier mail's.
    const { tokenHash } = await issueEmailToken(tx, { user, type: 'signup', now, hashKey: deps.key.tokenHashKey });
    await enqueueMail(
      tx,
      signupConfirmationMail({
        ...(await accountMailTo(deps, tx, { to: user.email, userId: user.id })),
        link: signupConfirmationLink(target, tokenHash),
        validitySeconds: deps.config.otpExpirySeconds,
      }),
    );
    return true;
  });
  if (queued) deps.mailQueued();
}
