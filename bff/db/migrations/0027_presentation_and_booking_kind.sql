-- Issue 22, decision 128.
--
-- 1. The member's short presentation (optional free text, at most 600 characters, checked again
--    by machines/matching/presentation.ts: trimmed, no e-mail address or phone number). It is
--    shown to the other side only inside a proposal's anonymised summary, to staff on the member's
--    file and, on request, beside the candidates (each such read logged). The export includes it;
--    erasure deletes it (bff/privacy/export.ts, erasure.ts).
CREATE TABLE member_presentations (
  member_id uuid PRIMARY KEY REFERENCES members (id) ON DELETE CASCADE,
  body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 600 AND body = btrim(body)),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A staff read of the presentation outside the member's file (beside the candidates) is logged.
ALTER TABLE access_log DROP CONSTRAINT access_log_resource_check;
ALTER TABLE access_log ADD CONSTRAINT access_log_resource_check
  CHECK (resource IN ('member_file', 'signed_contract', 'member_photo', 'member_presentation'));

-- 2. Which meeting a booking is, decided once when the booking is first recorded
--    (machines/agenda/booking-kind.ts `bookingKindAtRecording`): the onboarding meeting while it
--    is not held yet, else the matchmaking meeting. NULL: recorded before its member was known.
ALTER TABLE bookings ADD COLUMN kind text
  CHECK (kind IS NULL OR kind IN ('entretien-personnalise', 'entretien-matchmaking'));

-- Bookings already stored: the same rule on the member's record as it stands (the best knowledge).
UPDATE bookings b SET kind = CASE
    WHEN (m.onboarding -> 'onboardingMeetingDone') IS DISTINCT FROM 'true'::jsonb THEN 'entretien-personnalise'
    -- (nested CASE: the cast is only tried on a date-looking value; AND does not short-circuit)
    WHEN CASE WHEN m.onboarding ->> 'onboardingMeetingDate' ~ '^\d{4}-\d{2}-\d{2}T'
      THEN (m.onboarding ->> 'onboardingMeetingDate')::timestamptz = b.start_time ELSE false END THEN 'entretien-personnalise'
    ELSE 'entretien-matchmaking'
  END
  FROM members m
  WHERE m.id = b.member_id;
