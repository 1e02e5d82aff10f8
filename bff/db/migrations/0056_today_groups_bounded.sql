-- « Aujourd'hui » answered by the database at any size (issue 64 point 2, decision 217): each group
-- is one bounded statement (its first 50 rows in order and the count of all); these partial
-- indexes hold only the rows a group can show, in its order, so that no group reads every member.

-- Onboarding meetings reserved, not noted, on a contract still running: the meetings to note once past.
CREATE INDEX members_meeting_to_note ON members ((onboarding->>'onboardingMeetingDate'))
  WHERE role = 'member'
    AND (onboarding->>'onboardingMeetingReserved') = 'true'
    AND coalesce(onboarding->>'onboardingMeetingDone', 'false') <> 'true'
    AND onboarding->>'onboardingMeetingDate' IS NOT NULL
    AND onboarding->>'contractRenouncedAt' IS NULL AND onboarding->>'contractWithdrawnAt' IS NULL
    AND onboarding->>'terminationRequestedAt' IS NULL AND onboarding->>'terminatedAt' IS NULL;

-- Introductions whose first meeting is planned, and those waiting for feedback (the proposals
-- waiting for answers have `introductions_waiting_idx`).
CREATE INDEX introductions_meeting_planned ON introductions (id) WHERE state = 'rencontre-planifiee';
CREATE INDEX introductions_feedback_waiting ON introductions (deadline_at, id) WHERE state = 'retours';

-- Leads to call back: a « Relance » date, neither converted nor closed.
CREATE INDEX lead_follow_ups_call_back ON lead_follow_ups (follow_up_on, lead_id)
  WHERE follow_up_on IS NOT NULL AND status NOT IN ('converti', 'sans_suite');

-- Members' messages to the agency nobody has read.
CREATE INDEX direct_messages_agency_unread ON direct_messages (member_id, created_at)
  WHERE direction = 'to_agency' AND staff_read_at IS NULL;

-- Termination requests not decided, instalments failed, refunds to make: by their deadline.
CREATE INDEX contract_terminations_undecided ON contract_terminations (due_by, id) WHERE decision IS NULL;
CREATE INDEX instalments_failed ON instalments (failed_at, id) WHERE status = 'failed';
CREATE INDEX refunds_to_make ON refunds (due_by, id) WHERE status IN ('pending', 'failed');
