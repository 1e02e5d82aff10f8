-- Direct messages from staff to a member (dashboard "message direct"). Each message is also
-- e-mailed through mail_outbox, in the same transaction; the member reads them in their space.
CREATE TABLE direct_messages (
  id bigserial PRIMARY KEY,
  member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  -- The staff member who wrote it (kept when that account is deleted).
  author_id uuid REFERENCES members (id) ON DELETE SET NULL,
  subject text NOT NULL CHECK (char_length(subject) BETWEEN 1 AND 150),
  body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 5000),
  mail_id bigint REFERENCES mail_outbox (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX direct_messages_member_idx ON direct_messages (member_id, id);
