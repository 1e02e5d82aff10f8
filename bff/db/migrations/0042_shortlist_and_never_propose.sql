-- Candidates a matchmaker can work with (issue 62 point 7, decision 201). Staff-only lists.
--
-- 1. A shortlist per member: the candidates staff keep aside for them, who added them and when.
CREATE TABLE member_shortlists (
  member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  candidate_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  added_by uuid REFERENCES members (id) ON DELETE SET NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, candidate_id),
  CHECK (member_id <> candidate_id)
);
CREATE INDEX member_shortlists_candidate ON member_shortlists (candidate_id);

-- 2. « Ne jamais proposer ces deux personnes », with staff's reason: a pair, stored once (the
--    smaller id first), excluded from the candidates both ways and refused at the proposal.
CREATE TABLE never_propose_pairs (
  member_low uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  member_high uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 1000 AND reason = btrim(reason)),
  created_by uuid REFERENCES members (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member_low, member_high),
  CHECK (member_low < member_high)
);
CREATE INDEX never_propose_pairs_high ON never_propose_pairs (member_high);
