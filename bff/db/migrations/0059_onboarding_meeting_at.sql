-- The onboarding meeting's instant as a column (issue 64, decision 225): « Aujourd’hui »'s meetings to
-- note counted and ordered from an index alone, instead of reading each member's record for the
-- instant inside its JSON (decision 217's « Not done »).
--
-- Kept by a trigger in the statement that writes the record, whatever writes it (the onboarding
-- authority, the booking webhook, staff actions, erasure, retention, restores, scripts): the column
-- is a function of the row, so no writer can leave it stale. NULL when the record has no meeting, or
-- an instant that does not read as one (the former reading then failed on the cast).
CREATE FUNCTION onboarding_meeting_at_of(record jsonb) RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF jsonb_typeof(record->'onboardingMeetingDate') IS DISTINCT FROM 'string' THEN RETURN NULL; END IF;
  RETURN (record->>'onboardingMeetingDate')::timestamptz;
EXCEPTION WHEN others THEN
  RETURN NULL;
END $$;

ALTER TABLE members ADD COLUMN onboarding_meeting_at timestamptz;

CREATE FUNCTION members_meeting_follows_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.onboarding IS NOT DISTINCT FROM OLD.onboarding
    AND NEW.onboarding_meeting_at IS NOT DISTINCT FROM OLD.onboarding_meeting_at THEN
    RETURN NEW;
  END IF;
  NEW.onboarding_meeting_at := onboarding_meeting_at_of(NEW.onboarding);
  RETURN NEW;
END $$;

-- The backfill, before the trigger exists (the statement leaves the record, the stage and the
-- version as they are; the member cache's NOTIFY fires once per member, as for any write).
UPDATE members SET onboarding_meeting_at = onboarding_meeting_at_of(onboarding)
  WHERE jsonb_typeof(onboarding->'onboardingMeetingDate') = 'string';

CREATE TRIGGER members_meeting_follows_record BEFORE INSERT OR UPDATE ON members
  FOR EACH ROW EXECUTE FUNCTION members_meeting_follows_record();

-- The meetings to note (migration 0056's members_meeting_to_note, same condition), on the column:
-- the count and the first 50 in order read from the index alone.
DROP INDEX IF EXISTS members_meeting_to_note;
CREATE INDEX members_meeting_to_note ON members (onboarding_meeting_at, id)
  WHERE role = 'member' AND NOT disabled AND erased_at IS NULL
    AND (onboarding->>'onboardingMeetingReserved') = 'true'
    AND coalesce(onboarding->>'onboardingMeetingDone', 'false') <> 'true'
    AND onboarding_meeting_at IS NOT NULL
    AND onboarding->>'contractRenouncedAt' IS NULL AND onboarding->>'contractWithdrawnAt' IS NULL
    AND onboarding->>'terminationRequestedAt' IS NULL AND onboarding->>'terminatedAt' IS NULL;
