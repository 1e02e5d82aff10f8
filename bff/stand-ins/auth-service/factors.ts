import { randomUUID } from 'node:crypto';
import type { AuthDeps, Executor } from '#bff/stand-ins/auth-service/deps.ts';
import { AuthApiError, errors } from '#bff/stand-ins/auth-service/errors.ts';
import {
  type AccessTokenResponse,
  aalOf,
  accessTokenResponse,
  rotateSessionTokens,
  withAmr,
} from '#bff/stand-ins/auth-service/sessions.ts';
import {
  anyFactorsOfUser,
  challengeOf,
  deleteChallenge,
  deleteChallengesBefore,
  deleteFactor,
  deleteUnverifiedFactors,
  deleteUnverifiedTotpFactors,
  factorsOfUser,
  insertChallenge,
  insertFactor,
  setFactorFields,
  takeChallenge,
  userFactorForUpdate,
} from '#bff/stand-ins/auth-service/store/factors.ts';
import type { FactorRow, SessionRow } from '#bff/stand-ins/auth-service/store/schema.ts';
import { deleteSessionsBelowAal2, sessionsRaisedBy, setSessionFields, updateSession } from '#bff/stand-ins/auth-service/store/sessions.ts';
import { findUserById, recordOf } from '#bff/stand-ins/auth-service/users.ts';

export type { FactorRow };

/** GoTrue's MFA defaults (conf): challenges live 300 s, at most 10 factors. */
export const CHALLENGE_TTL_SECONDS = 300;
const MAX_FACTORS = 10;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Enrols a new TOTP factor (unverified) for the user, in the caller's transaction: 422 for a
 * friendly name taken or too many factors, 403 insufficient_aal when a verified factor exists and
 * the session is not aal2.
 */
export async function enrollTotpFactor(
  tx: Executor,
  input: { userId: string; friendlyName: string; secret: string; sessionAal: SessionRow['aal']; now: Date },
): Promise<FactorRow> {
  const { userId, friendlyName, now } = input;
  // An enrolment never finished (a reload, a closed tab) is replaced, not kept for 300 s:
  // its QR code was never scanned, or is on a page gone. GoTrue's verify deletes unverified
  // factors of the same type; enrolling does it here, so a new QR code is usable at once
  // (issue 19, decision 103). Their challenges go with them (ON DELETE CASCADE).
  await deleteUnverifiedTotpFactors(tx, userId);
  const factors = await anyFactorsOfUser(tx, userId);
  if (factors.some((f) => f.friendlyName === friendlyName)) {
    throw new AuthApiError(
      422,
      'mfa_factor_name_conflict',
      `A factor with the friendly name "${friendlyName}" for this user already exists`,
    );
  }
  if (factors.length >= MAX_FACTORS) {
    throw new AuthApiError(422, 'too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue');
  }
  if (factors.some((f) => f.status === 'verified') && input.sessionAal !== 'aal2') {
    throw new AuthApiError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
  }
  const created = await insertFactor(tx, {
    id: randomUUID(),
    userId,
    friendlyName,
    factorType: 'totp',
    status: 'unverified',
    secret: input.secret,
    createdAt: now,
    updatedAt: now,
  });
  if (!created) throw new Error('embedded_auth.mfa_factors insert returned nothing');
  return created;
}

/** Opens challenge `id` of the factor from `ip`, forgetting the factor's expired ones. */
export async function openChallenge(tx: Executor, input: { id: string; factorId: string; ip: string; now: Date }): Promise<void> {
  const { now } = input;
  await deleteChallengesBefore(tx, input.factorId, new Date(now.getTime() - CHALLENGE_TTL_SECONDS * 1000));
  await insertChallenge(tx, { id: input.id, factorId: input.factorId, ipAddress: input.ip, createdAt: now });
  await setFactorFields(tx, input.factorId, { lastChallengedAt: now, updatedAt: now });
}

/** The factor's challenge `id`, undefined for another factor's or an unknown one. */
export async function factorChallenge(exec: Executor, id: string, factorId: string) {
  return challengeOf(exec, id, factorId);
}

export async function dropChallenge(exec: Executor, id: string): Promise<void> {
  await deleteChallenge(exec, id);
}

/**
 * A verified TOTP code raises the session to aal2, in the caller's transaction: the challenge is
 * used once, the factor becomes verified, the session's tokens rotate, and the user's sessions
 * below aal2 and unverified factors go.
 */
export async function raiseSession(
  deps: AuthDeps,
  tx: Executor,
  input: { challengeId: string; factorId: string; session: SessionRow; now: Date },
): Promise<AccessTokenResponse> {
  const { now, factorId } = input;
  // The challenge is used once: a concurrent verify of the same challenge finds it taken.
  if (!(await takeChallenge(tx, input.challengeId, now))) {
    throw new AuthApiError(422, 'mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
  }
  await setFactorFields(tx, factorId, { status: 'verified', updatedAt: now });
  const amr = withAmr(input.session.amr, { method: 'totp', timestamp: seconds(now) });
  const upgraded = await updateSession(tx, input.session.id, { amr, aal: aalOf(amr), factorId, updatedAt: now });
  if (!upgraded) throw new AuthApiError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
  const refreshToken = await rotateSessionTokens(tx, upgraded, now);
  // Sessions of this user below aal2 end; unverified TOTP factors go (mfa.go).
  await deleteSessionsBelowAal2(tx, upgraded.userId);
  await deleteUnverifiedFactors(tx, upgraded.userId);
  const user = await findUserById(tx, upgraded.userId);
  if (!user) throw errors.userNotFound();
  return accessTokenResponse(deps, await recordOf(tx, user), upgraded, refreshToken);
}

/** The user's factors, oldest first. */
export async function listFactors(exec: Executor, userId: string): Promise<FactorRow[]> {
  return factorsOfUser(exec, userId);
}

/** The user's factor `id`, locked for its removal; 404 mfa_factor_not_found. */
export async function lockUserFactor(tx: Executor, id: string, userId: string): Promise<FactorRow> {
  const factor = await userFactorForUpdate(tx, id, userId);
  if (!factor) throw new AuthApiError(404, 'mfa_factor_not_found', 'Factor not found');
  return factor;
}

/**
 * Deletes a factor; the sessions it raised to aal2 go back to aal1 (GoTrue's unenroll, and the
 * admin `DELETE /admin/users/{id}/factors/{factorId}`). Their next token says aal1.
 */
export async function removeFactor(tx: Executor, factor: FactorRow, now: Date): Promise<void> {
  const upgraded = await sessionsRaisedBy(tx, factor.id);
  for (const session of upgraded) {
    const amr = session.amr.filter((entry) => entry.method !== 'totp');
    await setSessionFields(tx, session.id, { amr, aal: aalOf(amr), factorId: null, updatedAt: now });
  }
  await deleteFactor(tx, factor.id);
}
