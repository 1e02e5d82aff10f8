-- The lines the monthly schedules still expect, stored (issue 64, decision 213), and the member
-- search served by trigram indexes.
--
-- One row per instalment of a member's current schedule not paid (to come, failed, cancelled),
-- written by the server from the schedule's arithmetic (bff/payments/expected-instalments.ts) in the
-- transaction of every event that fixes it: an instalment paid or failed, a refund, a payment, a
-- stop (withdrawal, renunciation, termination), a new contract. `status` is the line's status with
-- time taken out; from `ends_at` (the contract's stop or term) on, every unpaid line is cancelled:
-- the billing view's status at `now` is a SQL expression over these columns.
CREATE TABLE expected_instalments (
  member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  number integer NOT NULL,
  subscription_id text NOT NULL,
  plan_id text NOT NULL,
  of integer NOT NULL,
  due_at timestamptz NOT NULL,
  amount_cents integer NOT NULL,
  status text NOT NULL CHECK (status IN ('a-venir', 'echouee', 'annulee')),
  ends_at timestamptz,
  PRIMARY KEY (member_id, number)
);
CREATE INDEX expected_instalments_due_at ON expected_instalments (due_at);

-- Never a false line: any write to what a schedule is made of marks the member (a generation, so
-- that a recomputation that read before a concurrent write never clears the newer mark). The
-- server recomputes the marked members before the billing view reads the lines, and at start-up
-- (the backfill of the existing rows: every member with a subscription, below).
CREATE TABLE expected_instalments_stale (
  member_id uuid PRIMARY KEY,
  generation bigint NOT NULL DEFAULT 1
);

CREATE FUNCTION expected_instalments_mark(member uuid) RETURNS void LANGUAGE sql AS $$
  INSERT INTO expected_instalments_stale AS s (member_id) VALUES (member)
  ON CONFLICT (member_id) DO UPDATE SET generation = s.generation + 1
$$;

CREATE FUNCTION expected_instalments_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'members' THEN
    IF NEW.onboarding IS NOT DISTINCT FROM OLD.onboarding AND NEW.role IS NOT DISTINCT FROM OLD.role THEN RETURN NULL; END IF;
    -- Only a member who has, or had, a subscription has a schedule.
    IF EXISTS (SELECT 1 FROM checkout_sessions c WHERE c.member_id = NEW.id AND c.subscription_id IS NOT NULL) THEN
      PERFORM expected_instalments_mark(NEW.id);
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.member_id IS NOT NULL THEN PERFORM expected_instalments_mark(OLD.member_id); END IF;
  IF TG_OP <> 'DELETE' AND NEW.member_id IS NOT NULL THEN PERFORM expected_instalments_mark(NEW.member_id); END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER expected_instalments_follow AFTER UPDATE OF onboarding, role ON members
  FOR EACH ROW EXECUTE FUNCTION expected_instalments_follow();
-- Only the columns a schedule reads (not, say, the subscription's cancellation at the provider).
CREATE TRIGGER expected_instalments_follow
  AFTER INSERT OR DELETE OR UPDATE OF member_id, offer_id, subscription_id, consumed_at, contract_id, created_at ON checkout_sessions
  FOR EACH ROW EXECUTE FUNCTION expected_instalments_follow();
CREATE TRIGGER expected_instalments_follow
  AFTER INSERT OR DELETE OR UPDATE OF member_id, subscription_id, provider_invoice_id, number, status, amount_cents, paid_at, failed_at,
    updated_at, outside_contract ON instalments
  FOR EACH ROW EXECUTE FUNCTION expected_instalments_follow();
CREATE TRIGGER expected_instalments_follow
  AFTER INSERT OR DELETE OR UPDATE OF member_id, contract_id, checkout_session_id, amount_cents, status ON refunds
  FOR EACH ROW EXECUTE FUNCTION expected_instalments_follow();
CREATE TRIGGER expected_instalments_follow AFTER INSERT OR DELETE OR UPDATE OF member_id, signed_at, stopped_at ON contracts
  FOR EACH ROW EXECUTE FUNCTION expected_instalments_follow();

INSERT INTO expected_instalments_stale (member_id)
SELECT DISTINCT member_id FROM checkout_sessions WHERE subscription_id IS NOT NULL AND member_id IS NOT NULL;

-- The member list's search (bff/api/dashboard-routes.ts: `LIKE '%…%'` on the e-mail and on the
-- names either way round) served by trigram indexes on those very expressions. PostgreSQL ships
-- pg_trgm (trusted: the database's owner may create it); PGlite loads it where it is opened
-- (bff/db/database.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX members_search_email ON members USING gin (lower(email) gin_trgm_ops);
CREATE INDEX members_search_first_last ON members USING gin (
  lower(coalesce(profile->>'firstName', '') || ' ' || coalesce(profile->>'lastName', '')) gin_trgm_ops);
CREATE INDEX members_search_last_first ON members USING gin (
  lower(coalesce(profile->>'lastName', '') || ' ' || coalesce(profile->>'firstName', '')) gin_trgm_ops);

-- The agency's jobs select only the members one of whose instants is due (bff/mail/agency-mail-triggers.ts,
-- bff/retention/retention-job.ts): the indexes 0045 did not make.
CREATE INDEX members_withdrawal_ends_at ON members (withdrawal_ends_at) WHERE withdrawal_ends_at IS NOT NULL;
CREATE INDEX members_meeting_at ON members ((onboarding->>'onboardingMeetingDate')) WHERE onboarding->>'onboardingMeetingDate' IS NOT NULL;
CREATE INDEX onboarding_events_activation ON onboarding_events (created_at) WHERE to_state = 'membre-actif' OR context = 'meeting_mm';

-- The billing view's order (newest first) served by each branch's instant, so that a page is an
-- ordered merge of the four tables rather than a sort of all their rows; its totals join the
-- members by an index of their ids.
CREATE INDEX instalments_billing_at ON instalments ((coalesce(CASE WHEN status = 'paid' THEN paid_at ELSE failed_at END, updated_at)));
CREATE INDEX refunds_billing_at ON refunds ((coalesce(completed_at, requested_at)));
CREATE INDEX members_role_id ON members (role, id);
