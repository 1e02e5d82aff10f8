-- Introductions (issue 22): one row per pair of members, the stored form of the introduction
-- chart of machines/introductions (state key, context, optimistic version), written only by
-- bff/introductions/introductions.ts in one transaction per event, beside an append-only log.
-- Side `a` is the member staff named first. One proposal per pair, ever: a staff re-opening
-- (REOPEN) updates the same row, its earlier round kept in the context's history.
CREATE TABLE introductions (
  id uuid PRIMARY KEY,
  member_a uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  member_b uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  -- An atomic state key of the chart (`proposee.attente-des-reponses`, `acceptee`…).
  state text NOT NULL,
  context jsonb NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  -- The current round's proposal and its answer deadline (7 days), copied from the context for the deadline job.
  proposed_at timestamptz NOT NULL,
  deadline_at timestamptz NOT NULL,
  created_by uuid REFERENCES members (id) ON DELETE SET NULL,
  -- Staff's note to each side, shown to that side only.
  note_a text,
  note_b text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (member_a <> member_b)
);
-- One proposal per unordered pair, ever.
CREATE UNIQUE INDEX introductions_pair_idx ON introductions (least(member_a, member_b), greatest(member_a, member_b));
CREATE INDEX introductions_member_a_idx ON introductions (member_a);
CREATE INDEX introductions_member_b_idx ON introductions (member_b);
-- The deadline job: proposals still waiting for answers.
CREATE INDEX introductions_waiting_idx ON introductions (deadline_at) WHERE state LIKE 'proposee.%';

-- Every accepted event of an introduction (the proposal itself is `PROPOSE`, version 1): who,
-- which side, from which state to which, at which version. No free text (notes and comments
-- live in the context only, where erasure and retention find them).
CREATE TABLE introduction_events (
  id bigserial PRIMARY KEY,
  introduction_id uuid NOT NULL REFERENCES introductions (id) ON DELETE CASCADE,
  event text NOT NULL,
  actor_id uuid,
  actor_role text NOT NULL CHECK (actor_role IN ('member', 'staff', 'system')),
  side text CHECK (side IN ('a', 'b')),
  from_state text,
  to_state text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  version integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (introduction_id, version)
);

-- The event log is append-only.
CREATE FUNCTION introduction_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'introduction_events is append-only';
END;
$$;
CREATE TRIGGER introduction_events_no_update BEFORE UPDATE ON introduction_events
  FOR EACH ROW EXECUTE FUNCTION introduction_events_append_only();
