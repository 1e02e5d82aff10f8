-- Nothing is asked twice (issue 21, decision 127). The pre-registration's confirmation mail
-- carries a link to the sign-up with an opaque token; only its SHA-256 is stored here. Creating
-- the account with it links the pre-registration to the member (`member_id`) and spends the token
-- (hash set to null). The leads inbox counts a linked pre-registration as converted.
ALTER TABLE pre_subscriptions
  ADD COLUMN signup_token_hash text,
  ADD COLUMN signup_token_expires_at timestamptz,
  ADD COLUMN member_id uuid REFERENCES members (id) ON DELETE SET NULL,
  ADD COLUMN converted_at timestamptz;
CREATE UNIQUE INDEX pre_subscriptions_signup_token ON pre_subscriptions (signup_token_hash) WHERE signup_token_hash IS NOT NULL;
CREATE INDEX pre_subscriptions_member ON pre_subscriptions (member_id) WHERE member_id IS NOT NULL;
