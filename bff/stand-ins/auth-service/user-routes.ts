import { Hono } from 'hono';
import * as v from 'valibot';
import type { AuthDeps } from '#bff/stand-ins/auth-service/deps.ts';
import { AuthApiError, errors } from '#bff/stand-ins/auth-service/errors.ts';
import { authenticate } from '#bff/stand-ins/auth-service/guards.ts';
import { assertAcceptablePassword, assertPolicyPassword, hashPassword, verifyPassword } from '#bff/stand-ins/auth-service/passwords.ts';
import {
  consumeNonce,
  proofOf,
  requestEmailChange,
  requestReauthentication,
  resendEmailChange,
} from '#bff/stand-ins/auth-service/email-change.ts';
import { resendSignupConfirmation } from '#bff/stand-ins/auth-service/email-links.ts';
import { allowedRedirect, limitedBy, optionalObject, optionalString, readBody } from '#bff/stand-ins/auth-service/request.ts';
import { mergeMetadata, serializeUser } from '#bff/stand-ins/auth-service/serialize.ts';
import { endSessions } from '#bff/stand-ins/auth-service/sessions.ts';
import { normalizeEmail, recordOf, type UserRow, updateUser } from '#bff/stand-ins/auth-service/users.ts';
import { withinDailyCodeCap } from '#bff/stand-ins/auth-service/code-caps.ts';

/** The person's name as the metadata may hold it (a staff member's), for the password check. */
function nameOf(metadata: Record<string, unknown>): string | undefined {
  return typeof metadata.name === 'string' ? metadata.name : undefined;
}

const UpdateUserBody = v.object({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  nonce: optionalString,
  current_password: optionalString,
  data: optionalObject,
});

const ResendBody = v.object({ type: optionalString, email: optionalString, phone: optionalString });
const RESEND_TYPES = ['signup', 'email_change', 'sms', 'phone_change'];

const LOGOUT_SCOPES = ['global', 'local', 'others'] as const;

/** The signed-in user: read, update, sign out. */
export function userRoutes(deps: AuthDeps) {
  return (
    new Hono()
      .get('/user', async (c) => {
        const { user } = await authenticate(deps, c);
        return c.json(serializeUser(user), 200);
      })

      .put('/user', limitedBy(deps, 'email'), async (c) => {
        const { user, session } = await authenticate(deps, c);
        const body = await readBody(c, UpdateUserBody);
        if (body.phone) throw errors.validation('Phone updates are not supported');
        const current = user.row;
        const email = body.email ? normalizeEmail(body.email) : undefined;
        const changesEmail = email !== undefined && email !== current.email;
        const changesPassword = body.password !== undefined && body.password !== null;
        if (changesPassword) assertAcceptablePassword(body.password as string);

        // A password or an address changes only with a proof that the caller is the owner, not
        // someone holding a stolen session (decision 102).
        const proof =
          changesEmail || changesPassword
            ? await proofOf(deps, { user: current, session, currentPassword: body.current_password, nonce: body.nonce })
            : undefined;
        let passwordHash: string | undefined;
        if (changesPassword) {
          // The product's policy, as its own pages apply it (decision 180): 12 characters, zxcvbn.
          await assertPolicyPassword(body.password as string, [current.email, nameOf(current.userMetadata)]);
          if (await verifyPassword(current.encryptedPassword, body.password as string)) {
            throw new AuthApiError(422, 'same_password', 'New password should be different from the old password.');
          }
          passwordHash = await hashPassword(body.password as string);
        }
        // The nonce is a six-digit code: its tries count in the day's ceiling (decision 188).
        if (proof?.kind === 'nonce') await withinDailyCodeCap(deps, 'reauthentication', 'tried', current.email ?? current.id);
        // So is the code an address change mails.
        if (changesEmail) await withinDailyCodeCap(deps, 'email_change', 'mailed', current.email ?? current.id);
        const redirectTo = allowedRedirect(c.req.query('redirect_to'), deps.config);

        const record = await deps.db.transaction(async (tx) => {
          const now = deps.clock.now();
          if (proof?.kind === 'nonce') await consumeNonce(deps, tx, current, proof.nonce);
          const patch: Partial<UserRow> = { updatedAt: now };
          if (body.data) patch.userMetadata = mergeMetadata(current.userMetadata, body.data);
          // The address itself waits for the confirmation from the new one.
          if (email && changesEmail)
            await requestEmailChange(deps, tx, { user: current, next: email, redirectTo, now, client: deps.config.clientAddress(c) });
          if (passwordHash) patch.encryptedPassword = passwordHash;
          const updated = await updateUser(tx, current.id, patch);
          if (!updated) throw errors.userNotFound();
          // A new password ends every other session of the user (models/user.go UpdatePassword).
          if (passwordHash) await endSessions(tx, current.id, 'others', session.id);
          return recordOf(tx, updated);
        });
        if (changesEmail) deps.mailQueued();
        return c.json(serializeUser(record), 200);
      })

      // GoTrue's resend: the sign-up confirmation (decision 187) and the e-mail change.
      .post('/resend', limitedBy(deps, 'email'), async (c) => {
        const body = await readBody(c, ResendBody);
        if (!body.type || !RESEND_TYPES.includes(body.type)) {
          throw errors.validation('Missing one of these types: signup, email_change, sms, phone_change');
        }
        if (body.type === 'sms' || body.type === 'phone_change') {
          throw new AuthApiError(400, 'phone_provider_disabled', 'Phone logins are disabled');
        }
        if (!body.email) throw errors.validation('Email is required', 422);
        const email = normalizeEmail(body.email);
        const redirectTo = allowedRedirect(c.req.query('redirect_to'), deps.config);
        const client = deps.config.clientAddress(c);
        if (body.type === 'email_change') await resendEmailChange(deps, { email, redirectTo, client });
        if (body.type === 'signup') await resendSignupConfirmation(deps, { email, redirectTo, client });
        return c.json({}, 200);
      })

      .get('/reauthenticate', limitedBy(deps, 'email'), async (c) => {
        const { user } = await authenticate(deps, c);
        await requestReauthentication(deps, user.row, deps.config.clientAddress(c));
        return c.json({}, 200);
      })

      .post('/logout', async (c) => {
        const scope = c.req.query('scope') ?? 'global';
        if (!(LOGOUT_SCOPES as readonly string[]).includes(scope)) throw errors.validation(`Unsupported logout scope "${scope}"`);
        const { user, session } = await authenticate(deps, c);
        await endSessions(deps.db, user.row.id, scope as (typeof LOGOUT_SCOPES)[number], session.id);
        return c.body(null, 204);
      })
  );
}
