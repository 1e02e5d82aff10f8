import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AuthDeps } from '#bff/auth-service/deps.ts';
import { AuthApiError, errors } from '#bff/auth-service/errors.ts';
import { authenticate } from '#bff/auth-service/guards.ts';
import { assertAcceptablePassword, hashPassword, verifyPassword } from '#bff/auth-service/passwords.ts';
import { limitedBy, optionalObject, optionalString, readBody } from '#bff/auth-service/request.ts';
import { type UserRow, users } from '#bff/auth-service/schema.ts';
import { mergeMetadata, serializeUser } from '#bff/auth-service/serialize.ts';
import { endSessions } from '#bff/auth-service/sessions.ts';
import { findUserByEmail, isUniqueViolation, normalizeEmail, recordOf, syncEmailIdentity } from '#bff/auth-service/store.ts';

const UpdateUserBody = v.object({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  nonce: optionalString,
  data: optionalObject,
});

const LOGOUT_SCOPES = ['global', 'local', 'others'] as const;

/** The signed-in user: read, update, sign out. */
export function userRoutes(deps: AuthDeps) {
  return new Hono()
    .get('/user', async (c) => {
      const { user } = await authenticate(deps, c);
      return c.json(serializeUser(user), 200);
    })

    .put('/user', limitedBy(deps, 'email'), async (c) => {
      const { user, session } = await authenticate(deps, c);
      const body = await readBody(c, UpdateUserBody);
      if (body.phone) throw errors.validation('Phone updates are not supported');
      const current = user.row;

      let passwordHash: string | undefined;
      if (body.password !== undefined && body.password !== null) {
        assertAcceptablePassword(body.password);
        if (await verifyPassword(current.encryptedPassword, body.password)) {
          throw new AuthApiError(422, 'same_password', 'New password should be different from the old password.');
        }
        passwordHash = await hashPassword(body.password);
      }
      const email = body.email ? normalizeEmail(body.email) : undefined;

      const record = await deps.db.transaction(async (tx) => {
        const now = deps.clock.now();
        const patch: Partial<UserRow> = { updatedAt: now };
        if (body.data) patch.userMetadata = mergeMetadata(current.userMetadata, body.data);
        if (email && email !== current.email) {
          const holder = await findUserByEmail(tx, email);
          if (holder && holder.id !== current.id) throw errors.emailExists();
          // Autoconfirm: the new address applies at once.
          patch.email = email;
          patch.emailConfirmedAt = now;
        }
        if (passwordHash) patch.encryptedPassword = passwordHash;
        const [updated] = await tx
          .update(users)
          .set(patch)
          .where(eq(users.id, current.id))
          .returning()
          .catch((error: unknown) => {
            throw isUniqueViolation(error) ? errors.emailExists() : error;
          });
        if (!updated) throw errors.userNotFound();
        if (patch.email) await syncEmailIdentity(tx, updated, now);
        // A new password ends every other session of the user (models/user.go UpdatePassword).
        if (passwordHash) await endSessions(tx, current.id, 'others', session.id);
        return recordOf(tx, updated);
      });
      return c.json(serializeUser(record), 200);
    })

    .post('/logout', async (c) => {
      const scope = c.req.query('scope') ?? 'global';
      if (!(LOGOUT_SCOPES as readonly string[]).includes(scope)) throw errors.validation(`Unsupported logout scope "${scope}"`);
      const { user, session } = await authenticate(deps, c);
      await endSessions(deps.db, user.row.id, scope as (typeof LOGOUT_SCOPES)[number], session.id);
      return c.body(null, 204);
    });
}
