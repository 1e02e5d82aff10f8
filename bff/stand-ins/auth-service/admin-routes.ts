import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { AuthDeps, Executor } from '#bff/stand-ins/auth-service/deps.ts';
import { type EmailVerifyType, issueEmailToken } from '#bff/stand-ins/auth-service/email-links.ts';
import { AuthApiError, errors } from '#bff/stand-ins/auth-service/errors.ts';
import { parseGoDuration } from '#bff/stand-ins/auth-service/go-duration.ts';
import { requireAdmin } from '#bff/stand-ins/auth-service/guards.ts';
import {
  assertAcceptablePassword,
  hashPassword,
  isSupportedPasswordHash,
  MAX_PASSWORD_LENGTH,
} from '#bff/stand-ins/auth-service/passwords.ts';
import { allowedRedirect, optionalObject, optionalString, readBody } from '#bff/stand-ins/auth-service/request.ts';
import { mergeMetadata, serializeUser } from '#bff/stand-ins/auth-service/serialize.ts';
import { endSessions } from '#bff/stand-ins/auth-service/sessions.ts';
import {
  deleteUser,
  findUserByEmail,
  findUserById,
  insertUser,
  isUuid,
  normalizeEmail,
  recordOf,
  syncEmailIdentity,
  type UserRow,
  updateUserAddress,
  usersPage,
} from '#bff/stand-ins/auth-service/users.ts';

const AdminUserBody = v.object({
  id: optionalString,
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  password_hash: optionalString,
  email_confirm: v.nullish(v.boolean()),
  phone_confirm: v.nullish(v.boolean()),
  user_metadata: optionalObject,
  app_metadata: optionalObject,
  role: optionalString,
  ban_duration: optionalString,
});
type AdminUserInput = v.InferOutput<typeof AdminUserBody>;

const DeleteUserBody = v.object({ should_soft_delete: v.nullish(v.boolean()) });

const GenerateLinkBody = v.object({
  type: optionalString,
  email: optionalString,
  password: optionalString,
  data: optionalObject,
  new_email: optionalString,
  redirect_to: optionalString,
});

const DEFAULT_PER_PAGE = 50;

/** `ban_duration`: a Go duration from now, or "none" to lift the ban. */
function bannedUntil(raw: string, now: Date): Date | null {
  if (raw === 'none') return null;
  const ms = parseGoDuration(raw);
  if (ms === undefined) throw errors.validation(`invalid format for ban duration: time: invalid duration "${raw}"`);
  return new Date(now.getTime() + ms);
}

async function newPasswordHash(input: AdminUserInput, checkStrength: boolean): Promise<string | undefined> {
  if (input.password_hash) {
    if (!isSupportedPasswordHash(input.password_hash))
      throw errors.validation('Invalid password hash format: only argon2 hashes are supported');
    return input.password_hash;
  }
  if (input.password === undefined || input.password === null) return undefined;
  if (checkStrength) assertAcceptablePassword(input.password);
  else if ([...input.password].length > MAX_PASSWORD_LENGTH) {
    throw errors.validation(`Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters`);
  }
  return hashPassword(input.password);
}

function pageParameter(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw errors.validation('Bad Pagination Parameters');
  return Number(raw);
}

/** GoTrue's addPaginationHeaders: `<url?page=n+1…>; rel="next", <url?page=last…>; rel="last"`. */
function paginationLink(c: Context, page: number, perPage: number, total: number): string {
  const url = new URL(c.req.url);
  const withPage = (n: number) => {
    const query = new URLSearchParams(url.searchParams);
    query.set('page', String(n));
    query.sort();
    return `<${url.pathname}?${query.toString()}>`;
  };
  const parts: string[] = [];
  if (total > page * perPage) parts.push(`${withPage(page + 1)}; rel="next"`);
  parts.push(`${withPage(Math.ceil(total / perPage))}; rel="last"`);
  return parts.join(', ');
}

async function userOr404(exec: Executor, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw new AuthApiError(404, 'validation_failed', 'user_id must be an UUID');
  const user = await findUserById(exec, id);
  if (!user) throw errors.userNotFound();
  return user;
}

