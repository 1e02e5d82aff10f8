-- Leads (issue 21, decision 112): the contact form's messages are stored (not only mailed), and
-- staff follow pre-registrations and contact messages up in one inbox. A lead is a row of
-- `pre_subscriptions` or of `contact_messages` (both keyed by a random uuid); its follow-up lives
-- beside it, keyed by that uuid. Retention (bff/retention/retention-job.ts): contact messages 12
-- months, as the privacy policy says; follow-ups, notes and history go with their lead.

CREATE TABLE contact_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text NOT NULL,
  subject text NOT NULL,
  message text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_messages_created_at ON contact_messages (created_at);

-- Absent row: status `nouveau`, nobody assigned, no follow-up date.
CREATE TABLE lead_follow_ups (
  lead_id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('pre_subscription', 'contact')),
  status text NOT NULL DEFAULT 'nouveau' CHECK (status IN ('nouveau', 'contacte', 'converti', 'sans_suite')),
  assignee_id uuid REFERENCES members (id) ON DELETE SET NULL,
  follow_up_on date,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Append-only: staff add notes, never edit nor delete them.
CREATE TABLE lead_notes (
  id bigserial PRIMARY KEY,
  lead_id uuid NOT NULL,
  author_id uuid REFERENCES members (id) ON DELETE SET NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lead_notes_lead ON lead_notes (lead_id, id);

-- Every change staff make to a lead: who, when, what, from what to what.
CREATE TABLE lead_events (
  id bigserial PRIMARY KEY,
  lead_id uuid NOT NULL,
  actor_id uuid REFERENCES members (id) ON DELETE SET NULL,
  field text NOT NULL CHECK (field IN ('status', 'assignee', 'follow_up', 'note')),
  from_value text,
  to_value text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lead_events_lead ON lead_events (lead_id, id);
