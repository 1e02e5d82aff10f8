-- The member's stage as columns the database can filter, count and sort by (issue 64, decision 204).
--
-- Written by the server with every change of the onboarding record, in the same statement
-- (machines/onboarding/stored-stage.ts says what each column holds): the chart's state with time
-- taken out (`stage`, `stage_sub`) and the instants that move it (end of the renunciation period, of
-- the withdrawal period, of the term). `member_stage_key(…, at)` gives the chart's state at `at`.
ALTER TABLE members
  ADD COLUMN stage text,
  ADD COLUMN stage_sub text,
  ADD COLUMN renunciation_ends_at timestamptz,
  ADD COLUMN withdrawal_ends_at timestamptz,
  ADD COLUMN term_ends_at timestamptz,
  -- The row's version when the stage was written: a writer that changes the record without writing
  -- the stage (a script, a test, a future writer that forgets) leaves it NULL, never stale (below).
  ADD COLUMN stage_version integer;

-- A record changed without its stage: the stage is cleared, and the server computes it again from the
-- record before it answers a list (bff/members/stage.ts `refreshStaleStages`). Existing rows start
-- cleared: the server fills them at start-up, from the stored records (the backfill).
CREATE FUNCTION members_stage_follows_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.onboarding IS NOT DISTINCT FROM OLD.onboarding AND NEW.role IS NOT DISTINCT FROM OLD.role THEN RETURN NEW; END IF;
    IF NEW.stage_version IS DISTINCT FROM OLD.stage_version AND NEW.stage_version = NEW.version THEN RETURN NEW; END IF;
  ELSIF NEW.stage_version IS NOT DISTINCT FROM NEW.version THEN
    RETURN NEW;
  END IF;
  NEW.stage := NULL;
  NEW.stage_sub := NULL;
  NEW.renunciation_ends_at := NULL;
  NEW.withdrawal_ends_at := NULL;
  NEW.term_ends_at := NULL;
  NEW.stage_version := NULL;
  RETURN NEW;
END $$;
CREATE TRIGGER members_stage_follows_record BEFORE INSERT OR UPDATE ON members
  FOR EACH ROW EXECUTE FUNCTION members_stage_follows_record();

-- The chart's state at `at` (dotted: `attente.delai-retractation`), from the stored stage; NULL while
-- the stage is not written. The one SQL mirror of machines/onboarding/stored-stage.ts `stageAt`;
-- tests/integration/member-stage.test.ts checks it against the chart for generated records.
CREATE FUNCTION member_stage_key(stage text, stage_sub text, renunciation_ends_at timestamptz,
    withdrawal_ends_at timestamptz, term_ends_at timestamptz, at timestamptz)
  RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN stage IS NULL THEN NULL
    WHEN renunciation_ends_at IS NULL THEN stage || coalesce('.' || stage_sub, '')
    WHEN at < renunciation_ends_at THEN 'attente-contrat.delai-renonciation'
    WHEN term_ends_at IS NOT NULL AND at >= term_ends_at THEN 'contrat-termine'
    WHEN stage = 'attente' THEN
      CASE WHEN withdrawal_ends_at IS NULL OR at >= withdrawal_ends_at THEN 'attente.entretien-matchmaking'
           ELSE 'attente.delai-retractation' END
    ELSE stage
  END
$$;

-- The filters and sorts of the member list (bff/api/dashboard-routes.ts); the e-mail sort has
-- members_email_key (0001).
CREATE INDEX members_stage ON members (stage);
-- The funnel and the list's counts read the stage of every member from this index alone (an
-- index-only scan), not from the wide rows.
CREATE INDEX members_role_stage ON members (role) INCLUDE (stage, stage_sub, renunciation_ends_at, withdrawal_ends_at, term_ends_at);
CREATE INDEX members_renunciation_ends_at ON members (renunciation_ends_at) WHERE renunciation_ends_at IS NOT NULL;
CREATE INDEX members_term_ends_at ON members (term_ends_at) WHERE term_ends_at IS NOT NULL;
CREATE INDEX members_stage_missing ON members (id) WHERE stage IS NULL;
CREATE INDEX members_created_at ON members (created_at);
CREATE INDEX members_updated_at ON members (updated_at);

-- The agency's billing view, paged and filtered by period in SQL (bff/payments/billing.ts).
CREATE INDEX checkout_sessions_created_at ON checkout_sessions (created_at);
CREATE INDEX invoices_checkout_session ON invoices (checkout_session_id);
