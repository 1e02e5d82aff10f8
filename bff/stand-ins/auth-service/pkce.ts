import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AuthDeps, Executor } from '#bff/stand-ins/auth-service/deps.ts';
import { AuthApiError, errors } from '#bff/stand-ins/auth-service/errors.ts';
import { type AccessTokenResponse, type ClientInfo, signIn } from '#bff/stand-ins/auth-service/sessions.ts';
import {
  deleteFlowState,
  deleteFlowStatesBefore,
  flowByAuthCodeForUpdate,
  insertFlowState,
  setAuthCode,
} from '#bff/stand-ins/auth-service/store/flow-state.ts';
import { findUserById, isBanned } from '#bff/stand-ins/auth-service/users.ts';

/** How long a flow state (and its auth code) lives (GoTrue: 300 s). */
const FLOW_STATE_TTL_SECONDS = 300;

export interface CodeChallenge {
  challenge: string;
  method: 's256' | 'plain';
}

/** Both `code_challenge` and `code_challenge_method`, or neither. */
export function codeChallengeOf(challenge: string | null | undefined, method: string | null | undefined): CodeChallenge | undefined {
  if (!challenge && !method) return undefined;
  if (!challenge || !method) throw errors.validation('PKCE flow requires code_challenge_method and code_challenge');
  const normalized = method.toLowerCase();
  if (normalized !== 's256' && normalized !== 'plain') throw errors.validation(`code challenge method not supported: ${method}`);
  if (challenge.length < 43 || challenge.length > 128) throw errors.validation('code challenge has to be between 43 and 128 characters');
  return { challenge, method: normalized };
}

export async function createFlowState(
  exec: Executor,
  input: { userId: string; challenge: CodeChallenge; authenticationMethod: string; now: Date },
): Promise<string> {
  // Flows nobody finished are forgotten a day later.
  await deleteFlowStatesBefore(exec, new Date(input.now.getTime() - 24 * 3600 * 1000));
  const id = randomUUID();
  await insertFlowState(exec, {
    id,
    userId: input.userId,
    codeChallenge: input.challenge.challenge,
    codeChallengeMethod: input.challenge.method,
    authenticationMethod: input.authenticationMethod,
    createdAt: input.now,
    updatedAt: input.now,
  });
  return id;
}

/** Gives the flow an auth code once its e-mail link was followed; returns the code. */
export async function issueAuthCode(exec: Executor, flowStateId: string, now: Date): Promise<string> {
  const code = randomUUID();
  if (!(await setAuthCode(exec, flowStateId, code, now)))
    throw new AuthApiError(404, 'flow_state_not_found', 'No associated flow state found.');
  return code;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The pkce grant: exchanges an auth code and its verifier for a session; the code dies with it. */
export async function pkceGrant(deps: AuthDeps, authCode: string, verifier: string, client: ClientInfo): Promise<AccessTokenResponse> {
  if (!authCode || !verifier) throw errors.validation('invalid request: both auth code and code verifier should be non-empty');
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const flow = await flowByAuthCodeForUpdate(tx, authCode);
    if (!flow?.userId) throw new AuthApiError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');
    const issuedAt = (flow.authCodeIssuedAt ?? flow.createdAt).getTime();
    if (now.getTime() > issuedAt + FLOW_STATE_TTL_SECONDS * 1000) {
      throw new AuthApiError(422, 'flow_state_expired', 'invalid flow state, flow state has expired');
    }
    const expected = flow.codeChallengeMethod === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
    if (!sameText(expected, flow.codeChallenge)) {
      throw new AuthApiError(400, 'bad_code_verifier', 'code challenge does not match previously saved code verifier');
    }
    const user = await findUserById(tx, flow.userId);
    if (!user || user.deletedAt) throw new AuthApiError(404, 'user_not_found', 'User not found');
    if (isBanned(user, now)) throw errors.userBanned(400);
    await deleteFlowState(tx, flow.id);
    return signIn(deps, tx, user, flow.authenticationMethod, client);
  });
}
