-- Core product tables. Applied once, in order, by bff/db/migrate.ts.
CREATE TABLE members (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  gender text NOT NULL CHECK (gender IN ('homme', 'femme', 'staff')),
  role text NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'staff')),
  onboarding jsonb NOT NULL,
  profile jsonb,
  questionnaire jsonb,
  contract jsonb,
  disabled boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX members_email_key ON members (lower(email));

CREATE TABLE onboarding_events (
  id bigserial PRIMARY KEY,
  member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  context text NOT NULL,
  event text NOT NULL,
  payload jsonb NOT NULL,
  from_state text NOT NULL,
  to_state text NOT NULL,
  actor_id uuid,
  actor_role text NOT NULL,
  version integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (member_id, version)
);
CREATE INDEX onboarding_events_member_idx ON onboarding_events (member_id, id);

-- The event log is append-only.
CREATE FUNCTION onboarding_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'onboarding_events is append-only';
END;
$$;
CREATE TRIGGER onboarding_events_no_update BEFORE UPDATE ON onboarding_events
  FOR EACH ROW EXECUTE FUNCTION onboarding_events_append_only();

CREATE TABLE pre_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  gender text NOT NULL CHECK (gender IN ('homme', 'femme')),
  email text NOT NULL,
  age smallint NOT NULL CHECK (age BETWEEN 18 AND 99),
  zip_code text NOT NULL,
  city text NOT NULL,
  consent_version text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE mail_outbox (
  id bigserial PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  kind text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  -- Lease of the instance sending it; an expired lease makes the mail pending again.
  claimed_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX mail_outbox_pending_idx ON mail_outbox (id) WHERE status IN ('pending', 'sending');

CREATE TABLE mailbox (
  id bigserial PRIMARY KEY,
  from_address text NOT NULL,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  raw text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- rate-limiter-flexible's Drizzle store: shared by every instance using this database.
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire timestamptz
);
