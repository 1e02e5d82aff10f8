-- Members' data rights and the agency's records (issue 7, docs/decisions/070-data-rights.md).

-- Consents as records (GDPR art. 7(1)): who (member or anonymous id), what (kind, version and the
-- SHA-256 of the exact text shown, machines/privacy/consent-texts.ts), given or withdrawn, when.
-- Rows are never updated except by the audited erasure, which unlinks them from the member.
CREATE TABLE consents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  member_id uuid REFERENCES members (id) ON DELETE SET NULL,
  anonymous_id uuid,
  kind text NOT NULL CHECK (kind IN ('privacy_policy', 'sensitive_data', 'contract_terms', 'early_start', 'cookies')),
  version text NOT NULL CHECK (length(version) BETWEEN 1 AND 32),
  text_hash text NOT NULL CHECK (text_hash ~ '^[0-9a-f]{64}$'),
  given boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (member_id IS NOT NULL OR anonymous_id IS NOT NULL)
);
CREATE INDEX consents_member_idx ON consents (member_id, created_at);
CREATE INDEX consents_anonymous_idx ON consents (anonymous_id, created_at);

-- Withdrawing the sensitive-data consent pauses matchmaking; erasure anonymises the row.
ALTER TABLE members ADD COLUMN matchmaking_paused_at timestamptz;
ALTER TABLE members ADD COLUMN erased_at timestamptz;

-- The contract PDF as signed (`sub_date`): the member's copy (L224-90), downloadable again.
CREATE TABLE contract_copies (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  signed_at timestamptz NOT NULL,
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  pdf bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contract_copies_member_idx ON contract_copies (member_id, signed_at DESC);

-- What the agency must keep after an erasure, minimal and apart from the member's data, each
-- with its legal basis and the date until which it is kept. `member_id` is the pseudonymous id
-- of the anonymised members row; no name, e-mail or phone in any text column (the contract
-- document itself, which by law names the parties, is the `document` bytes, restricted access).
CREATE TABLE legal_records (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  member_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('contract', 'payment')),
  legal_basis text NOT NULL,
  reference text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  document bytea,
  occurred_at timestamptz NOT NULL,
  retain_until timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX legal_records_member_idx ON legal_records (member_id);
CREATE INDEX legal_records_retain_idx ON legal_records (retain_until);

-- Audit of every erasure: which member, who asked, when, and how many rows each step touched.
CREATE TABLE erasure_log (
  id bigserial PRIMARY KEY,
  member_id uuid NOT NULL,
  requested_by text NOT NULL CHECK (requested_by IN ('member', 'staff', 'retention')),
  summary jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The onboarding event log stays append-only, with one controlled exception: the erasure of a
-- member may replace the payloads of that member's events, and nothing else, only inside a
-- transaction that declared it with `SELECT set_config('app.erasure_member', '<member id>', true)`
-- (bff/privacy/erasure.ts, which also writes the erasure_log row in the same transaction).
CREATE OR REPLACE FUNCTION onboarding_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND coalesce(current_setting('app.erasure_member', true), '') = OLD.member_id::text
     AND NEW.id = OLD.id AND NEW.member_id = OLD.member_id AND NEW.context = OLD.context
     AND NEW.event = OLD.event AND NEW.from_state = OLD.from_state AND NEW.to_state = OLD.to_state
     AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id AND NEW.actor_role = OLD.actor_role
     AND NEW.version = OLD.version AND NEW.created_at = OLD.created_at
     AND NEW.payload ? 'erased' THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'onboarding_events is append-only';
END;
$$;
