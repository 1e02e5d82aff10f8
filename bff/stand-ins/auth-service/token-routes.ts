import { Hono } from 'hono';
import * as v from 'valibot';
import type { AuthDeps } from '#bff/stand-ins/auth-service/deps.ts';
import { consumeEmailToken, dropFlowState, emailVerifyType, requestRecovery } from '#bff/stand-ins/auth-service/email-links.ts';
import { AuthApiError, errors, OAuthError } from '#bff/stand-ins/auth-service/errors.ts';
import { tokenHashOf } from '#bff/stand-ins/auth-service/one-time-tokens.ts';
import { assertAcceptablePassword, hashPassword, verifyPassword, weakPasswordNotice } from '#bff/stand-ins/auth-service/passwords.ts';
import { codeChallengeOf, issueAuthCode, pkceGrant } from '#bff/stand-ins/auth-service/pkce.ts';
import { allowedRedirect, clientInfo, limitedBy, optionalObject, optionalString, readBody } from '#bff/stand-ins/auth-service/request.ts';
import { type AccessTokenResponse, refreshGrant, signIn } from '#bff/stand-ins/auth-service/sessions.ts';
import { findUserByEmail, insertUser, isBanned, normalizeEmail } from '#bff/stand-ins/auth-service/users.ts';
import { codeKindOf, withinDailyCodeCap } from '#bff/stand-ins/auth-service/code-caps.ts';

const SignupBody = v.object({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  data: optionalObject,
  code_challenge: optionalString,
  code_challenge_method: optionalString,
});

const PasswordGrantBody = v.object({ email: optionalString, phone: optionalString, password: optionalString });
const RefreshGrantBody = v.object({ refresh_token: optionalString });
const PkceGrantBody = v.object({ auth_code: optionalString, code_verifier: optionalString });

const RecoverBody = v.object({ email: optionalString, code_challenge: optionalString, code_challenge_method: optionalString });

const VerifyBody = v.object({
  type: optionalString,
  token: optionalString,
  token_hash: optionalString,
  email: optionalString,
  phone: optionalString,
});

const PKCE_PREFIX = 'pkce_';
const LINK_INVALID = 'Email link is invalid or has expired';
const CODE_INVALID = 'Token has expired or is invalid';
const INVALID_CREDENTIALS = 'Invalid login credentials';

/** GoTrue's `oauthErrorMap`, for errors carried by a redirect. */
const OAUTH_ERROR_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

