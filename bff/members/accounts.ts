import type { StaffRole } from '#machines/staff/roles.ts';
import type { AdminUserAttributes, SupabaseClient } from '@supabase/supabase-js';
import type { Db } from '#bff/db/database.ts';
import { createMember } from '#bff/members/members.ts';
import { insertMemberRow, memberIdByEmail, memberIdById } from '#bff/members/store/members.ts';
import type { Gender } from '#machines/onboarding/record.ts';

/**
 * Creates an auth user and its member row, or finds them when the email is already known. Used by
 * the demo seed and by the staff command; sign-up goes through the API instead.
 *
 * An auth user without a member row (a start stopped between the two writes, or a sign-up made
 * straight on the auth service's public `/signup`) is deleted and created again: adopting it would
 * keep a password, sessions and factors that nobody here chose, on what may become a staff account.
 */
export async function ensureAccount(
  admin: SupabaseClient,
  db: Db,
  input: { email: string; password: string; kind: Gender | 'staff'; name?: string; staffRole?: StaffRole },
): Promise<{ id: string; created: boolean }> {
  const existing = await memberIdByEmail(db, input.email);
  if (existing) return { id: existing.id, created: false };
  const { data, error } = await createAuthUser(admin, db, {
    email: input.email,
    password: input.password,
    email_confirm: true,
    app_metadata: { role: input.kind },
    user_metadata: input.kind === 'staff' ? { name: input.name ?? input.email } : { gender: input.kind },
  });
  const user = data.user;
  if (!user) throw new Error(`Création du compte ${input.email} impossible : ${error?.message ?? 'réponse vide'}`);
  if (input.kind === 'staff') {
    await insertMemberRow(db, {
      id: user.id,
      email: input.email,
      gender: 'staff',
      role: 'staff',
      // `npm run staff:create` makes the agency's first accounts: administrators (decision 206).
      staffRole: input.staffRole ?? 'administration',
      onboarding: { staff: true, name: input.name ?? input.email },
    });
  } else {
    await createMember(db, { id: user.id, email: input.email, gender: input.kind });
  }
  return { id: user.id, created: true };
}

/**
 * Creates an auth user through the admin API. When the address is taken by an auth user that has
 * no member row — a registration waiting for its confirmation (decision 187), a start or a
 * registration stopped between two writes, an account made before public sign-up was closed —
 * that user is deleted and the creation tried once more: an auth user nobody confirmed never
 * blocks the address's owner (issue 19, issue 60). An address whose auth user has its member row
 * still answers `email_exists`, and so does a pending staff invitation (an invited user: the
 * address is reserved for the colleague, decision 187).
 */
export async function createAuthUser(admin: SupabaseClient, db: Db, attributes: AdminUserAttributes & { email: string }) {
  const first = await admin.auth.admin.createUser(attributes);
  if (first.error?.code !== 'email_exists') return first;
  const orphan = await authUserByEmail(admin, attributes.email);
  if (!orphan || orphan.invited_at) return first;
  const member = await memberIdById(db, orphan.id);
  if (member) return first;
  const deleted = await admin.auth.admin.deleteUser(orphan.id);
  return deleted.error ? first : admin.auth.admin.createUser(attributes);
}

/** The auth user with this address, through the admin list (paged; supabase-js has no lookup by e-mail). */
async function authUserByEmail(admin: SupabaseClient, email: string) {
  const wanted = email.toLowerCase();
  for (let page = 1; ; page += 1) {
    const { data, error } = await admin.auth.admin.listUsers({ page, perPage: 1000 });
    if (error) return undefined;
    const found = data.users.find((user) => user.email?.toLowerCase() === wanted);
    if (found || data.users.length < 1000) return found;
  }
}
