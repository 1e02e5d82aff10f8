-- Mon profil (issue 21, docs/decisions/123-member-edits-own-answers.md). Once the contract is
-- signed, a member no longer edits their answers directly: each change is a request to staff,
-- who apply or decline it. `changes` holds what changes (field, old → new), `proposed` the whole
-- validated section as the member sent it. At most one pending request per member and section.
CREATE TABLE member_change_requests (
  id bigserial PRIMARY KEY,
  member_id uuid NOT NULL,
  section text NOT NULL CHECK (section IN ('profil', 'questionnaire')),
  changes jsonb NOT NULL,
  proposed jsonb NOT NULL,
  note text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'applied', 'declined')),
  created_at timestamptz NOT NULL,
  decided_at timestamptz,
  decided_by uuid,
  decision_note text NOT NULL DEFAULT ''
);
CREATE INDEX member_change_requests_member_idx ON member_change_requests (member_id, created_at DESC);
CREATE UNIQUE INDEX member_change_requests_one_pending ON member_change_requests (member_id, section) WHERE status = 'pending';
