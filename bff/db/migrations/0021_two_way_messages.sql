-- Two-way messages between a member and the agency, and the staff's message templates
-- (issues 21 and 22, docs/decisions/121-two-way-messages.md).
-- A message now has a direction: written by staff to the member ('to_member') or by the member to
-- the agency ('to_agency'). Each side has its own read time: the author's side is read when the
-- message is written, the other side when its reader opens the conversation. Unread counts are
-- the rows whose reader side is still NULL (partial indexes below).
ALTER TABLE direct_messages
  ADD COLUMN direction text NOT NULL DEFAULT 'to_member' CHECK (direction IN ('to_member', 'to_agency')),
  ADD COLUMN member_read_at timestamptz,
  ADD COLUMN staff_read_at timestamptz;
-- Messages written before this migration were all written by staff: read on the staff side.
UPDATE direct_messages SET staff_read_at = created_at;
CREATE INDEX direct_messages_member_unread_idx ON direct_messages (member_id) WHERE member_read_at IS NULL;
CREATE INDEX direct_messages_staff_unread_idx ON direct_messages (member_id) WHERE staff_read_at IS NULL;

-- Reusable messages staff pick when writing: a title for the list, a subject and a body that may
-- hold placeholders ({prenom}, {nom}, {agence}), filled from the member's data when inserted.
CREATE TABLE message_templates (
  id bigserial PRIMARY KEY,
  title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 80),
  subject text NOT NULL DEFAULT '' CHECK (char_length(subject) <= 150),
  body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 5000),
  author_id uuid REFERENCES members (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX message_templates_title_idx ON message_templates (lower(title));
