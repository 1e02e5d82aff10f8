import { eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { fastVerifiedClaims } from '#bff/auth/access-token.ts';
import { type AuthConnection, requestClient } from '#bff/auth/supabase.ts';
import { ApiError } from '#bff/http/errors.ts';

export type MemberRow = typeof members.$inferSelect;

/** Who is calling, as proven by a verified access token and the member record. */
export interface Caller {
  id: string;
  email: string;
  role: 'homme' | 'femme' | 'staff';
  aal: 'aal1' | 'aal2';
  sessionId: string;
  member: MemberRow;
}

export interface GuardDeps {
  db: Db;
  auth: AuthConnection;
}

/** The member lookup of every authenticated request, as a prepared statement (decision 060). */
const prepared = new WeakMap<Db, ReturnType<typeof prepareMemberById>>();
const prepareMemberById = (db: Db) =>
  db
    .select()
    .from(members)
    .where(eq(members.id, sql.placeholder('id')))
    .limit(1)
    .prepare('auth_member_by_id');
function memberById(db: Db) {
  let statement = prepared.get(db);
  if (!statement) {
    statement = prepareMemberById(db);
    prepared.set(db, statement);
  }
  return statement;
}

const NOT_SIGNED_IN = () => new ApiError(401, 'UNAUTHENTICATED', 'Vous devez être connecté.');

/**
 * Reads the session cookie, refreshes the tokens when they near expiry (new cookies are written
 * on the response), verifies the access token locally against the JWKS, and loads the member.
 * A disabled account is refused at once, whatever its session, and its cookies are cleared.
 * Returns null when nobody is signed in.
 */
export async function authenticate(c: Context, deps: GuardDeps): Promise<Caller | null> {
  // Fast path (decision 060): a token valid for a while yet, verified against the cached JWKS.
  const fast = await fastVerifiedClaims(c, deps.auth);
  if (fast === 'none') return null;
  let supabase: ReturnType<typeof requestClient> | undefined;
  let claims: Record<string, unknown>;
  if (fast) claims = fast as Record<string, unknown>;
  else {
    supabase = requestClient(c, deps.auth);
    const { data, error } = await supabase.auth.getClaims();
    if (error || !data?.claims) return null;
    claims = data.claims as Record<string, unknown>;
  }
  const id = typeof claims.sub === 'string' ? claims.sub : undefined;
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : undefined;
  if (!id || !sessionId) return null;
  const [member] = await memberById(deps.db).execute({ id });
  if (!member) return null;
  if (member.disabled) {
    await (supabase ?? requestClient(c, deps.auth)).auth.signOut({ scope: 'local' }).catch(() => {});
    throw new ApiError(403, 'ACCOUNT_DISABLED', 'Ce compte est désactivé. Contactez l’agence.');
  }
  return {
    id,
    email: member.email,
    role: member.role === 'staff' ? 'staff' : (member.gender as 'homme' | 'femme'),
    aal: claims.aal === 'aal2' ? 'aal2' : 'aal1',
    sessionId,
    member,
  };
}

/** A signed-in member or staff account; 401 otherwise. */
export async function requireCaller(c: Context, deps: GuardDeps): Promise<Caller> {
  const caller = await authenticate(c, deps);
  if (!caller) throw NOT_SIGNED_IN();
  return caller;
}

/** Staff at aal2 (password + TOTP); 401 when not signed in, 403 otherwise. */
export async function requireStaff(c: Context, deps: GuardDeps): Promise<Caller> {
  const caller = await requireCaller(c, deps);
  if (caller.role !== 'staff') throw new ApiError(403, 'FORBIDDEN', 'Accès réservé à l’équipe de l’agence.');
  if (caller.aal !== 'aal2') throw new ApiError(403, 'MFA_REQUIRED', 'Validez d’abord votre second facteur (code à usage unique).');
  return caller;
}
