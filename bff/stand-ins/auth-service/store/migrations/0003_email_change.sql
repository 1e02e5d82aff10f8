-- Secure e-mail change and re-authentication (issue 19, decision 102). `PUT /user {email}` no
-- longer changes the address: it records the new one in `email_change` and mails a one-time
-- token to it (`email_change_token_new`); the address changes when that token is verified.
-- `GET /reauthenticate` mails a code (`reauthentication_token`) that `PUT /user` accepts as the
-- `nonce` proving a password or address change.
ALTER TABLE embedded_auth.users
  ADD COLUMN IF NOT EXISTS email_change text,
  ADD COLUMN IF NOT EXISTS email_change_sent_at timestamptz,
  ADD COLUMN IF NOT EXISTS reauthentication_sent_at timestamptz;

ALTER TABLE embedded_auth.users DROP CONSTRAINT IF EXISTS users_email_change_lower;
ALTER TABLE embedded_auth.users ADD CONSTRAINT users_email_change_lower CHECK (email_change IS NULL OR email_change = lower(email_change));

ALTER TABLE embedded_auth.one_time_tokens DROP CONSTRAINT IF EXISTS one_time_tokens_token_type_check;
ALTER TABLE embedded_auth.one_time_tokens ADD CONSTRAINT one_time_tokens_token_type_check
  CHECK (token_type IN ('confirmation_token', 'recovery_token', 'email_change_token_new', 'reauthentication_token'));
