-- Matchmaking profiles (issue 22): one row per member, derived from steps 1-2 of onboarding
-- (machines/matching/criteria.ts `profileFromOnboarding`, written by bff/matching/candidates.ts
-- `upsertMatchProfile`), so that ranking candidates filters on typed, indexed columns instead of
-- reading JSON. Codes are those of machines/onboarding/labels.ts.
CREATE TABLE match_profiles (
  member_id uuid PRIMARY KEY REFERENCES members (id) ON DELETE CASCADE,
  gender text NOT NULL CHECK (gender IN ('homme', 'femme')),
  birth_date date NOT NULL,
  -- From the postcode of step 1 (machines/matching/regions.ts).
  region text NOT NULL,
  practice text NOT NULL,
  marital_status text NOT NULL,
  children_count smallint NOT NULL CHECK (children_count BETWEEN 0 AND 20),
  profession text NOT NULL,
  -- The annex (step 2), both ways of every hard criterion on columns.
  age_min smallint NOT NULL CHECK (age_min BETWEEN 18 AND 99),
  age_max smallint NOT NULL CHECK (age_max BETWEEN 18 AND 99),
  regions_accepted text[] NOT NULL,
  sought_practice text NOT NULL,
  practices_accepted text[] NOT NULL,
  family_situations_accepted text[] NOT NULL,
  accepts_children boolean NOT NULL,
  sought_professional_situation text NOT NULL,
  -- Active member, consent given, not paused, not disabled or erased; the term is checked at
  -- query time against contract_ends_at.
  available boolean NOT NULL,
  unavailable_reason text,
  contract_ends_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (age_min <= age_max),
  CHECK (available = (unavailable_reason IS NULL))
);

-- The pool of one ranking: available members of one gender in a birth-date range.
CREATE INDEX match_profiles_pool_idx ON match_profiles (gender, birth_date) WHERE available;
-- The other way: candidates whose annex accepts the member's region / practice.
CREATE INDEX match_profiles_regions_idx ON match_profiles USING gin (regions_accepted) WHERE available;
CREATE INDEX match_profiles_practices_idx ON match_profiles USING gin (practices_accepted) WHERE available;

-- No write path can leave a profile that should no longer be proposed: an erased member, or one
-- whose step 1 or 2 is gone (erasure, retention), loses the row (it holds sensitive data); a
-- disabled member, or one whose matchmaking is paused (consent withdrawn), becomes unavailable.
-- Making a member available again is upsertMatchProfile's job, never a trigger's.
CREATE FUNCTION match_profiles_follow_member() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.erased_at IS NOT NULL OR NEW.profile IS NULL OR NEW.questionnaire IS NULL OR NEW.role <> 'member' THEN
    DELETE FROM match_profiles WHERE member_id = NEW.id;
  ELSIF NEW.disabled THEN
    UPDATE match_profiles SET available = false, unavailable_reason = 'desactive', updated_at = now()
      WHERE member_id = NEW.id AND unavailable_reason IS DISTINCT FROM 'desactive';
  ELSIF NEW.matchmaking_paused_at IS NOT NULL THEN
    UPDATE match_profiles SET available = false, unavailable_reason = 'mise-en-relation-suspendue', updated_at = now()
      WHERE member_id = NEW.id AND unavailable_reason IS DISTINCT FROM 'mise-en-relation-suspendue';
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER members_match_profile AFTER UPDATE ON members
  FOR EACH ROW
  WHEN (NEW.erased_at IS NOT NULL OR NEW.profile IS NULL OR NEW.questionnaire IS NULL OR NEW.role <> 'member'
        OR NEW.disabled OR NEW.matchmaking_paused_at IS NOT NULL)
  EXECUTE FUNCTION match_profiles_follow_member();