/** The admin API (service-role key only): users and generated links. */
export function adminRoutes(deps: AuthDeps) {
  const app = new Hono();
  app.use('/admin/*', async (c, next) => {
    await requireAdmin(deps, c);
    await next();
  });

  return app
    .get('/admin/users', async (c) => {
      const page = pageParameter(c.req.query('page'), 1);
      const perPage = pageParameter(c.req.query('per_page'), DEFAULT_PER_PAGE);
      const { total, records } = await usersPage(deps.db, page, perPage);
      const list = records.map(serializeUser);
      c.header('X-Total-Count', String(total));
      c.header('Link', paginationLink(c, page, perPage, total));
      return c.json({ users: list, aud: 'authenticated' }, 200);
    })

    .post('/admin/users', async (c) => {
      const body = await readBody(c, AdminUserBody);
      if (body.phone) throw errors.validation('Phone users are not supported');
      if (!body.email) throw errors.validation('An email address is required');
      const email = normalizeEmail(body.email);
      if (body.id && !isUuid(body.id)) throw errors.validation('id must be a valid UUID');
      const passwordHash = await newPasswordHash(body, false);
      const record = await deps.db.transaction(async (tx) => {
        const now = deps.clock.now();
        if (await findUserByEmail(tx, email)) throw errors.emailExists();
        if (body.id && (await findUserById(tx, body.id))) throw new AuthApiError(422, 'user_already_exists', 'User already exists');
        const row = await insertUser(tx, now, {
          id: body.id ?? undefined,
          email,
          passwordHash: passwordHash ?? null,
          emailConfirmed: body.email_confirm === true,
          role: body.role || undefined,
          userMetadata: body.user_metadata ?? {},
          appMetadata: body.app_metadata ?? {},
          bannedUntil: body.ban_duration ? bannedUntil(body.ban_duration, now) : null,
        });
        return recordOf(tx, row);
      });
      return c.json(serializeUser(record), 200);
    })

    .get('/admin/users/:id', async (c) => {
      const user = await userOr404(deps.db, c.req.param('id'));
      return c.json(serializeUser(await recordOf(deps.db, user)), 200);
    })

    .put('/admin/users/:id', async (c) => {
      const id = c.req.param('id');
      await userOr404(deps.db, id);
      const body = await readBody(c, AdminUserBody);
      if (body.phone) throw errors.validation('Phone users are not supported');
      const email = body.email ? normalizeEmail(body.email) : undefined;
      const passwordHash = await newPasswordHash(body, true);
      const record = await deps.db.transaction(async (tx) => {
        const now = deps.clock.now();
        const current = await userOr404(tx, id);
        const patch: Partial<UserRow> = { updatedAt: now };
        if (email && email !== current.email) {
          const holder = await findUserByEmail(tx, email);
          if (holder && holder.id !== current.id) throw errors.emailExists();
          patch.email = email;
        }
        if (body.email_confirm === true && !current.emailConfirmedAt) patch.emailConfirmedAt = now;
        if (passwordHash) patch.encryptedPassword = passwordHash;
        if (body.user_metadata) patch.userMetadata = mergeMetadata(current.userMetadata, body.user_metadata);
        if (body.app_metadata) patch.appMetadata = mergeMetadata(current.appMetadata, body.app_metadata);
        if (body.role) patch.role = body.role;
        if (body.ban_duration) patch.bannedUntil = bannedUntil(body.ban_duration, now);
        const updated = await updateUserAddress(tx, id, patch);
        if (!updated) throw errors.userNotFound();
        if (patch.email || patch.emailConfirmedAt) await syncEmailIdentity(tx, updated, now);
        // An admin password change ends every session of the user (models/user.go).
        if (passwordHash) await endSessions(tx, id, 'global', '');
        return recordOf(tx, updated);
      });
      return c.json(serializeUser(record), 200);
    })

    .delete('/admin/users/:id', async (c) => {
      const id = c.req.param('id');
      await userOr404(deps.db, id);
      const body = await readBody(c, DeleteUserBody);
      await deps.db.transaction(async (tx) => {
        if (!body.should_soft_delete) {
          await deleteUser(tx, id, null);
          return;
        }
        // Soft delete keeps the row (deleted_at) but nothing that identifies or signs in.
        await deleteUser(tx, id, deps.clock.now());
      });
      return c.json({}, 200);
    })

    .post('/admin/generate_link', async (c) => {
      const body = await readBody(c, GenerateLinkBody);
      const type = body.type ?? '';
      if (!['signup', 'invite', 'magiclink', 'recovery'].includes(type)) {
        throw errors.validation(`Invalid email action link type requested: ${type}`);
      }
      if (!body.email) throw errors.validation('Email is required', 422);
      const email = normalizeEmail(body.email);
      const redirectTo = allowedRedirect(c.req.query('redirect_to') ?? body.redirect_to ?? undefined, deps.config) ?? deps.config.siteUrl;
      if (type === 'signup') {
        if (!body.password) throw errors.validation('Password is required for signup', 422);
        assertAcceptablePassword(body.password);
      }
      // Hashed only when the user is to be made: a link for one waiting for its confirmation keeps its password.
      const existing = await findUserByEmail(deps.db, email);
      const passwordHash = type === 'signup' && !existing && body.password ? await hashPassword(body.password) : undefined;
      const result = await deps.db.transaction(async (tx) => {
        const now = deps.clock.now();
        let user = await findUserByEmail(tx, email);
        if (type === 'signup' || type === 'invite') {
          if (user?.emailConfirmedAt) throw errors.emailExists();
          user ??= await insertUser(tx, now, {
            email,
            // (made meanwhile by another request: hashed here after all)
            passwordHash: passwordHash ?? (type === 'signup' && body.password ? await hashPassword(body.password) : null),
            emailConfirmed: false,
            userMetadata: body.data ?? {},
            invitedAt: type === 'invite' ? now : null,
          });
        }
        if (!user) throw new AuthApiError(404, 'user_not_found', 'User with this email not found');
        const { otp, tokenHash } = await issueEmailToken(tx, { user, type: type as EmailVerifyType, now, hashKey: deps.key.tokenHashKey });
        const fresh = (await findUserById(tx, user.id)) ?? user;
        return { record: await recordOf(tx, fresh), otp, tokenHash };
      });
      const link = new URL(`${deps.config.apiUrl}/verify`);
      link.searchParams.set('token', result.tokenHash);
      link.searchParams.set('type', type);
      link.searchParams.set('redirect_to', redirectTo);
      return c.json(
        {
          ...serializeUser(result.record),
          action_link: link.toString(),
          email_otp: result.otp,
          hashed_token: result.tokenHash,
          verification_type: type,
          redirect_to: redirectTo,
        },
        200,
      );
    });
}