/** Sign-up, the token grants, password recovery and e-mail link verification. */
export function tokenRoutes(deps: AuthDeps) {
  const { config } = deps;

  async function passwordGrant(body: v.InferOutput<typeof PasswordGrantBody>, client: ReturnType<typeof clientInfo>) {
    if (body.email && body.phone) throw errors.validation('Only an email address or phone number should be provided on login.', 422);
    if (!body.email && !body.phone) throw errors.validation('missing email or phone');
    const password = body.password ?? '';
    const address = (body.email ?? '').trim().toLowerCase();
    // Per account, whatever the client address (decision 101): only wrong passwords count. The
    // token is taken before the hash is checked and given back for a right password, so that
    // parallel guesses cannot all pass a check made before any of them is counted (issue 60).
    const failures = `email:${address}`;
    if (!(await deps.limits.passwordFailures.take(failures))) throw errors.overRequestRateLimit();
    const refused = () => new AuthApiError(400, 'invalid_credentials', INVALID_CREDENTIALS);
    const user = body.email ? await findUserByEmail(deps.db, body.email.trim()) : undefined;
    if (!user) {
      await verifyPassword(null, password);
      throw refused();
    }
    if (isBanned(user, deps.clock.now())) throw errors.userBanned(400);
    if (!(await verifyPassword(user.encryptedPassword, password))) throw refused();
    await deps.limits.passwordFailures.giveBack(failures);
    if (!user.emailConfirmedAt) throw new AuthApiError(400, 'email_not_confirmed', 'Email not confirmed');
    const response: AccessTokenResponse = await deps.db.transaction((tx) => signIn(deps, tx, user, 'password', client));
    const notice = weakPasswordNotice(password);
    return notice ? { ...response, weak_password: notice } : response;
  }

  return new Hono()
    .post('/signup', limitedBy(deps, 'email'), async (c) => {
      // GoTrue's DISABLE_SIGNUP, on by default: the BFF creates members through the admin API.
      if (config.disableSignup) throw new AuthApiError(422, 'signup_disabled', 'Signups not allowed for this instance');
      const body = await readBody(c, SignupBody);
      if (!body.email && !body.phone) throw new AuthApiError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
      if (!body.email) throw new AuthApiError(400, 'phone_provider_disabled', 'Phone signups are disabled');
      const email = normalizeEmail(body.email);
      if (!body.password) throw errors.validation('Signup requires a valid password', 422);
      assertAcceptablePassword(body.password);
      codeChallengeOf(body.code_challenge, body.code_challenge_method);
      if (await findUserByEmail(deps.db, email)) throw new AuthApiError(422, 'user_already_exists', 'User already registered');
      const passwordHash = await hashPassword(body.password);
      const client = clientInfo(c, config);
      // Autoconfirm is on: the new member is signed in at once.
      const session = await deps.db.transaction(async (tx) => {
        if (await findUserByEmail(tx, email)) throw new AuthApiError(422, 'user_already_exists', 'User already registered');
        const now = deps.clock.now();
        const user = await insertUser(tx, now, { email, passwordHash, emailConfirmed: true, userMetadata: body.data ?? {} });
        return signIn(deps, tx, user, 'password', client);
      });
      return c.json(session, 200);
    })

    .post('/token', limitedBy(deps, 'token'), async (c) => {
      const grant = c.req.query('grant_type');
      const client = clientInfo(c, config);
      switch (grant) {
        case 'password':
          return c.json(await passwordGrant(await readBody(c, PasswordGrantBody), client), 200);
        case 'refresh_token': {
          const body = await readBody(c, RefreshGrantBody);
          return c.json(await refreshGrant(deps, body.refresh_token ?? '', client), 200);
        }
        case 'pkce': {
          const body = await readBody(c, PkceGrantBody);
          return c.json(await pkceGrant(deps, body.auth_code ?? '', body.code_verifier ?? '', client), 200);
        }
        default:
          throw new OAuthError('unsupported_grant_type', '');
      }
    })

    .post('/recover', limitedBy(deps, 'email'), async (c) => {
      const body = await readBody(c, RecoverBody);
      if (!body.email) throw errors.validation('Password recovery requires an email', 422);
      const email = normalizeEmail(body.email);
      const challenge = codeChallengeOf(body.code_challenge, body.code_challenge_method);
      await requestRecovery(deps, {
        email,
        redirectTo: allowedRedirect(c.req.query('redirect_to'), config),
        challenge,
        client: config.clientAddress(c),
      });
      return c.json({}, 200);
    })

    .post('/verify', limitedBy(deps, 'verify'), async (c) => {
      const body = await readBody(c, VerifyBody);
      if (!body.type) throw errors.validation('Verify requires a verification type');
      if ((!body.token && !body.token_hash) || (body.token && body.token_hash)) {
        throw errors.validation('Verify requires either a token or a token hash');
      }
      const type = emailVerifyType(body.type);
      let tokenHash: string;
      let invalidMessage: string;
      if (body.token) {
        if (!body.email || body.phone) throw errors.validation('Only an email address or phone number should be provided on verify');
        let email: string;
        try {
          email = normalizeEmail(body.email);
        } catch {
          throw errors.validation('Invalid email format', 422);
        }
        if (!(await deps.limits.codeGuesses.take(`email:${email}`))) throw errors.overRequestRateLimit();
        // A six-digit code: its tries also count in the day's ceiling of the address (decision 188).
        await withinDailyCodeCap(deps, codeKindOf(type), 'tried', email);
        tokenHash = tokenHashOf(deps.key.tokenHashKey, email, body.token.trim());
        invalidMessage = CODE_INVALID;
      } else {
        if (body.email || body.phone) throw errors.validation('Only the token_hash and type should be provided');
        tokenHash = (body.token_hash ?? '').replace(/^pkce_/, '');
        invalidMessage = LINK_INVALID;
      }
      const client = clientInfo(c, config);
      const session = await deps.db.transaction(async (tx) => {
        const { user, flowStateId } = await consumeEmailToken(deps, tx, { tokenHash, type, invalidMessage });
        await dropFlowState(tx, flowStateId);
        return signIn(deps, tx, user, 'otp', client);
      });
      return c.json(session, 200);
    })

    .get('/verify', limitedBy(deps, 'verify'), async (c) => {
      const type = c.req.query('type');
      const token = c.req.query('token');
      if (!type) throw errors.validation('Verify requires a verification type');
      if (!token) throw errors.validation('Verify requires a token or a token hash');
      const target = allowedRedirect(c.req.query('redirect_to'), config) ?? config.siteUrl;
      const pkce = token.startsWith(PKCE_PREFIX);
      const client = clientInfo(c, config);
      try {
        const verifyType = emailVerifyType(type);
        const tokenHash = pkce ? token.slice(PKCE_PREFIX.length) : token;
        const location = await deps.db.transaction(async (tx) => {
          const { user, flowStateId } = await consumeEmailToken(deps, tx, { tokenHash, type: verifyType, invalidMessage: LINK_INVALID });
          if (pkce) {
            if (!flowStateId) throw new AuthApiError(404, 'flow_state_not_found', 'No associated flow state found.');
            const url = new URL(target);
            url.searchParams.set('code', await issueAuthCode(tx, flowStateId, deps.clock.now()));
            return url.toString();
          }
          await dropFlowState(tx, flowStateId);
          const session = await signIn(deps, tx, user, 'otp', client);
          const fragment = new URLSearchParams({
            access_token: session.access_token,
            expires_at: String(session.expires_at),
            expires_in: String(session.expires_in),
            refresh_token: session.refresh_token,
            sb: '',
            token_type: session.token_type,
            type,
          });
          return `${target}#${fragment.toString()}`;
        });
        return c.redirect(location, 303);
      } catch (error) {
        if (!(error instanceof AuthApiError)) throw error;
        return c.redirect(errorRedirect(target, error, pkce), 303);
      }
    });
}

/** GoTrue's prepErrorRedirectURL: the error in the fragment, and also in the query for PKCE. */
function errorRedirect(target: string, error: AuthApiError, pkce: boolean): string {
  const url = new URL(target);
  const details = new URLSearchParams();
  const oauth = OAUTH_ERROR_BY_STATUS[error.status];
  if (oauth) details.set('error', oauth);
  details.set('error_code', error.code);
  details.set('error_description', error.message);
  if (pkce) for (const [key, value] of details) url.searchParams.set(key, value);
  details.set('sb', '');
  url.hash = details.toString();
  return url.toString();
}
