-- Staff's follow-up of a member (issue 21, decision 124): internal notes, the assigned counsellor
-- and free tags. Staff-only: no member route reads these tables. They are the member's personal
-- data all the same: the privacy export includes them and erasure deletes them
-- (bff/privacy/export.ts, bff/privacy/erasure.ts). A change of counsellor is logged in the
-- member's event log (`onboarding_events`, context `counsellor`), not here.

-- Internal notes: newest first on screen; only their author edits or deletes them.
CREATE TABLE member_notes (
  id bigserial PRIMARY KEY,
  member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  author_id uuid REFERENCES members (id) ON DELETE SET NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  edited_at timestamptz
);
CREATE INDEX member_notes_member ON member_notes (member_id, id);

-- The staff member in charge of the member (absent row: nobody).
CREATE TABLE member_counsellors (
  member_id uuid PRIMARY KEY REFERENCES members (id) ON DELETE CASCADE,
  counsellor_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  assigned_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX member_counsellors_counsellor ON member_counsellors (counsellor_id);

-- Free short labels (lower-case, trimmed), at most one of each per member.
CREATE TABLE member_tags (
  member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  tag text NOT NULL CHECK (char_length(tag) BETWEEN 1 AND 40),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, tag)
);
CREATE INDEX member_tags_tag ON member_tags (tag);
