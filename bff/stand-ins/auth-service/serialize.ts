import type { FactorRow, IdentityRow, UserRow } from '#bff/stand-ins/auth-service/store/schema.ts';

/** A user with what its JSON embeds. */
export interface UserRecord {
  row: UserRow;
  identities: IdentityRow[];
  factors: FactorRow[];
}

export type WireUser = Record<string, unknown>;

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : undefined);

/** Keeps the keys whose value is defined (GoTrue's `omitempty`). */
function compact(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}

export function serializeFactor(factor: FactorRow): Record<string, unknown> {
  return compact({
    id: factor.id,
    friendly_name: factor.friendlyName || undefined,
    factor_type: factor.factorType,
    status: factor.status,
    created_at: iso(factor.createdAt),
    updated_at: iso(factor.updatedAt),
    phone: '',
    last_challenged_at: iso(factor.lastChallengedAt) ?? null,
  });
}

function serializeIdentity(identity: IdentityRow): Record<string, unknown> {
  return compact({
    identity_id: identity.id,
    id: identity.providerId,
    user_id: identity.userId,
    identity_data: identity.identityData,
    provider: identity.provider,
    last_sign_in_at: iso(identity.lastSignInAt),
    created_at: iso(identity.createdAt),
    updated_at: iso(identity.updatedAt),
    email: identity.email ?? undefined,
  });
}

/**
 * The User of GoTrue (models/user.go): `email` and `phone` always present ("" when unset),
 * timestamps only when set, `factors` only when there are some.
 */
export function serializeUser({ row, identities, factors }: UserRecord): WireUser {
  const confirmedAt = [row.emailConfirmedAt, row.phoneConfirmedAt]
    .filter((d): d is Date => d !== null)
    .sort((a, b) => a.getTime() - b.getTime())[0];
  return compact({
    id: row.id,
    aud: row.aud,
    role: row.role,
    email: row.email ?? '',
    email_confirmed_at: iso(row.emailConfirmedAt),
    phone: row.phone ?? '',
    phone_confirmed_at: iso(row.phoneConfirmedAt),
    confirmation_sent_at: iso(row.confirmationSentAt),
    confirmed_at: iso(confirmedAt),
    recovery_sent_at: iso(row.recoverySentAt),
    new_email: row.emailChange ?? undefined,
    email_change_sent_at: iso(row.emailChangeSentAt),
    reauthentication_sent_at: iso(row.reauthenticationSentAt),
    invited_at: iso(row.invitedAt),
    last_sign_in_at: iso(row.lastSignInAt),
    app_metadata: row.appMetadata,
    user_metadata: row.userMetadata,
    factors: factors.length > 0 ? factors.map(serializeFactor) : undefined,
    identities: identities.map(serializeIdentity),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    banned_until: iso(row.bannedUntil),
    deleted_at: iso(row.deletedAt),
    is_anonymous: row.isAnonymous,
  });
}

/** `{...old, ...patch}` where a `null` in the patch deletes that key (models/user.go). */
export function mergeMetadata(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}
