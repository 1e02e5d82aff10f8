-- Presentations reviewed by staff (issue 62 point 6, decision 200). `body` stays what the member
-- last wrote; `status` says where staff stand on it; `approved_body` is the last version staff
-- approved — the only one another member ever reads (NULL: none yet). A refusal keeps the earlier
-- approved version shown and gives the member staff's message (`refusal`).
ALTER TABLE member_presentations
  ADD COLUMN status text NOT NULL DEFAULT 'en-attente' CHECK (status IN ('en-attente', 'approuvee', 'refusee')),
  ADD COLUMN approved_body text CHECK (approved_body IS NULL OR char_length(approved_body) BETWEEN 1 AND 600),
  ADD COLUMN reviewed_at timestamptz,
  ADD COLUMN reviewed_by uuid REFERENCES members (id) ON DELETE SET NULL,
  ADD COLUMN refusal text CHECK (refusal IS NULL OR char_length(refusal) BETWEEN 1 AND 1000),
  ADD CONSTRAINT member_presentations_reviewed CHECK (
    (status = 'en-attente' AND refusal IS NULL)
    OR (status = 'approuvee' AND approved_body = body AND refusal IS NULL AND reviewed_at IS NOT NULL)
    OR (status = 'refusee' AND refusal IS NOT NULL AND reviewed_at IS NOT NULL)
  );

-- Presentations written before were never reviewed (a handle could sit in one): they wait for
-- staff, and nobody else reads them until approved. Every row is already 'en-attente' by default.

-- The queue: the oldest waiting first.
CREATE INDEX member_presentations_waiting ON member_presentations (updated_at) WHERE status = 'en-attente';
