-- Embedded auth service (a subset of Supabase Auth / GoTrue). Everything lives in its own schema
-- so that the product's tables never mix with credentials. See bff/stand-ins/auth-service/schema.ts.
CREATE SCHEMA IF NOT EXISTS embedded_auth;

-- The ES256 key that signs every JWT, created once by the first instance to start. The anon and
-- service-role keys signed with it are kept beside it so that they stay the same across restarts.
CREATE TABLE embedded_auth.signing_keys (
  slot text PRIMARY KEY CHECK (slot = 'current'),
  kid text NOT NULL UNIQUE,
  algorithm text NOT NULL CHECK (algorithm = 'ES256'),
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  anon_key text NOT NULL,
  service_role_key text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE embedded_auth.users (
  id uuid PRIMARY KEY,
  aud text NOT NULL DEFAULT 'authenticated',
  role text NOT NULL DEFAULT 'authenticated',
  email text,
  phone text,
  encrypted_password text,
  email_confirmed_at timestamptz,
  phone_confirmed_at timestamptz,
  confirmation_sent_at timestamptz,
  recovery_sent_at timestamptz,
  invited_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb NOT NULL DEFAULT '{}',
  raw_user_meta_data jsonb NOT NULL DEFAULT '{}',
  banned_until timestamptz,
  deleted_at timestamptz,
  is_anonymous boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (email IS NULL OR email = lower(email))
);
CREATE UNIQUE INDEX users_email_key ON embedded_auth.users (email) WHERE email IS NOT NULL;
CREATE INDEX users_created_at_idx ON embedded_auth.users (created_at DESC, id DESC);

CREATE TABLE embedded_auth.identities (
  id uuid PRIMARY KEY,
  provider_id text NOT NULL,
  user_id uuid NOT NULL REFERENCES embedded_auth.users (id) ON DELETE CASCADE,
  identity_data jsonb NOT NULL,
  provider text NOT NULL,
  email text,
  last_sign_in_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (provider_id, provider)
);
CREATE INDEX identities_user_idx ON embedded_auth.identities (user_id);

-- `aal` is derived from `amr` (aal2 when it holds a second-factor method), kept for queries.
CREATE TABLE embedded_auth.sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES embedded_auth.users (id) ON DELETE CASCADE,
  aal text NOT NULL DEFAULT 'aal1' CHECK (aal IN ('aal1', 'aal2')),
  factor_id uuid,
  amr jsonb NOT NULL DEFAULT '[]',
  not_after timestamptz,
  refreshed_at timestamptz,
  user_agent text,
  ip text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON embedded_auth.sessions (user_id);

-- Only the SHA-256 of each opaque refresh token is stored. `parent` is the parent's hash.
CREATE TABLE embedded_auth.refresh_tokens (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES embedded_auth.users (id) ON DELETE CASCADE,
  session_id uuid NOT NULL REFERENCES embedded_auth.sessions (id) ON DELETE CASCADE,
  parent text,
  revoked boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX refresh_tokens_session_idx ON embedded_auth.refresh_tokens (session_id, id);

CREATE TABLE embedded_auth.mfa_factors (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES embedded_auth.users (id) ON DELETE CASCADE,
  friendly_name text NOT NULL DEFAULT '',
  factor_type text NOT NULL CHECK (factor_type IN ('totp')),
  status text NOT NULL CHECK (status IN ('unverified', 'verified')),
  secret text NOT NULL,
  last_challenged_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX mfa_factors_user_idx ON embedded_auth.mfa_factors (user_id);

CREATE TABLE embedded_auth.mfa_challenges (
  id uuid PRIMARY KEY,
  factor_id uuid NOT NULL REFERENCES embedded_auth.mfa_factors (id) ON DELETE CASCADE,
  ip_address text NOT NULL,
  verified_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX mfa_challenges_factor_idx ON embedded_auth.mfa_challenges (factor_id);

-- PKCE: the code challenge of a flow started by /recover (or /signup) and, once the e-mail link
-- was followed, the auth code that /token?grant_type=pkce exchanges for a session.
CREATE TABLE embedded_auth.flow_state (
  id uuid PRIMARY KEY,
  user_id uuid REFERENCES embedded_auth.users (id) ON DELETE CASCADE,
  code_challenge text NOT NULL,
  code_challenge_method text NOT NULL CHECK (code_challenge_method IN ('s256', 'plain')),
  authentication_method text NOT NULL,
  auth_code text UNIQUE,
  auth_code_issued_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- E-mail one-time tokens: `token_hash` = sha224(email + otp) in hex, one per user and type.
CREATE TABLE embedded_auth.one_time_tokens (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES embedded_auth.users (id) ON DELETE CASCADE,
  token_type text NOT NULL CHECK (token_type IN ('confirmation_token', 'recovery_token')),
  token_hash text NOT NULL,
  relates_to text NOT NULL,
  flow_state_id uuid REFERENCES embedded_auth.flow_state (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, token_type)
);
CREATE INDEX one_time_tokens_hash_idx ON embedded_auth.one_time_tokens (token_hash);

-- When a mail was last requested for an address, known or not: the 60 s repeat limit holds for
-- every address alike, so that it tells nothing about which ones have an account.
CREATE TABLE embedded_auth.mail_requests (
  address text NOT NULL,
  kind text NOT NULL,
  last_requested_at timestamptz NOT NULL,
  PRIMARY KEY (address, kind)
);
