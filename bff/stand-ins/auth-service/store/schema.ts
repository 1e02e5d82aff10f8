// The embedded auth service's tables (schema `embedded_auth`), as drizzle sees them.
import { bigserial, boolean, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Tables of the embedded auth service, all in the `embedded_auth` schema. The SQL in
 * `migrations/` is the source of truth; `units.test.ts` checks that both agree.
 */
export const embeddedAuth = pgSchema('embedded_auth');

const at = (name: string) => timestamp(name, { withTimezone: true });

/** One `{method, timestamp, provider?}` entry of a session's authentication methods. */
export interface AmrEntry {
  method: string;
  timestamp: number;
  provider?: string;
}

export const signingKeys = embeddedAuth.table('signing_keys', {
  slot: text('slot').primaryKey(),
  kid: text('kid').notNull(),
  algorithm: text('algorithm').notNull(),
  privateJwk: jsonb('private_jwk').$type<Record<string, unknown>>().notNull(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  anonKey: text('anon_key').notNull(),
  serviceRoleKey: text('service_role_key').notNull(),
  createdAt: at('created_at').notNull(),
});

export const users = embeddedAuth.table('users', {
  id: uuid('id').primaryKey(),
  aud: text('aud').notNull().default('authenticated'),
  role: text('role').notNull().default('authenticated'),
  email: text('email'),
  phone: text('phone'),
  encryptedPassword: text('encrypted_password'),
  emailConfirmedAt: at('email_confirmed_at'),
  phoneConfirmedAt: at('phone_confirmed_at'),
  confirmationSentAt: at('confirmation_sent_at'),
  recoverySentAt: at('recovery_sent_at'),
  /** The address an e-mail change waits to apply, until it is confirmed from that address. */
  emailChange: text('email_change'),
  emailChangeSentAt: at('email_change_sent_at'),
  reauthenticationSentAt: at('reauthentication_sent_at'),
  invitedAt: at('invited_at'),
  lastSignInAt: at('last_sign_in_at'),
  appMetadata: jsonb('raw_app_meta_data').$type<Record<string, unknown>>().notNull().default({}),
  userMetadata: jsonb('raw_user_meta_data').$type<Record<string, unknown>>().notNull().default({}),
  bannedUntil: at('banned_until'),
  deletedAt: at('deleted_at'),
  isAnonymous: boolean('is_anonymous').notNull().default(false),
  createdAt: at('created_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});
export type UserRow = typeof users.$inferSelect;

export const identities = embeddedAuth.table('identities', {
  id: uuid('id').primaryKey(),
  providerId: text('provider_id').notNull(),
  userId: uuid('user_id').notNull(),
  identityData: jsonb('identity_data').$type<Record<string, unknown>>().notNull(),
  provider: text('provider').notNull(),
  email: text('email'),
  lastSignInAt: at('last_sign_in_at'),
  createdAt: at('created_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});
export type IdentityRow = typeof identities.$inferSelect;

export const sessions = embeddedAuth.table('sessions', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  aal: text('aal').$type<'aal1' | 'aal2'>().notNull().default('aal1'),
  factorId: uuid('factor_id'),
  amr: jsonb('amr').$type<AmrEntry[]>().notNull().default([]),
  notAfter: at('not_after'),
  refreshedAt: at('refreshed_at'),
  userAgent: text('user_agent'),
  ip: text('ip'),
  createdAt: at('created_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});
export type SessionRow = typeof sessions.$inferSelect;

export const refreshTokens = embeddedAuth.table('refresh_tokens', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tokenHash: text('token_hash').notNull(),
  userId: uuid('user_id').notNull(),
  sessionId: uuid('session_id').notNull(),
  parent: text('parent'),
  revoked: boolean('revoked').notNull().default(false),
  createdAt: at('created_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

export const mfaFactors = embeddedAuth.table('mfa_factors', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  friendlyName: text('friendly_name').notNull().default(''),
  factorType: text('factor_type').$type<'totp'>().notNull(),
  status: text('status').$type<'unverified' | 'verified'>().notNull(),
  secret: text('secret').notNull(),
  lastChallengedAt: at('last_challenged_at'),
  createdAt: at('created_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});
export type FactorRow = typeof mfaFactors.$inferSelect;

export const mfaChallenges = embeddedAuth.table('mfa_challenges', {
  id: uuid('id').primaryKey(),
  factorId: uuid('factor_id').notNull(),
  ipAddress: text('ip_address').notNull(),
  verifiedAt: at('verified_at'),
  createdAt: at('created_at').notNull(),
});

export const flowState = embeddedAuth.table('flow_state', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id'),
  codeChallenge: text('code_challenge').notNull(),
  codeChallengeMethod: text('code_challenge_method').$type<'s256' | 'plain'>().notNull(),
  authenticationMethod: text('authentication_method').notNull(),
  authCode: text('auth_code'),
  authCodeIssuedAt: at('auth_code_issued_at'),
  createdAt: at('created_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});

export type OneTimeTokenType = 'confirmation_token' | 'recovery_token' | 'email_change_token_new' | 'reauthentication_token';

export const oneTimeTokens = embeddedAuth.table('one_time_tokens', {
  id: uuid('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  tokenType: text('token_type').$type<OneTimeTokenType>().notNull(),
  tokenHash: text('token_hash').notNull(),
  relatesTo: text('relates_to').notNull(),
  flowStateId: uuid('flow_state_id'),
  createdAt: at('created_at').notNull(),
});

export const mailRequests = embeddedAuth.table('mail_requests', {
  address: text('address').notNull(),
  kind: text('kind').notNull(),
  lastRequestedAt: at('last_requested_at').notNull(),
});
